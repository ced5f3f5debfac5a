// Headers between client and upstream: hop-by-hop headers (RFC 9110 7.6.1, and those named by Connection)
// stay on their hop; the upstream learns the client through X-Forwarded-For/-Proto/-Host.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  // undici sends its own and refuses Expect.
  'expect',
]);

function connectionTokens(value: string | string[] | undefined): Set<string> | undefined {
  if (value === undefined) return undefined;
  const tokens = (Array.isArray(value) ? value.join(',') : value)
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter((token) => token !== '' && token !== 'close' && token !== 'keep-alive');
  return tokens.length === 0 ? undefined : new Set(tokens);
}

/** The request's headers for the upstream, as a flat name/value list (the form undici takes as is). */
export function upstreamRequestHeaders(req: IncomingMessage, client: string, scheme: string): string[] {
  const raw = req.rawHeaders;
  const extra = connectionTokens(req.headers.connection);
  const out: string[] = [];
  let forwardedFor: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || extra?.has(lower)) continue;
    if (lower === 'x-forwarded-for') {
      forwardedFor = forwardedFor === undefined ? raw[i + 1]! : `${forwardedFor}, ${raw[i + 1]!}`;
      continue;
    }
    if (lower === 'x-forwarded-proto' || lower === 'x-forwarded-host') continue;
    out.push(name, raw[i + 1]!);
  }
  out.push('x-forwarded-for', forwardedFor === undefined ? client : `${forwardedFor}, ${client}`);
  out.push('x-forwarded-proto', scheme);
  if (req.headers.host !== undefined) out.push('x-forwarded-host', req.headers.host);
  return out;
}

/** The upstream response's headers for the client as a flat name/value list (the form writeHead takes as
 * is), hop-by-hop headers left out. Built anew rather than deleted from: the object stays fast to read. */
export function clientResponseHeaders(headers: IncomingHttpHeaders): (string | string[])[] {
  const connection = headers.connection;
  const extra = connection === undefined || connection === 'keep-alive' || connection === 'close' ? undefined : connectionTokens(connection);
  const out: (string | string[])[] = [];
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || HOP_BY_HOP.has(name) || extra?.has(name)) continue;
    out.push(name, value);
  }
  return out;
}
