// A worker's request handler: in front of the data plane's pipeline, it takes the two steps that need the
// whole gateway, in the pipeline's order (health, denies, site, metrics path, rate limits): the metrics
// path (the primary's merged body) and the rate-limit decision (the worker's limiter, which asks the
// primary when its share is spent). Everything else, and each request once it passed, goes to the data
// plane's handler unchanged.
import type { ServerResponse } from 'node:http';
import { matchesAny, parseClient } from '../data-plane/ip-filter.ts';
import { sendMetrics } from '../data-plane/metrics.ts';
import { sendPlain } from '../data-plane/plain-responses.ts';
import type { DataPlane } from '../data-plane/request-handler.ts';
import { pathOf } from '../data-plane/route-match.ts';
import { type SiteState, selectSite } from '../data-plane/site-table.ts';
import type { WorkerLimiter } from './cluster-limits.ts';
import type { Handler } from './listeners.ts';

const HEALTH_PATH = '/__health__';

/** The worker's parts that need the whole gateway. */
export interface WorkerParts {
  limiter: Pick<WorkerLimiter, 'limited' | 'decide'>;
  /** The gateway's metrics body, from the primary. */
  metrics(): Promise<string>;
}

const isRead = (method: string | undefined): boolean => method === 'GET' || method === 'HEAD';

/** The rate limiter's per-client key (the data plane's: the address without the IPv4-mapped prefix). */
const clientKey = (address: string | undefined): string =>
  address === undefined ? '' : address.startsWith('::ffff:') ? address.slice(7) : address;

function denied(plane: DataPlane, site: SiteState, address: string | undefined): boolean {
  const runtime = plane.denies.blocks;
  if (runtime.length === 0 && site.deny.length === 0) return false;
  const client = parseClient(address);
  return client !== undefined && (matchesAny(client, runtime) || matchesAny(client, site.deny));
}

/** Counts a response this handler writes itself, as the data plane counts its own. */
function counted(plane: DataPlane, res: ServerResponse): void {
  plane.traffic.inflight++;
  res.once('close', () => {
    plane.traffic.inflight--;
    plane.requestEnded();
  });
  if (plane.closing) res.shouldKeepAlive = false;
}

export function workerHandler(plane: DataPlane, configPort: number, inner: Handler, parts: WorkerParts): Handler {
  return (req, res) => {
    const url = req.url ?? '/';
    if (url === HEALTH_PATH && isRead(req.method)) return inner(req, res);
    const port = plane.table.ports.get(configPort);
    const site = port === undefined ? undefined : selectSite(port, req.headers.host);
    if (site === undefined) return inner(req, res);
    const metricsPath = site.config.metricsPath;
    const limited = parts.limiter.limited(site);
    if (!limited && metricsPath === undefined) return inner(req, res);
    const address = req.socket.remoteAddress;
    if (denied(plane, site, address)) return inner(req, res);
    const path = pathOf(url);
    if (path === metricsPath && isRead(req.method)) {
      counted(plane, res);
      parts.metrics().then(
        (body) => {
          if (!res.destroyed) sendMetrics(res, body);
        },
        () => sendPlain(res, 503),
      );
      return;
    }
    if (!limited) return inner(req, res);
    const decided = parts.limiter.decide(site, path, clientKey(address));
    if (typeof decided === 'number') {
      if (decided === 0) return inner(req, res);
      counted(plane, res);
      sendPlain(res, 429, { 'retry-after': String(decided) });
      return;
    }
    // Held while the primary is asked: counted in flight, so a shutdown drain waits for it.
    plane.traffic.inflight++;
    let gone = false;
    const left = (): void => {
      gone = true;
    };
    res.once('close', left);
    decided.then((wait) => {
      res.off('close', left);
      plane.traffic.inflight--;
      if (gone) {
        plane.requestEnded();
      } else if (wait > 0) {
        counted(plane, res);
        sendPlain(res, 429, { 'retry-after': String(wait) });
      } else {
        inner(req, res);
      }
    });
  };
}
