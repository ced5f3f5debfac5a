// The media types the import reads, and the bytes of a page as text: the charset of the Content-Type, else a
// byte order mark, else a <meta> charset in the first 1,024 bytes, else UTF-8.

const HTML_MEDIA_TYPES: ReadonlySet<string> = new Set(['text/html', 'application/xhtml+xml']);

/** `text/html` or `application/xhtml+xml` when the Content-Type is one of them, else null. */
export function htmlMediaType(contentType: string | undefined): string | null {
  const media = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return HTML_MEDIA_TYPES.has(media) ? media : null;
}

export function decodeHtml(body: Buffer, contentType: string | undefined): string {
  const label = charsetParameter(contentType) ?? bomCharset(body) ?? metaCharset(body) ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label);
  } catch {
    decoder = new TextDecoder('utf-8'); // a label this Node does not know
  }
  return decoder.decode(body);
}

function charsetParameter(contentType: string | undefined): string | null {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '');
  return match?.[1] ?? null;
}

function bomCharset(body: Buffer): string | null {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  return null;
}

function metaCharset(body: Buffer): string | null {
  const head = body.subarray(0, 1024).toString('latin1');
  const match = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head);
  return match?.[1] ?? null;
}
