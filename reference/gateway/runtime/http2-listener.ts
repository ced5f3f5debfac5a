// A public port speaking HTTP/2 beside HTTP/1.1 (a site's `http2: true`). With TLS the client chooses by
// ALPN (node:http2's secure server, HTTP/1.1 allowed); without, a connection opening with the HTTP/2 preface
// is prior-knowledge h2c and any other is handed to a node:http server (no h2c Upgrade: it is gone from RFC
// 9113). The request pipeline is written against node:http's request and response, so the compatibility
// objects of node:http2 are made to look like them here: Host from :authority, rawHeaders without
// pseudo-headers, no connection-specific answer headers (HTTP/2 forbids them). HTTP/1.1 keeps the limits of
// an HTTP/1.1-only listener; HTTP/2 gets those it has an equivalent for. Shutdown sends GOAWAY to every
// session (streams under way finish), then destroys what is left, as node:http does with its connections.
import {
  createServer as createHttpServer,
  Server as HttpServer,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
  type ServerOptions as HttpOptions,
} from 'node:http';
import {
  constants,
  createSecureServer,
  createServer as createH2cServer,
  Http2ServerRequest,
  Http2ServerResponse,
  type Http2SecureServer,
  type Http2Server,
  type ServerHttp2Session,
  type ServerHttp2Stream,
} from 'node:http2';
import { createServer as createNetServer, type Socket } from 'node:net';
import type { ReadableOptions } from 'node:stream';
import type { TlsOptions } from 'node:tls';
import type { CLIENT_LIMITS, Handler, ListenerServer } from './listeners.ts';

/** The port's certificate by default and the SNI callback choosing a host's. */
export type SecureOptions = Required<Pick<TlsOptions, 'cert' | 'key' | 'SNICallback'>>;

/** The listener's client limits (listeners.ts CLIENT_LIMITS; shorter in tests). */
export type ClientLimits = Record<keyof typeof CLIENT_LIMITS, number>;

export interface Http2ListenerOptions {
  handler: Handler;
  /** undefined: cleartext (h2c by prior knowledge). */
  tls: SecureOptions | undefined;
  /** node:http's options of an HTTP/1.1-only listener. */
  http1: HttpOptions;
  limits: ClientLimits;
}

/** What a prior-knowledge h2c client sends first (RFC 9113 3.4). */
const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

/** Streams a session may have open at once: HTTP/1.1 gives a connection one request at a time; HTTP/2 some
 * more, bounded (node's default is unbounded). */
const MAX_CONCURRENT_STREAMS = 100;

/** Response headers HTTP/2 forbids (RFC 9113 8.2.2); node:http2 drops connection and throws on the others. */
const CONNECTION_SPECIFIC = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'http2-settings']);
const SPECIFIC_LENGTHS = new Set([...CONNECTION_SPECIFIC].map((name) => name.length));
const forbidden = (name: string): boolean => SPECIFIC_LENGTHS.has(name.length) && CONNECTION_SPECIFIC.has(name.toLowerCase());

/** The request's headers as node:http lists them: no pseudo-headers, Host first when only :authority was
 * sent, one Cookie (split cookies are joined with "; " for HTTP/1.1, RFC 9113 8.2.3). */
function http1RawHeaders(raw: readonly string[], headers: IncomingHttpHeaders): string[] {
  const out: string[] = [];
  let host = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.startsWith(':') || name === 'cookie') continue;
    host ||= name === 'host';
    out.push(name, raw[i + 1]!);
  }
  if (!host && headers.host !== undefined) out.unshift('host', headers.host);
  if (headers.cookie !== undefined) out.push('cookie', headers.cookie);
  return out;
}

/**
 * An HTTP/2 request as the pipeline reads one. A body without content-length is marked
 * `transfer-encoding: chunked` in `headers` (not in rawHeaders, which are what is forwarded): to code written
 * for HTTP/1.1 that says "a body of unknown length follows", which is what an HTTP/2 request without
 * END_STREAM on its headers and without content-length is.
 */
