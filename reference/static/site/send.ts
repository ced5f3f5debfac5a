// Short answers the server produces itself (errors, refusals) and the one way to describe a platform error.
// Node drops the body of an answer to HEAD, so callers need not care about the method.
import type { Response } from './handler.ts';

export const TEXT_PLAIN = 'text/plain; charset=utf-8';

/** A short text answer; when the head is already out, the only honest signal left is to cut the connection. */
export function sendText(res: Response, status: number, text: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'Content-Type': TEXT_PLAIN, 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** A JSON answer, unless the response is already under way or gone. */
export function sendJson(res: Response, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** `ENOENT open /path` for platform errors, the message otherwise: for logs, never for clients. */
export function describeError(err: unknown): string {
  const e = err as NodeJS.ErrnoException | undefined;
  if (e?.code) return [e.code, e.syscall, e.path].filter(Boolean).join(' ');
  return String(e?.message ?? err);
}
