// The HTTP seams of the faulty gateway: the servers the reference opens are caught as they start listening,
// and a layer is put in front of their request handler. A layer may answer itself, change the request (its
// URL, headers or JSON body) before the reference sees it, or rewrite the JSON answer the reference writes.
import type { IncomingMessage, OutgoingHttpHeaders, Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
export type Layer = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/** Runs `start`; the servers that began listening meanwhile come back with its result. */
export async function capturing<T>(start: () => Promise<T>): Promise<{ value: T; servers: Server[] }> {
  const servers: Server[] = [];
  const listen = NetServer.prototype.listen;
  NetServer.prototype.listen = function (this: NetServer, ...args: unknown[]) {
    servers.push(this as Server);
    return (listen as (...a: unknown[]) => NetServer).apply(this, args);
  } as typeof listen;
  try {
    return { value: await start(), servers };
  } finally {
    NetServer.prototype.listen = listen;
  }
}

/** Puts `front` before the server's request handlers. */
export function putInFront(server: Server, front: Layer): void {
  const handlers = server.listeners('request') as Handler[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) =>
    front(req, res, () => {
      for (const handler of handlers) handler.call(server, req, res);
    }),
  );
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The request body, whole. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

/** A JSON object body, or undefined when the body is not one. */
export function jsonObjectOf(bytes: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Hands the request on with `bytes` as its body (the original one has been read): the handler attaches its
 * readers synchronously, then gets the bytes and the end. */
export function replay(req: IncomingMessage, bytes: Buffer, next: () => void): void {
  req.headers['content-length'] = String(bytes.length);
  next();
  if (bytes.length > 0) req.emit('data', bytes);
  req.emit('end');
}

export interface Answer {
  status: number;
  /** A JSON body, or a string sent as text/plain. */
  body: unknown;
}

/** Rewrites the JSON answer the handler writes (one writeHead, one end with the whole body). */
export function rewriteAnswer(res: ServerResponse, rewrite: (answer: Answer) => Answer): void {
  const writeHead = res.writeHead.bind(res);
  const end = res.end.bind(res);
  let status = 200;
  let headers: OutgoingHttpHeaders = {};
  res.writeHead = ((code: number, more?: OutgoingHttpHeaders) => {
    status = code;
    headers = { ...more };
    return res;
  }) as typeof res.writeHead;
  res.end = ((chunk?: unknown) => {
    let body: unknown;
    try {
      body = JSON.parse(String(chunk ?? ''));
    } catch {
      body = String(chunk ?? '');
    }
    const out = rewrite({ status, body });
    const text = typeof out.body === 'string' ? out.body : JSON.stringify(out.body);
    const type = typeof out.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json';
    const rest = Object.fromEntries(Object.entries(headers).filter(([k]) => !['content-type', 'content-length'].includes(k.toLowerCase())));
    writeHead(out.status, { ...rest, 'content-type': type, 'content-length': Buffer.byteLength(text) });
    return end(text);
  }) as typeof res.end;
}
