// One error class for importing a recipe from a URL, with a closed set of codes, and the HTTP status the API
// answers for each (catalog recipes/import/failures). Platform errors (ECONNREFUSED, ENOTFOUND, TLS…) are never
// thrown bare: fetch-page.ts maps them to `fetch-failed` with the system error as `cause`.

export const IMPORT_ERROR_CODES = [
  /** The URL given is not an absolute http(s) URL without credentials. */
  'invalid-url',
  /** The page could not be fetched: network error, a status other than 2xx, a redirect that is refused (more than
   * the limit, to another scheme, with credentials) or an answer that cannot be decoded. */
  'fetch-failed',
  /** Connecting, or the whole fetch with its redirects and body, took longer than allowed. */
  'timeout',
  /** The body is larger than the size cap (said by Content-Length, or found while reading). */
  'too-large',
  /** The answer is not HTML (text/html or application/xhtml+xml). */
  'not-html',
  /** The page holds no schema.org Recipe and no social title (Open Graph or Twitter). */
  'no-recipe',
] as const;

export type ImportErrorCode = (typeof IMPORT_ERROR_CODES)[number];

export class ImportError extends Error {
  override name = 'ImportError';
  readonly code: ImportErrorCode;
  constructor(code: ImportErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** The status of the API's answer for an import error. */
export function importErrorStatus(code: ImportErrorCode): 400 | 422 {
  switch (code) {
    case 'invalid-url': // the request itself is wrong
      return 400;
    case 'fetch-failed': // the request is fine; the page could not be used
    case 'timeout':
    case 'too-large':
    case 'not-html':
    case 'no-recipe':
      return 422;
  }
}
