// Shared file contents and request helpers of the static suite.
export const ICON = Uint8Array.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0, 0x68, 0x04, 0, 0, 0x16, 0, 0, 0]);

export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** A POSIX shell CGI script (executable) printing a header block and then `body`. */
export function shellScript(body: string, headers = 'Content-Type: text/plain'): { content: string; mode: number } {
  return { content: `#!/bin/sh\nprintf '%s\\r\\n\\r\\n' '${headers}'\n${body}\n`, mode: 0o755 };
}

/** Statuses of a redirect (with a Location header): how a case recognises one where its clause is not about
 * the status, which is static/redirects/default-status-301's for a rule without one. */
export const REDIRECT_STATUSES: readonly number[] = [301, 302, 303, 307, 308];

export function isRedirect(status: number): boolean {
  return REDIRECT_STATUSES.includes(status);
}

/** Response headers that are security headers (helmet's, and the like); which ones a server sends is
 * static/helmet/default-set. */
export const SECURITY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'cross-origin-embedder-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
  'permissions-policy',
];
