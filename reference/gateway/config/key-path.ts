// Key paths as errors name them: `sites[0].routes[1].strategy`, `sites[0].rateLimit.routes["/api"]`.
// Array indexes in brackets, identifier keys after a dot, any other key as a quoted string in brackets.

export type KeySegment = string | number;

export function formatKeyPath(segments: readonly KeySegment[]): string {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(segment)) path += path === '' ? segment : `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}

/** The segments of a JSON Pointer (as ajv reports `instancePath`) into `data`: a step into an array is an
 * index, any other step a key, even when it looks like a number. */
export function pointerSegments(pointer: string, data: unknown): KeySegment[] {
  if (pointer === '') return [];
  const segments: KeySegment[] = [];
  let node = data;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(node)) {
      const index = Number(key);
      segments.push(index);
      node = node[index];
    } else {
      segments.push(key);
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    }
  }
  return segments;
}
