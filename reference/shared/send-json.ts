// A JSON answer a server produces itself, and the one way to describe a platform error for a log line.
import type { ServerResponse } from 'node:http';

/** A JSON answer, unless the response is already under way or gone. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
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