class H2Request extends Http2ServerRequest {
  constructor(stream: ServerHttp2Stream, headers: IncomingHttpHeaders, options: ReadableOptions, rawHeaders: readonly string[]) {
    const authority = headers[':authority'];
    if (headers.host === undefined && typeof authority === 'string') headers.host = authority;
    if (!stream.endAfterHeaders && headers['content-length'] === undefined) headers['transfer-encoding'] = 'chunked';
    super(stream, headers, options, http1RawHeaders(rawHeaders, headers));
  }
}

type HeaderList = readonly string[];
const isList = (headers: OutgoingHttpHeaders | HeaderList): headers is HeaderList => Array.isArray(headers);

/** `headers` (an object or node:http's flat name/value list) without the connection-specific ones; the
 * same value when it has none. */
function withoutConnectionSpecific(headers: OutgoingHttpHeaders | HeaderList): OutgoingHttpHeaders | HeaderList {
  if (isList(headers)) {
    if (!headers.some((name, i) => i % 2 === 0 && forbidden(name))) return headers;
    return headers.filter((_, i) => !forbidden(headers[i - (i % 2)]!));
  }
  if (!Object.keys(headers).some(forbidden)) return headers;
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !forbidden(name)));
}

/** An HTTP/2 response taking what node:http's takes: the connection-specific headers the pipeline may set
 * (Connection: close after an unread body, a fallback's own headers) are left out; a reason phrase too
 * (HTTP/2 has none). */
class H2Response extends Http2ServerResponse {
  override setHeader(name: string, value: number | string | readonly string[]): void {
    if (!forbidden(name)) super.setHeader(name, value);
  }

  override writeHead(statusCode: number, headers?: OutgoingHttpHeaders | HeaderList): this;
  override writeHead(statusCode: number, statusMessage: string, headers?: OutgoingHttpHeaders | HeaderList): this;
  override writeHead(statusCode: number, second?: string | OutgoingHttpHeaders | HeaderList, third?: OutgoingHttpHeaders | HeaderList): this {
    const headers = typeof second === 'string' ? third : second;
    if (headers === undefined) return super.writeHead(statusCode);
    // node:http2 takes the flat list as node:http does; its types know only the object.
    return super.writeHead(statusCode, withoutConnectionSpecific(headers) as OutgoingHttpHeaders);
  }
}

const h2Options = (limits: ClientLimits) => ({
  settings: { maxConcurrentStreams: MAX_CONCURRENT_STREAMS, maxHeaderListSize: limits.maxHeaderSize },
  Http2ServerRequest: H2Request,
  Http2ServerResponse: H2Response,
});

/** The h2 request and response stand in for node:http's (the classes above). */
const h2Handler = (handler: Handler) => handler as unknown as (req: H2Request, res: H2Response) => void;

/**
 * Follows a server's sessions: one is closed (GOAWAY) after keepAliveTimeoutMs without activity while no
 * stream is open; a stream whose request body is not all in within requestTimeoutMs is reset (CANCEL), as
 * node:http bounds an HTTP/1.1 request. Returns what shutdown does to them: GOAWAY to all (and to any session
 * begun after), then destroying those left.
 */
function followSessions(server: Http2Server | Http2SecureServer, limits: ClientLimits): { closeIdle(): void; closeAll(): void } {
  const sessions = new Set<ServerHttp2Session>();
  let closing = false;
  server.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
    if (closing) session.close();
    // The timeout fires once per quiet spell: one while streams are open is let pass, and the last stream's
    // end starts the keep-alive wait afresh.
    let open = 0;
    session.on('stream', (stream: ServerHttp2Stream) => {
      open++;
      stream.once('close', () => {
        if (--open === 0 && !session.destroyed) session.setTimeout(limits.keepAliveTimeoutMs);
      });
    });
    session.on('timeout', () => {
      if (open === 0) session.close();
    });
    session.setTimeout(limits.keepAliveTimeoutMs);
  });
  server.on('stream', (stream: ServerHttp2Stream) => {
    if (stream.endAfterHeaders) return;
    const timer = setTimeout(() => stream.close(constants.NGHTTP2_CANCEL), limits.requestTimeoutMs);
    const clear = (): void => clearTimeout(timer);
    stream.once('end', clear);
    stream.once('close', clear);
  });
  return {
    closeIdle() {
      closing = true;
      for (const session of sessions) session.close();
    },
    closeAll() {
      for (const session of sessions) session.destroy();
    },
  };
}

