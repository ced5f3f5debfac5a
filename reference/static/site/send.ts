// Short answers the server produces itself (errors, refusals) and the one way to describe a platform error
// (the JSON answer and the error description are shared with the gateway).
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

export { describeError, sendJson } from '../../shared/send-json.ts';
