// The gateway's own short answers on the data plane (health, 403, 404, 429, 502, 503, 504), their bodies
// built once.
import { STATUS_CODES, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';

const TEXT = 'text/plain; charset=utf-8';
const bodies = new Map<number, Buffer>();

function bodyOf(status: number): Buffer {
  let body = bodies.get(status);
  if (body === undefined) {
    body = Buffer.from(`${STATUS_CODES[status] ?? 'Error'}\n`);
    bodies.set(status, body);
  }
  return body;
}

/** Answers `status` with its reason phrase as a text body; a response already begun is cut instead. */
export function sendPlain(res: ServerResponse, status: number, headers?: OutgoingHttpHeaders): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = bodyOf(status);
  res.writeHead(status, { ...headers, 'content-type': TEXT, 'content-length': body.length });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

const HEALTH_BODY = Buffer.from('{"status":"ok"}');

/** GET /__health__ (catalog gateway/data-plane/health-response-details). */
export function sendHealth(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': HEALTH_BODY.length });
  res.end(res.req.method === 'HEAD' ? undefined : HEALTH_BODY);
}
