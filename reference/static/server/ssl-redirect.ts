// The plain-HTTP side of `ssl.redirect`: every request gets a 301 to the same URL on the HTTPS port.
import type { RequestListener } from './vhost-dispatch.ts';
import { hostPortStart } from './vhost-dispatch.ts';

/** `httpsPort` is read per request because a configured port 0 is only known once the server listens. */
export function createSslRedirect(httpsPort: () => number): RequestListener {
  return (req, res) => {
    const port = httpsPort();
    const header = req.headers.host ?? 'localhost';
    const colon = hostPortStart(header);
    const host = colon === -1 ? header : header.slice(0, colon);
    // Only the path and query of the request are reused; an absolute-form target falls back to `/`.
    const url = req.url?.startsWith('/') ? req.url : '/';
    res.writeHead(301, { Location: `https://${host}${port === 443 ? '' : `:${port}`}${url}`, 'Content-Length': 0 });
    res.end();
  };
}
