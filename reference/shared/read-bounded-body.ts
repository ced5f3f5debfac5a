// A request body read into memory up to a bound, shared by the reference servers' JSON endpoints. Past the
// bound it stops reading without destroying the socket, so the caller can still answer 413.
import type { IncomingMessage } from 'node:http';

/** The body's bytes; rejects with `tooLarge()` once more than `limit` bytes arrived. */
export function readBoundedBody(req: IncomingMessage, limit: number, tooLarge: () => Error): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (error: Error | null): void => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (error) {
        req.pause();
        reject(error);
      } else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) settle(tooLarge());
      else chunks.push(chunk);
    };
    const onEnd = (): void => settle(null);
    const onError = (err: Error): void => settle(err);
    const onClose = (): void => settle(new Error('the client closed the connection before the body ended'));
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}
