// JSON in and out (catalog recipes/api/json-representation, recipes/limits/json-body-size, recipes/errors/*).
// A request body is read only when it is JSON (application/json or any +json type; else 415), at most `limit`
// bytes (a larger Content-Length is refused before reading, a body that grows past it is cut off: 413), and must
// be a JSON object (else 400). A request without a body reads as {}, so the missing fields are named.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { closeAfterAnswer } from '../../shared/close-after-answer.ts';
import { readBoundedBody } from '../../shared/read-bounded-body.ts';
import { ApiError } from './api-error.ts';

export const DEFAULT_JSON_LIMIT = 1024 * 1024;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}

export function sendError(res: ServerResponse, error: ApiError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // A refused body may still be arriving: the connection closes gracefully after the answer.
  sendJson(res, error.status, error.body, { ...error.headers, ...closeAfterAnswer(res.req) });
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The request's JSON object body, or an ApiError (400, 413, 415). */
export async function readJsonObject(req: IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  if (!hasBody(req)) return {};
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim();
  if (!JSON_TYPE.test(type)) {
    throw new ApiError(415, 'Request body must be JSON (Content-Type: application/json)');
  }
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (declared > limit) throw tooLarge(limit);
  // Past the limit the read stops with a 413; the answer drops the rest (sendError).
  const text = (await readBoundedBody(req, limit, () => tooLarge(limit))).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'Malformed JSON body');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError(400, 'Request body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

const tooLarge = (limit: number) => new ApiError(413, `Request body larger than ${limit} bytes`);
