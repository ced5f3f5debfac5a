// Route prefixes match on a path segment boundary (`/api` matches `/api`, `/api/x` and `/api?q`, not
// `/apix`); the longest matching prefix wins (catalog gateway/data-plane/route-prefix-matching).

/** The path part of a request target (without the query). */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

export function matchesPrefix(prefix: string, path: string): boolean {
  if (!path.startsWith(prefix)) return false;
  return path.length === prefix.length || prefix.endsWith('/') || path.charCodeAt(prefix.length) === 47; // '/'
}

/** The request target sent upstream by a route that strips its prefix (`prefix` matched `url`'s path):
 * the rest of it, always starting with `/` (`/api/x?q` → `/x?q`, `/api` → `/`, `/api?q` → `/?q`). */
export function withoutPrefix(prefix: string, url: string): string {
  const rest = url.slice(prefix.length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** Sorts once, longest prefix first, so the first match is the longest. */
export function longestFirst<T extends { path: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => b.path.length - a.path.length);
}

export function findLongest<T extends { path: string }>(sorted: readonly T[], path: string): T | undefined {
  for (const item of sorted) if (matchesPrefix(item.path, path)) return item;
  return undefined;
}
