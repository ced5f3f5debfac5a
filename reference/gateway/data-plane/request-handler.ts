// The public listener's request pipeline, in order: GET /__health__; the request target normalised once
// (request-target.ts: 400 when it cannot be); runtime denies and the site's
// ipFilter.deny (403); site by Host (404 without one); the site's access log and compression take hold of
// the answer; the metrics path; a CORS preflight (204); the site's authentication (site-auth.ts: 401, 403, a
// forward-auth answer, 502); rate-limit buckets (429); the serving sections (site-serving.ts: the middleware
// list's rewrite or redirect, an upload, a static file); route by longest prefix (without one, the site's fallback answer, else 404); a declared body over
// limits.maxBodyBytes (413); the response cache; the proxy exchange (site-filters.ts changes the headers both
// ways). A worker of a gateway of several processes hands two steps to its hooks: the metrics body and the
// rate-limit decision are the whole gateway's (runtime/cluster-*.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { closeAfterAnswer } from '../../shared/close-after-answer.ts';
import { changeHeaders, upstreamRequestHeaders } from './forward-headers.ts';
import { type DenyList, matchesAny, parseClient } from './ip-filter.ts';
import { renderMetrics, sendMetrics } from './metrics.ts';
import { sendHealth, sendPlain } from './plain-responses.ts';
import { type ExchangeOptions, ProxyExchange, type Traffic } from './proxy-exchange.ts';
import { type CachedResponse, requestKey } from './response-cache.ts';
import { normalisedTarget } from './request-target.ts';
import { findLongest, pathOf, withoutPrefix } from './route-match.ts';
import type { Refusal, Verdict } from './site-auth.ts';
import type { SiteFilters } from './site-filters.ts';
import { rewrite, type SiteServing } from './site-serving.ts';
import { type RedisLimits, type SiteState, type SiteTable, selectSite } from './site-table.ts';
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
const NO_NAMES: ReadonlySet<string> = new Set();

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

/** The site's rate limits, wherever they are kept: 0 = allowed, else Retry-After seconds; a promise while
 * one is asked (Redis, or the primary of several workers). */
function limitWait(site: SiteState, hooks: PipelineHooks | undefined, path: string, client: string): number | Promise<number> {
  if (site.redisLimits !== undefined) return redisLimited(site.redisLimits, path, client);
  if (hooks !== undefined) return hooks.rateLimit(site, path, client);
  if (site.siteBucket !== undefined || site.routeBuckets.length > 0) return rateLimited(site, path, client, Date.now());
  return 0;
}

/** The Redis-kept buckets (site, then the longest matching route): 0 = allowed, else Retry-After seconds. */
async function redisLimited(limits: RedisLimits, path: string, client: string): Promise<number> {
  if (limits.site !== undefined) {
    const wait = await limits.store.take(limits.site.key + client, limits.site.rule);
    if (wait > 0) return wait;
  }
  const route = limits.routes.length === 0 ? undefined : findLongest(limits.routes, path);
  return route === undefined ? 0 : limits.store.take(route.key + client, route.rule);
}

function sendCached(res: ServerResponse, entry: CachedResponse, now: number, filters: SiteFilters | undefined): void {
  const headers = {
    ...entry.headers,
    age: String(Math.floor((now - entry.storedAt) / 1000)),
    'x-cache': 'HIT',
  } as Record<string, string | string[]>;
  if (filters?.changesAnswers) res.writeHead(entry.status, filters.answerHeaders(headerList(headers), res.req));
  else res.writeHead(entry.status, headers);
  res.end(res.req.method === 'HEAD' ? undefined : entry.body);
}

/** Headers as an object in the flat name/value form. */
function headerList(headers: Record<string, string | string[]>): string[] {
  const list: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (Array.isArray(value)) for (const v of value) list.push(name, v);
    else list.push(name, value);
  }
  return list;
}

/** A declared body over the site's bound (a chunked one is counted as it goes, in the exchange). */
const declaredTooLarge = (req: IncomingMessage, max: number): boolean => Number(req.headers['content-length'] ?? 0) > max;

