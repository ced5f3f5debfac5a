// The URLs the import fetches: absolute http(s), no credentials. The URL given and every redirect target are held
// to the same rules; only the error code differs (the request was wrong, or the page sent us somewhere refused).
import { ImportError } from './import-error.ts';

/** Longest URL accepted (what browsers and servers commonly handle). */
export const MAX_URL_LENGTH = 2048;

/** Why `url` may not be fetched, or null when it may. */
export function urlProblem(url: URL): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `only http and https URLs are fetched, not ${url.protocol.slice(0, -1)}`;
  if (url.username || url.password) return 'a URL with credentials (user:password@) is refused';
  if (!url.hostname) return 'the URL has no host';
  if (url.href.length > MAX_URL_LENGTH) return `the URL is longer than ${MAX_URL_LENGTH} characters`;
  return null;
}

/** The URL to fetch (without its fragment), or ImportError `invalid-url` saying what is wrong. */
export function checkImportUrl(input: unknown): URL {
  if (typeof input !== 'string' || !input.trim()) throw new ImportError('invalid-url', 'url must be a non-empty string');
  if (input.length > MAX_URL_LENGTH) throw new ImportError('invalid-url', `url is longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new ImportError('invalid-url', `url is not an absolute URL: ${JSON.stringify(input.slice(0, 100))}`);
  }
  const problem = urlProblem(url);
  if (problem) throw new ImportError('invalid-url', problem);
  url.hash = '';
  return url;
}
