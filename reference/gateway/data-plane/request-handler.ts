// The public listener's request pipeline, in order: GET /__health__; runtime denies and the site's
// ipFilter.deny (403); site by Host (404 without one); the metrics path; rate-limit buckets (429); route by
// longest prefix (404 without one); the response cache; the proxy exchange. A worker of a gateway of several
// processes hands two steps to its hooks: the metrics body and the rate-limit decision are the whole
// gateway's (runtime/cluster-*.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { upstreamRequestHeaders } from './forward-headers.ts';
import { type DenyList, matchesAny, parseClient } from './ip-filter.ts';
import { renderMetrics, sendMetrics } from './metrics.ts';
import { sendHealth, sendPlain } from './plain-responses.ts';
import { ProxyExchange, type Traffic } from './proxy-exchange.ts';
import { type CachedResponse, type ResponseCache, requestKey } from './response-cache.ts';
import { findLongest, pathOf, withoutPrefix } from './route-match.ts';
import { type SiteState, type SiteTable, selectSite } from './site-table.ts';
import type { Upstream } from './upstream.ts';

/** Steps a gateway of several processes takes for the whole gateway instead of this process's own. */
export interface PipelineHooks {
  /** The metrics path's body. */
  metrics(): Promise<string>;
  /** In place of the site's own buckets: 0 = allowed, else Retry-After seconds; a promise while it asks. */
  rateLimit(site: SiteState, path: string, client: string): number | Promise<number>;
}

/** What the pipeline reads of the running gateway. */
export interface DataPlane {
  /** The table current when a request starts; the request keeps it to its end. */
  readonly table: SiteTable;
  readonly denies: DenyList;
  readonly traffic: Traffic;
  /** True once shutdown began: answers close their connection. */
  readonly closing: boolean;
  upstreamList(): readonly Upstream[];
  /** Called when a request ends (the shutdown drain waits for inflight 0). */
  requestEnded(): void;
  readonly hooks: PipelineHooks | undefined;
}

const HEALTH_PATH = '/__health__';

const isRead = (method: string | undefined): boolean => method === 'GET' || method === 'HEAD';

/** The client address without the IPv4-mapped prefix: the rate limiter's per-client key. */
function clientKey(address: string | undefined): string {
  if (address === undefined) return '';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

function denied(plane: DataPlane, site: SiteState | undefined, address: string | undefined): boolean {
  const runtime = plane.denies.blocks;
  if (runtime.length === 0 && (site === undefined || site.deny.length === 0)) return false;
  const client = parseClient(address);
  if (client === undefined) return false;
  return matchesAny(client, runtime) || (site !== undefined && matchesAny(client, site.deny));
}

/** Site bucket first, then the longest matching route bucket; 0 = allowed, else Retry-After seconds. */
function rateLimited(site: SiteState, path: string, client: string, now: number): number {
  const siteBucket = site.siteBucket;
  const route = site.routeBuckets.length === 0 ? undefined : findLongest(site.routeBuckets, path)?.bucket;
  if (siteBucket !== undefined) {
    const wait = siteBucket.take(client, now);
    if (wait > 0) {
      siteBucket.rejected++;
      return wait;
    }
  }
  if (route !== undefined) {
    const wait = route.take(client, now);
    if (wait > 0) {
      route.rejected++;
      return wait;
    }
    route.passed++;
  }
  if (siteBucket !== undefined) siteBucket.passed++;
  return 0;
}

function sendCached(res: ServerResponse, entry: CachedResponse, now: number): void {
  res.writeHead(entry.status, {
    ...entry.headers,
    age: String(Math.floor((now - entry.storedAt) / 1000)),
    'x-cache': 'HIT',
  } as Record<string, string | string[]>);
  res.end(res.req.method === 'HEAD' ? undefined : entry.body);
}

function sendRateLimited(res: ServerResponse, wait: number): void {
  sendPlain(res, 429, { 'retry-after': String(wait) });
}

const hasBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

export function createRequestHandler(
  plane: DataPlane,
  configPort: number,
  scheme: 'http' | 'https',
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const traffic = plane.traffic;
    traffic.inflight++;
    let exchange: ProxyExchange | undefined;
    res.once('close', () => {
      exchange?.closed();
      traffic.inflight--;
      plane.requestEnded();
    });
    if (plane.closing) res.shouldKeepAlive = false;
    const url = req.url ?? '/';
    const method = req.method;
    if (url === HEALTH_PATH && isRead(method)) {
      sendHealth(res);
      return;
    }
    const table = plane.table;
    const port = table.ports.get(configPort);
    const site = port === undefined ? undefined : selectSite(port, req.headers.host);
    const address = req.socket.remoteAddress;
    if (denied(plane, site, address)) {
      sendPlain(res, 403);
      return;
    }
    if (site === undefined) {
      sendPlain(res, 404);
      return;
    }
    const path = pathOf(url);
    const hooks = plane.hooks;
    if (path === site.config.metricsPath && isRead(method)) {
      if (hooks === undefined) sendMetrics(res, renderMetrics(plane.upstreamList(), traffic, Date.now()));
      else hooks.metrics().then((text) => !res.destroyed && sendMetrics(res, text), () => !res.destroyed && sendPlain(res, 503));
      return;
    }
    const client = clientKey(address);
    if (hooks !== undefined) {
      const wait = hooks.rateLimit(site, path, client);
      if (typeof wait !== 'number') {
        wait.then(
          (seconds) => {
            if (res.destroyed) return;
            if (seconds > 0) sendRateLimited(res, seconds);
            else exchange = routed(plane, req, res, site, url, path, client, scheme);
          },
          () => !res.destroyed && sendPlain(res, 503),
        );
        return;
      }
      if (wait > 0) {
        sendRateLimited(res, wait);
        return;
      }
    } else if (site.siteBucket !== undefined || site.routeBuckets.length > 0) {
      const wait = rateLimited(site, path, client, Date.now());
      if (wait > 0) {
        sendRateLimited(res, wait);
        return;
      }
    }
    exchange = routed(plane, req, res, site, url, path, client, scheme);
  };
}

/** The steps after the rate limits: the route, the cache, the proxy exchange (returned once started). */
function routed(
  plane: DataPlane,
  req: IncomingMessage,
  res: ServerResponse,
  site: SiteState,
  url: string,
  path: string,
  client: string,
  scheme: 'http' | 'https',
): ProxyExchange | undefined {
  const method = req.method;
  const route = findLongest(site.routesLongestFirst, path);
  if (route === undefined) {
    sendPlain(res, 404);
    return undefined;
  }
  let cache: { store: ResponseCache; key: string } | undefined;
  if (site.cache !== undefined && isRead(method)) {
    const key = requestKey(scheme, req.headers.host, url);
    if (key !== undefined) {
      const now = Date.now();
      const entry = site.cache.get(key, method!, req.headers, now);
      if (entry !== undefined) {
        sendCached(res, entry, now);
        return undefined;
      }
      cache = { store: site.cache, key };
    }
  }
  const body = hasBody(req);
  const exchange = new ProxyExchange({
    req,
    res,
    route,
    path: route.stripPrefix ? withoutPrefix(route.path, url) : url,
    retries: body ? 0 : site.config.retries,
    hasBody: body,
    headers: upstreamRequestHeaders(req, client, scheme),
    traffic: plane.traffic,
    cache,
  });
  exchange.start();
  return exchange;
}
