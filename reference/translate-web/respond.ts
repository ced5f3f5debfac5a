// Writing answers: JSON with its length, the error body for every failure, and the headers every answer
// carries. No CORS headers, on purpose (catalog translate-web/auth/none).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { status } from '@grpc/grpc-js';
import { closeAfterAnswer } from '../shared/close-after-answer.ts';
import { GatewayError } from './gateway-error.ts';

export const COMMON_HEADERS = { 'X-Content-Type-Options': 'nosniff' } as const;

export function sendJson(res: ServerResponse, httpStatus: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(httpStatus, {
    ...COMMON_HEADERS,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(body);
}

/** Sends `err` as the error body; anything but a GatewayError is a 500 without details (logged instead). */
export function sendError(req: IncomingMessage, res: ServerResponse, err: unknown): void {
  if (res.headersSent || res.destroyed) return;
  let error: GatewayError;
  if (err instanceof GatewayError) error = err;
  else {
    process.stderr.write(`error: ${req.method} ${req.url}: ${(err as Error)?.stack ?? String(err)}\n`);
    error = new GatewayError(status.INTERNAL, 'internal error', { cause: err });
  }
  // A body left unread (413, 415, 405…): the connection closes gracefully after the answer.
  sendJson(res, error.httpStatus, JSON.stringify(error.toBody()), { ...error.headers, ...closeAfterAnswer(req) });
}
