// The HTTP seams of the permitted-variant gateway beyond those of the faulty one (faulty-gateway-http.ts:
// catching the servers the reference opens, a layer in front of their handlers): an answer rewritten whole
// (status, JSON body and headers), a JSON answer of the variant's own, and a layer's pause.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

export type Json = Record<string, unknown>;

export interface Answer {
  status: number;
  /** The JSON body (an object), or the text when it is none. */
  body: unknown;
  headers: OutgoingHttpHeaders;
}

/** `value` with the keys of every object in alphabetical order (sorted-keys). */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortKeys((value as Json)[k])]),
  );
}

/** The connection is closed after an answer to a request whose body was left unread. */
const bodyPending = (req: IncomingMessage): boolean =>
  !req.complete && (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0);

export function writeJson(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...(bodyPending(req) ? { connection: 'close' } : {}),
  });
  res.end(text);
}

/** Rewrites the answer the handler writes (one writeHead, one end with the whole body). */
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
    const text = chunk === undefined ? '' : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: handed on as text
    }
    const rest = Object.fromEntries(Object.entries(headers).filter(([k]) => !['content-type', 'content-length'].includes(k.toLowerCase())));
    const out = rewrite({ status, body, headers: rest });
    const isText = typeof out.body === 'string';
    const outText = isText ? (out.body as string) : JSON.stringify(out.body);
    writeHead(out.status, {
      ...out.headers,
      'content-type': isText ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(outText),
    });
    return end(outText);
  }) as typeof res.end;
}
