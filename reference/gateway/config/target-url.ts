// Upstream target URLs, as the config's routes[].targets[].url takes them: scheme, host and optional port,
// nothing else, since the gateway forwards each request's own path and query unchanged.

/** Why `text` is not a usable target URL, or undefined when it is. */
export function targetUrlProblem(text: string): string | undefined {
  const generic = 'must be an absolute http:// or https:// URL such as http://127.0.0.1:9001';
  if (!/^https?:\/\/[^/]/i.test(text) || /\s/.test(text)) return generic;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return generic;
  }
  if (url.username !== '' || url.password !== '') return 'must not hold a user name or password';
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '') {
    return 'must not have a path, query or fragment (each request keeps its own path)';
  }
  return undefined;
}

/** The form two target URLs are compared in: WHATWG-normalised (scheme and host lower-cased, default port
 * dropped, empty path as `/`). */
export function targetKey(text: string): string {
  return new URL(text).href;
}
