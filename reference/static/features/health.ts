// The health endpoint. It sits before rateLimit and basicAuth in the chain, so it is never limited or
// challenged. Only GET and HEAD answer; other methods fall through to later features.
import type { Handler } from '../site/handler.ts';

export function createHealth(options: { path: string }): Handler {
  const { path } = options;
  return (req, res, next) => {
    if (req.path !== path || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    const body = JSON.stringify({ status: 'ok', uptime: process.uptime(), timestamp: new Date().toISOString() });
    res.writeHead(200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
