// Virtual hosts on one port: the Host header picks the site. Matching is case-insensitive; a configured
// host without a port ignores the port in the header; specific hosts are checked before the catch-all.
// Built once per port; a port with only a catch-all skips the lookup entirely.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BuiltSite } from '../site/build-site.ts';
import type { Request } from '../site/handler.ts';
import { sendText } from '../site/send.ts';

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

const NOT_FOUND = 'Not Found';

export function createDispatcher(sites: BuiltSite[]): RequestListener {
  const withPort = new Map<string, BuiltSite>();
  const withoutPort = new Map<string, BuiltSite>();
  let catchAll: BuiltSite | null = null;
  for (const site of sites) {
    const host = site.config.host;
    if (host === null) catchAll = site;
    else if (hostPortStart(host) === -1) withoutPort.set(host, site);
    else withPort.set(host, site);
  }
  if (withPort.size === 0 && withoutPort.size === 0 && catchAll !== null) {
    const only = catchAll;
    return (req, res) => only.handle(req as Request, res);
  }

  return (req, res) => {
    const site = pick(req.headers.host) ?? catchAll;
    if (site !== null) return site.handle(req as Request, res);
    sendText(res, 404, NOT_FOUND);
  };

  function pick(header: string | undefined): BuiltSite | undefined {
    if (!header) return undefined;
    const host = header.toLowerCase();
    const exact = withPort.get(host);
    if (exact !== undefined) return exact;
    const colon = hostPortStart(host);
    return withoutPort.get(colon === -1 ? host : host.slice(0, colon));
  }
}

/** Index of the `:` that starts the port part, or -1; IPv6 literals are bracketed (`[::1]:8000`). */
export function hostPortStart(host: string): number {
  const colon = host.lastIndexOf(':');
  if (colon === -1) return -1;
  const bracket = host.lastIndexOf(']');
  return bracket > colon ? -1 : colon;
}
