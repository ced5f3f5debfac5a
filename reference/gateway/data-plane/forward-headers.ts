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
  // The gateway reads the whole request before the upstream could ask for it: no 100-continue upstream.
  'expect',
]);

const FORWARDED = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host'];
/** Lengths of the names the loops below look for: a name of another length needs no lower-casing. */
const WATCHED_LENGTHS = new Set([...HOP_BY_HOP, ...FORWARDED].map((name) => name.length));

/** The name lower-cased when it may be one the loops look for (or `always`), else '' (cheap on the hot path). */
const watched = (name: string, always: boolean): string => (always || WATCHED_LENGTHS.has(name.length) ? name.toLowerCase() : '');

/** Names a Connection header may not take off a message: a request without Host is not HTTP/1.1, and a
 * client naming it must not reach the upstream without one. */
const KEPT = new Set(['host']);

function connectionTokens(value: string | string[] | undefined): Set<string> | undefined {
  if (value === undefined || value === 'keep-alive' || value === 'close') return undefined;
  const tokens = (Array.isArray(value) ? value.join(',') : value)
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter((token) => token !== '' && token !== 'close' && token !== 'keep-alive' && !KEPT.has(token));
  return tokens.length === 0 ? undefined : new Set(tokens);
}

/** The request's headers for the upstream, as a flat name/value list (the form the upstream pool takes);
 * `forwarded` false (the site's proxy.forwardedHeaders): no X-Forwarded-* added, the client's passed on. */
export function upstreamRequestHeaders(req: IncomingMessage, client: string, scheme: string, forwarded = true): string[] {
  const raw = req.rawHeaders;
  const extra = connectionTokens(req.headers.connection);
  const out: string[] = [];
  let forwardedFor: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = watched(name, extra !== undefined);
    if (HOP_BY_HOP.has(lower) || extra?.has(lower)) continue;
    if (!forwarded) {
      out.push(name, raw[i + 1]!);
      continue;
    }
    if (lower === 'x-forwarded-for') {
      forwardedFor = forwardedFor === undefined ? raw[i + 1]! : `${forwardedFor}, ${raw[i + 1]!}`;
      continue;
    }
    if (lower === 'x-forwarded-proto' || lower === 'x-forwarded-host') continue;
    out.push(name, raw[i + 1]!);
  }
  if (!forwarded) return out;
  out.push('x-forwarded-for', forwardedFor === undefined ? client : `${forwardedFor}, ${client}`);
  out.push('x-forwarded-proto', scheme);
  if (req.headers.host !== undefined) out.push('x-forwarded-host', req.headers.host);
  return out;
}

const NO_NAMES: ReadonlySet<string> = new Set();

/** `list` (a flat name/value list) with the headers of `set` in place of any of the same names. */
export function replaceHeaders(list: string[], set: readonly (readonly [string, string])[]): string[] {
  return changeHeaders(list, NO_NAMES, set);
}

/** `list` without the headers named in `remove` (lower-case), then with those of `set` in place of any of
 * the same names: one pass over the list. */
export function changeHeaders(list: string[], remove: ReadonlySet<string>, set: readonly (readonly [string, string])[]): string[] {
  if (set.length === 0 && remove.size === 0) return list;
  const names = new Set(remove);
  for (const [name] of set) names.add(name.toLowerCase());
  const out = list.filter((_, i) => !names.has(list[i - (i % 2)]!.toLowerCase()));
  for (const [name, value] of set) out.push(name, value);
  return out;
}

/** The upstream response's headers (a flat name/value list) for the client, in the same form (the one
 * writeHead takes as is) and with the names as the upstream wrote them, hop-by-hop headers left out. */
export function clientResponseHeaders(headers: readonly string[]): string[] {
  const out: string[] = [];
  let extra: Set<string> | undefined;
  for (let i = 0; i < headers.length; i += 2) {
    const name = headers[i]!;
    const lower = watched(name, false);
    if (lower === 'connection') {
      const tokens = connectionTokens(headers[i + 1]);
      if (tokens !== undefined) extra = new Set([...(extra ?? []), ...tokens]);
    }
    if (HOP_BY_HOP.has(lower)) continue;
    out.push(name, headers[i + 1]!);
  }
  if (extra === undefined) return out;
  return out.filter((_, i) => !extra.has(out[i - (i % 2)]!.toLowerCase()));
}

/** A flat name/value list as an object of lower-case names; repeated names are joined as node:http does
 * (set-cookie as a list, others with ", "). */
export function headerObject(list: readonly string[]): IncomingHttpHeaders {
  const headers: Record<string, string | string[]> = {};
  for (let i = 0; i < list.length; i += 2) {
    const name = list[i]!.toLowerCase();
    const value = list[i + 1]!;
    const before = headers[name];
    if (before === undefined) headers[name] = name === 'set-cookie' ? [value] : value;
    else if (Array.isArray(before)) before.push(value);
    else headers[name] = `${before}, ${value}`;
  }
  return headers;
}
