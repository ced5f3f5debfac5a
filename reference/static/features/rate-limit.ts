// Fixed-window rate limit per client IP and per site, through express-rate-limit. The package is written
// for express: it reads `req.ip` and answers with `res.status().send()`. Here the key comes straight from
// the socket (no proxy headers trusted) and the 429 is written with plain node calls.
import type { RateLimitOptions } from '../config/site-config.ts';
import type { Handler, Request, Response } from '../site/handler.ts';

export async function createRateLimit(options: RateLimitOptions): Promise<Handler> {
  const { rateLimit } = await import('express-rate-limit');
  const json = typeof options.message !== 'string';
  const body = json ? JSON.stringify(options.message) : (options.message as string);
  const contentType = json ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8';
  const limiter = rateLimit({
    windowMs: options.windowMs,
    limit: options.limit,
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    keyGenerator: (req) => clientIp(req as unknown as Request),
    handler: (req, res) => sendLimited(req as unknown as Request, res as unknown as Response),
    // Its checks look for express settings (trust proxy, req.ip) that do not exist under polka.
    validate: false,
  });

  function sendLimited(req: Request, res: Response): void {
    res.statusCode = 429;
    res.setHeader('Content-Type', contentType);
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  return (req, res, next) => {
    (req as Request & { ip?: string }).ip = clientIp(req);
    return limiter(req as never, res as never, next as never) as Promise<void>;
  };
}

function clientIp(req: Request): string {
  return req.socket.remoteAddress ?? 'unknown';
}
