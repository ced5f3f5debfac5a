// Headers between the client and an upstream. Hop-by-hop headers (RFC 9110 §7.6.1: Connection, the headers it
// names, Keep-Alive, Upgrade…) stay on their hop both ways: each connection's own are set for that connection.
// The upstream learns the client through X-Forwarded-For/-Port/-Proto/-Host and gets the target's Host. The
// values and joins are those the proxy sent when it ran on http-proxy (xfwd, changeOrigin), so that upstreams
// see the same requests and clients the same answers.
import { type IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Request, Response } from '../site/handler.ts';

/** Headers of one connection, never forwarded (besides Connection and those it names); HTTP2-Settings goes with
 * an h2c Upgrade. Transfer-Encoding and Content-Length stay: the body is framed by them. */
const HOP_BY_HOP = ['keep-alive', 'proxy-connection', 'te', 'upgrade', 'http2-settings'];
const HOP_BY_HOP_SET = new Set(HOP_BY_HOP);
/** Names Connection may list without them being dropped (they frame the message or name its host). */
const KEPT = new Set(['connection', 'transfer-encoding', 'content-length', 'host']);

/** The header names a Connection value lists for dropping, or undefined when it lists none (the common
 * `keep-alive` and `close` are answered without splitting). */
function namedByConnection(value: string | undefined): Set<string> | undefined {
  if (value === undefined || value === 'keep-alive' || value === 'close') return undefined;
  const named = new Set<string>();
  for (const token of value.split(',')) {
    const name = token.trim().toLowerCase();
    if (name !== '' && !KEPT.has(name)) named.add(name);
  }
  return named.size === 0 ? undefined : named;
}

/** Deletes the hop-by-hop headers but Connection itself (the caller sees to it). */
export function dropHopByHop(headers: IncomingHttpHeaders): void {
  const named = namedByConnection(headers.connection);
  if (named !== undefined) for (const header of named) delete headers[header];
  for (const header of HOP_BY_HOP) delete headers[header];
}

/** How the request body goes upstream: none, or the client's stream (framed by its Content-Length, or chunked
 * by the upstream client when it has none). */
export type BodyKind = 'none' | 'stream';

export interface UpstreamHead {
  /** Flat name/value list (the upstream client's form), names in lower case as node:http gives them. */
  headers: string[];
  body: BodyKind;
}

/**
 * The request's headers for the upstream `host`: the client's, hop-by-hop ones and Connection left out, Host
 * replaced, X-Forwarded-For/-Port/-Proto extended and X-Forwarded-Host kept or added.
 *
 * Framing: Transfer-Encoding is left to the upstream client, which chunks a body without a length. A message
 * without either header has no body; it gets `content-length: 0` unless its method is one a client sends
 * without a body (GET, HEAD, TRACE, CONNECT), as node:http's client did. A chunked DELETE or OPTIONS keeps its
 * body (http-proxy dropped it: the request would not reach the upstream with its body).
 */
export function upstreamHead(req: Request, host: string): UpstreamHead {
  const h = req.headers;
  const named = namedByConnection(h.connection);
  const method = req.method;
  const encrypted = (req.socket as TLSSocket).encrypted === true;
  const client = String(req.socket.remoteAddress);
  const port = h.host?.match(/:(\d+)/)?.[1] ?? (encrypted ? '443' : '80');
  const proto = encrypted ? 'https' : 'http';
  const length = h['content-length'];
  const chunked = h['transfer-encoding'] !== undefined;

  const out: string[] = [];
  let seen = 0;
  for (const name of Object.keys(h)) {
    if (name === 'connection' || HOP_BY_HOP_SET.has(name) || named?.has(name)) continue;
    let value = h[name]!;
    switch (name) {
      case 'host':
        value = host;
        seen |= SEEN_HOST;
        break;
      case 'transfer-encoding':
        continue;
      case 'x-forwarded-for':
        value = append(value as string, client);
        seen |= SEEN_FOR;
        break;
      case 'x-forwarded-port':
        value = append(value as string, port);
        seen |= SEEN_PORT;
        break;
      case 'x-forwarded-proto':
        value = append(value as string, proto);
        seen |= SEEN_PROTO;
        break;
      case 'x-forwarded-host':
        value ||= h.host ?? '';
        seen |= SEEN_FORWARDED_HOST;
        break;
    }
    if (typeof value === 'string') out.push(name, value);
    else for (const item of value) out.push(name, item);
  }
  if (length === undefined && !chunked && !BODILESS_METHODS.has(method ?? '')) out.push('content-length', '0');
  if ((seen & SEEN_FOR) === 0) out.push('x-forwarded-for', client);
  if ((seen & SEEN_PORT) === 0) out.push('x-forwarded-port', port);
  if ((seen & SEEN_PROTO) === 0) out.push('x-forwarded-proto', proto);
  // A client's X-Forwarded-Host that Connection named is gone: the Host it asked for takes its place.
  if ((seen & SEEN_FORWARDED_HOST) === 0) out.push('x-forwarded-host', h.host ?? '');
  if ((seen & SEEN_HOST) === 0) out.push('host', host);
  const body: BodyKind = chunked || (length !== undefined && length !== '0') ? 'stream' : 'none';
  return { headers: out, body };
}

/** A forwarding list extended with this hop's entry (comma without a space, as http-proxy joined them). */
const append = (list: string, entry: string): string => (list === '' ? entry : `${list},${entry}`);

const SEEN_HOST = 1;
const SEEN_FOR = 2;
const SEEN_PORT = 4;
const SEEN_PROTO = 8;
const SEEN_FORWARDED_HOST = 16;
/** Methods node:http's client sends without a length when the request has no body. */
const BODILESS_METHODS = new Set(['GET', 'HEAD', 'TRACE', 'CONNECT']);

/** node:http's own rule for repeated header lines (Set-Cookie kept as a list, Cookie joined with "; ", most
 * others with ", ", a few single-valued ones keeping the first): the answer's headers are relayed as node:http
 * parsed them for http-proxy. */
const addHeaderLine = (IncomingMessage.prototype as unknown as { _addHeaderLine(name: string, value: string, into: IncomingHttpHeaders): void })._addHeaderLine;
const JOIN_AS_NODE_DOES = { joinDuplicateHeaders: false };
/** node:http's test for a chunked Transfer-Encoding. */
const CHUNKED = /(?:^|\W)chunked(?:$|\W)/i;

/**
 * The upstream answer's headers (a flat name/value list) for the client, as an object that writeHead applies
 * over the headers earlier steps set: hop-by-hop ones left out, and Connection saying what Node does with the
 * client's connection (kept or closed as the client's request decided, whatever the upstream's says). An
 * HTTP/1.0 client gets no Transfer-Encoding (it cannot read chunks) and its own Connection back.
 */
export function clientHeaders(req: Request, res: Response, raw: readonly string[]): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (let i = 0; i < raw.length; i += 2) addHeaderLine.call(JOIN_AS_NODE_DOES, raw[i]!, raw[i + 1]!, headers);
  dropHopByHop(headers);
  if (req.httpVersionMajor === 1 && req.httpVersionMinor === 0) {
    delete headers['transfer-encoding'];
    headers.connection = req.headers.connection || 'close';
  } else {
    headers.connection = res.shouldKeepAlive ? 'keep-alive' : 'close';
  }
  // node:http refuses a Trailer header on an answer it does not chunk (one with a length, or to an HTTP/1.0
  // client); the trailers themselves are never relayed, so the header goes.
  if (headers.trailer !== undefined && !CHUNKED.test(headers['transfer-encoding'] ?? '')) delete headers.trailer;
  return headers;
}