function sendRefusal(res: ServerResponse, refusal: Refusal): void {
  if (refusal.body === undefined) {
    sendPlain(res, refusal.status, refusal.headers);
    return;
  }
  res.writeHead(refusal.status, { ...refusal.headers, 'content-type': refusal.type, 'content-length': refusal.body.length });
  res.end(res.req.method === 'HEAD' ? undefined : refusal.body);
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
    const keep = (started: ProxyExchange): void => {
      exchange = started;
    };
    res.once('close', () => {
      exchange?.closed();
      traffic.inflight--;
      plane.requestEnded();
    });
    if (plane.closing) res.shouldKeepAlive = false;
    const method = req.method;
    if (req.url === HEALTH_PATH && isRead(method)) {
      sendHealth(res);
      return;
    }
    // Every later step (authentication and transforms included) reads this target; the access log the
    // client's own (originalUrl).
    const url = normalisedTarget(req.url ?? '/');
    if (url === undefined) {
      sendPlain(res, 400);
      return;
    }
    if (url !== req.url) {
      (req as IncomingMessage & { originalUrl?: string }).originalUrl = req.url;
      req.url = url;
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
    site.serving?.enter(req, res);
    const path = pathOf(url);
    const hooks = plane.hooks;
    if (path === site.config.metricsPath && isRead(method)) {
      if (hooks === undefined) sendMetrics(res, renderMetrics(plane.upstreamList(), traffic, Date.now()));
      else hooks.metrics().then((text) => !res.destroyed && sendMetrics(res, text), () => !res.destroyed && sendPlain(res, 503));
      return;
    }
    if (site.filters?.preflight(req, res)) return;
    const client = clientKey(address);
    /** Rate limits (`known`: their answer, once asked), then the route (`set`: headers authentication adds
     * to the upstream request). */
    const limitThenRoute = (set: Verdict['set'], known?: number): void => {
      const wait = known ?? limitWait(site, hooks, path, client);
      if (typeof wait !== 'number') {
        wait.then(
          (seconds) => !res.destroyed && limitThenRoute(set, seconds),
          () => !res.destroyed && sendPlain(res, 503),
        );
      } else if (wait > 0) sendRateLimited(res, wait);
      else if (site.serving === undefined) exchange = routed(plane, req, res, site, url, path, client, scheme, set, keep);
      else served(site.serving, req, res, url, (target) => (exchange = routed(plane, req, res, site, target, pathOf(target), client, scheme, set, keep)));
    };
    const auth = site.auth;
    if (auth === undefined) {
      limitThenRoute(undefined);
      return;
    }
    const verdict = auth.check(req, scheme, client);
    if (verdict instanceof Promise) {
      verdict.then(
        (v) => {
          if (res.destroyed) return;
          if (v.refusal !== undefined) sendRefusal(res, v.refusal);
          else limitThenRoute(v.set);
        },
        () => !res.destroyed && sendPlain(res, 502),
      );
    } else if (verdict.refusal !== undefined) sendRefusal(res, verdict.refusal);
    else limitThenRoute(verdict.set);
  };
}

/** The serving sections after the rate limits: the middleware list's rewrite (or redirect), an upload, a
 * static file; `route` goes on with the request target as rewritten. */
function served(serving: SiteServing, req: IncomingMessage, res: ServerResponse, url: string, route: (target: string) => void): void {
  let target = url;
  if (serving.rewrites) {
    const rewritten = rewrite(serving.config.middleware, url);
    if ('redirect' in rewritten) {
      res.writeHead(rewritten.status, { location: rewritten.redirect, 'content-length': 0 });
      res.end();
      return;
    }
    target = rewritten.url;
  }
  if (!serving.serve(req, res, pathOf(target), () => !res.destroyed && route(target))) route(target);
}

/** The steps after the rate limits: the route, the cache, the proxy exchange (returned once started).
 * `url` is the request target as sent upstream (the middleware list may have rewritten the client's). */
function routed(
  plane: DataPlane,
  req: IncomingMessage,
  res: ServerResponse,
  site: SiteState,
  url: string,
  path: string,
  client: string,
  scheme: 'http' | 'https',
  set: Verdict['set'],
  later: (exchange: ProxyExchange) => void,
): ProxyExchange | undefined {
  const method = req.method;
  const route = findLongest(site.routesLongestFirst, path);
  if (route === undefined) {
    const fallback = site.fallback;
    if (fallback === undefined) sendPlain(res, 404);
    else {
      res.writeHead(fallback.status, fallback.headers.flat());
      res.end(method === 'HEAD' ? undefined : fallback.body);
    }
    return undefined;
  }
  const filters = site.filters;
  const maxBody = filters?.maxBodyBytes;
  const body = hasBody(req);
  if (maxBody !== undefined && body && declaredTooLarge(req, maxBody)) {
    sendPlain(res, 413, closeAfterAnswer(req));
    return undefined;
  }
  const forward = (cache: ExchangeOptions['cache']): ProxyExchange => {
    const proxy = site.config.serving?.proxy;
    const forwarded = upstreamRequestHeaders(req, client, scheme, proxy?.forwardedHeaders);
    const exchange = new ProxyExchange({
      req,
      res,
      route,
      path: route.stripPrefix ? withoutPrefix(route.path, url) : url,
      retries: body ? 0 : site.config.retries,
      hasBody: body,
      headers: changeHeaders(filters === undefined ? forwarded : filters.requestHeaders(forwarded), site.auth?.setHeaders ?? NO_NAMES, set ?? []),
      targetHost: proxy?.preserveHost === false,
      traffic: plane.traffic,
      cache,
      filters,
    });
    exchange.start();
    return exchange;
  };
  const store = site.cache;
  const key = store !== undefined && isRead(method) ? requestKey(scheme, req.headers.host, req.url ?? '/') : undefined;
  if (store === undefined || key === undefined) return forward(undefined);
  const identity = site.auth?.identity(req, set) ?? '';
  const now = Date.now();
  const entry = store.get(key, method!, req.headers, now, identity);
  if (entry instanceof Promise) {
    // A Redis-kept cache: the exchange, if one starts, is handed to `later` (the handler's close listener).
    entry.then(
      (found) => {
        if (res.destroyed) return;
        if (found !== undefined) sendCached(res, found, Date.now(), filters);
        else later(forward({ store, key, identity }));
      },
      () => !res.destroyed && later(forward({ store, key, identity })),
    );
    return undefined;
  }
  if (entry !== undefined) {
    sendCached(res, entry, now, filters);
    return undefined;
  }
  return forward({ store, key, identity });
}