/** TLS: node:http2's secure server, HTTP/1.1 by ALPN (or without ALPN) served by its node:http part. */
function secureListener(options: Http2ListenerOptions, tls: SecureOptions): ListenerServer {
  const server = createSecureServer(
    { ...h2Options(options.limits), ...tls, allowHTTP1: true, ALPNProtocols: ['h2', 'http/1.1'] },
    h2Handler(options.handler),
  );
  // node:http2 sets HTTP/1.1 timeouts of its own; its node:http part reads them from the server.
  Object.assign(server, options.http1);
  const sessions = followSessions(server, options.limits);
  // Its node:http part tracks the HTTP/1.1 connections: node:http2's own closeIdleConnections reaches them
  // this way, and it has no closeAllConnections.
  return Object.assign(server, {
    closeIdleConnections() {
      HttpServer.prototype.closeIdleConnections.call(server);
      sessions.closeIdle();
    },
    closeAllConnections() {
      HttpServer.prototype.closeAllConnections.call(server);
      sessions.closeAll();
    },
  });
}

/** Reads a connection's first bytes until they are, or cannot be, the HTTP/2 preface; puts them back and
 * says which. A connection sending nothing within `timeoutMs` is closed, as node:http closes one sending no
 * headers. */
function sniff(socket: Socket, timeoutMs: number, decided: (h2: boolean) => void): void {
  let head: Buffer = Buffer.alloc(0);
  const drop = (): void => {
    socket.destroy();
  };
  const onData = (chunk: Buffer): void => {
    head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
    const seen = Math.min(head.length, PREFACE.length);
    const h2 = head.subarray(0, seen).equals(PREFACE.subarray(0, seen));
    if (h2 && head.length < PREFACE.length) return;
    socket.off('data', onData);
    socket.off('error', drop);
    socket.off('timeout', drop);
    socket.setTimeout(0);
    socket.pause();
    socket.unshift(head);
    decided(h2);
    process.nextTick(() => socket.resume());
  };
  socket.setTimeout(timeoutMs, drop);
  socket.on('error', drop);
  socket.on('data', onData);
}

/** Cleartext: a net.Server handing each connection to a node:http server or a node:http2 one. */
function cleartextListener(options: Http2ListenerOptions): ListenerServer {
  const http1 = createHttpServer(options.http1, options.handler);
  // node:http starts tracking connections (its header and request timeouts, closing idle ones) when it
  // listens; this one never listens itself.
  http1.emit('listening');
  const h2c = createH2cServer(h2Options(options.limits), h2Handler(options.handler));
  const sessions = followSessions(h2c, options.limits);
  const sniffing = new Set<Socket>();
  const server = createNetServer((socket) => {
    sniffing.add(socket);
    socket.once('close', () => sniffing.delete(socket));
    sniff(socket, options.limits.headersTimeoutMs, (h2) => {
      sniffing.delete(socket);
      (h2 ? h2c : http1).emit('connection', socket);
    });
  });
  server.once('close', () => http1.close());
  const dropSniffing = (): void => {
    for (const socket of sniffing) socket.destroy();
  };
  return Object.assign(server, {
    closeIdleConnections() {
      http1.closeIdleConnections();
      sessions.closeIdle();
      dropSniffing();
    },
    closeAllConnections() {
      http1.closeAllConnections();
      sessions.closeAll();
      dropSniffing();
    },
  });
}

/** The listener of a port where a site has http2: HTTP/2 and HTTP/1.1, with TLS or without. */
export function createHttp2Listener(options: Http2ListenerOptions): ListenerServer {
  return options.tls === undefined ? cleartextListener(options) : secureListener(options, options.tls);
}
