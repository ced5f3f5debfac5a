// The faults the faulty static server can inject (FAULTS=a,b,...), each breaking one documented behaviour.
export const FAULTS = {
  /** The health object says "OK" and gives uptime as a string. */
  'health-body': 'health status "OK", uptime a string',
  /** Every 301 becomes 302. */
  'redirect-status': 'redirects answer 302 instead of 301',
  /** A redirect rule without a status answers 302 (an explicit status is kept). */
  'redirect-default-302': 'redirects without a status answer 302',
  /** 429 becomes 200: the rate limit never bites. */
  'rate-limit': 'rate limit never answers 429',
  /** Paths with `..` are read from disk with a naive join: files outside the folders leak. */
  traversal: 'dot-dot paths read outside the folders',
  /** The Accept header is dropped before the unhandled step sees it. */
  'unhandled-accept': 'unhandled ignores Accept',
  /** The site's custom headers are stripped from responses. */
  'drop-custom-headers': 'custom headers missing',
  /** X-Response-Time is removed. */
  'strip-response-time': 'no X-Response-Time header',
  /** helmet's security headers are removed. */
  'strip-security-headers': 'no security headers',
  /** Every Access-Control-* header is removed. */
  'strip-cors': 'no CORS headers',
  /** Compressed bodies are sent uncompressed. */
  'no-compression': 'responses never compressed',
  /** The built-in not-found answer (no `unhandled` and no `proxy` in the site) is 410 instead of 404: the cases of
   * paths falling through compare with it, so only static/unhandled/default-404 goes red. */
  'unhandled-410': 'built-in not-found answers 410',
  /** --help / -h exits 1 without usage. */
  'help-fails': '--help fails',
} as const;
export type Fault = keyof typeof FAULTS;
