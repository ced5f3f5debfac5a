// What one loaded config compiles to, built once per config (start, reload): per port the sites by host,
// per site its routes (longest prefix first), balancers, rate-limit buckets, cache and deny blocks. A
// request keeps the table it started with, so a reload never changes a request under way.
import type { GatewayConfig, RateLimitRule, RedisConfig, SiteConfig, Strategy } from '../config/gateway-config.ts';
import { type Balancer, createBalancer, type RouteTarget } from './balancers.ts';
import { type Block, parseBlock } from './ip-filter.ts';
import { RateBucket } from './rate-limiter.ts';
import { type RedisStore, redisStore } from './redis-store.ts';
import { RedisCache } from './redis-cache.ts';
import { ResponseCache, type SiteCache } from './response-cache.ts';
import { longestFirst } from './route-match.ts';
import { SiteAuth } from './site-auth.ts';
import { SiteFilters } from './site-filters.ts';
import { SiteServing } from './site-serving.ts';
import type { Upstream } from './upstream.ts';

export interface RouteState {
  readonly path: string;
  readonly strategy: Strategy;
  /** Set when the route forwards paths without its prefix. */
  readonly stripPrefix: boolean;
  /** Replaced (never mutated) by runtime changes, with a new balancer. */
  targets: readonly RouteTarget[];
  balancer: Balancer;
}

/** A site's rate limits kept in Redis: each bucket's key (the client's address is appended). */
export interface RedisLimits {
  readonly store: RedisStore;
  readonly site: { key: string; rule: RateLimitRule } | undefined;
  /** Longest prefix first. */
  readonly routes: readonly { path: string; key: string; rule: RateLimitRule }[];
}

export interface SiteState {
  readonly config: SiteConfig;
  readonly label: string;
  readonly routes: readonly RouteState[];
  readonly routesLongestFirst: readonly RouteState[];
  readonly siteBucket: RateBucket | undefined;
  readonly routeBuckets: readonly { path: string; bucket: RateBucket }[];
  readonly cache: SiteCache | undefined;
  readonly deny: readonly Block[];
  readonly auth: SiteAuth | undefined;
  readonly filters: SiteFilters | undefined;
  /** The answer to a request no route matches, built once (undefined: the plain 404). */
  readonly fallback: { status: number; headers: [string, string][]; body: Buffer } | undefined;
  readonly redisLimits: RedisLimits | undefined;
  readonly serving: SiteServing | undefined;
}

export interface PortState {
  readonly byHost: ReadonlyMap<string, SiteState>;
  readonly anyHost: SiteState | undefined;
}

export interface SiteTable {
  readonly config: GatewayConfig;
  readonly sites: readonly SiteState[];
  readonly ports: ReadonlyMap<number, PortState>;
}

export function setTargets(route: RouteState, targets: readonly RouteTarget[]): void {
  route.targets = targets;
  route.balancer = createBalancer(route.strategy, targets);
}

/** The Redis key of a bucket: the site's host (not its port, so instances on other ports share it), the
 * bucket (route prefix or `*`) and its rule (a changed rule starts afresh). */
const redisKey = (site: SiteConfig, bucket: string, rule: RateLimitRule): string => `rl:${site.host ?? '*'}:${bucket}:${rule.requests}/${rule.windowMs}:`;

function redisLimitsOf(site: SiteConfig, redis: RedisConfig | undefined): RedisLimits | undefined {
  const limit = site.rateLimit;
  if (limit?.store !== 'redis' || redis === undefined) return undefined;
  return {
    store: redisStore(redis),
    site: limit.site === undefined ? undefined : { key: redisKey(site, '*', limit.site), rule: limit.site },
    routes: longestFirst(Object.entries(limit.routes).map(([path, rule]) => ({ path, key: redisKey(site, path, rule), rule }))),
  };
}

function cacheOf(site: SiteConfig, redis: RedisConfig | undefined): SiteCache | undefined {
  const cache = site.cache;
  if (cache === undefined) return undefined;
  if (cache.store === 'redis' && redis !== undefined) return new RedisCache(redisStore(redis), `cache:${site.host ?? '*'}:${cache.ttlMs}:`, cache.ttlMs);
  return new ResponseCache(cache.ttlMs, cache.maxEntries);
}

function fallbackOf(config: SiteConfig['fallback']): SiteState['fallback'] {
  if (config === undefined) return undefined;
  const body = Buffer.from(config.body);
  return { status: config.status, headers: [...config.headers, ['content-length', String(body.length)]], body };
}

function buildSite(site: SiteConfig, resolve: (url: string) => Upstream, redis: RedisConfig | undefined, warn: Warn): SiteState {
  const routes = site.routes.map((route): RouteState => {
    const targets = route.targets.map((t) => ({ url: t.url, weight: t.weight, upstream: resolve(t.url) }));
    return { path: route.path, strategy: route.strategy, stripPrefix: route.stripPrefix, targets, balancer: createBalancer(route.strategy, targets) };
  });
  const rateLimit = site.rateLimit?.store === 'memory' ? site.rateLimit : undefined;
  const routeBuckets = Object.entries(rateLimit?.routes ?? {}).map(([path, rule]) => ({
    path,
    bucket: new RateBucket(rule),
  }));
  const deny = site.ipDeny.map((cidr) => {
    const block = parseBlock(cidr);
    if (block === undefined) throw new Error(`ipFilter.deny: ${JSON.stringify(cidr)} is not a CIDR block or IP address`);
    return block;
  });
  return {
    config: site,
    label: site.label,
    routes,
    routesLongestFirst: longestFirst(routes),
    siteBucket: rateLimit?.site === undefined ? undefined : new RateBucket(rateLimit.site),
    routeBuckets: longestFirst(routeBuckets),
    cache: cacheOf(site, redis),
    deny,
    auth: site.auth === undefined ? undefined : new SiteAuth(site.auth),
    filters: site.filters === undefined ? undefined : new SiteFilters(site.filters, site.tls !== undefined),
    fallback: fallbackOf(site.fallback),
    redisLimits: redisLimitsOf(site, redis),
    serving: site.serving === undefined ? undefined : new SiteServing(site.serving, warn),
  };
}

type Warn = (message: string) => void;

const stderrWarning: Warn = (message) => process.stderr.write(`warning: ${message}\n`);

/** `warn` hears what a site's sections meet while serving (a log file that cannot be written, say). */
export function buildSiteTable(config: GatewayConfig, resolve: (url: string) => Upstream, warn: Warn = stderrWarning): SiteTable {
  const sites = config.sites.map((site) => buildSite(site, resolve, config.global.redis, warn));
  const ports = new Map<number, { byHost: Map<string, SiteState>; anyHost: SiteState | undefined }>();
  for (const site of sites) {
    let port = ports.get(site.config.port);
    if (port === undefined) {
      port = { byHost: new Map(), anyHost: undefined };
      ports.set(site.config.port, port);
    }
    const host = site.config.host;
    if (host === undefined || host === '*') port.anyHost ??= site;
    else if (!port.byHost.has(host)) port.byHost.set(host, site);
  }
  return { config, sites, ports };
}

/** The host of a Host header, port and brackets' port removed, lower-cased. */
export function hostOf(header: string | undefined): string {
  if (header === undefined) return '';
  const end = header.startsWith('[') ? header.indexOf(']') + 1 : header.indexOf(':');
  return (end <= 0 ? header : header.slice(0, end)).toLowerCase();
}

/** Exact host first, else the port's catch-all site. */
export function selectSite(port: PortState, hostHeader: string | undefined): SiteState | undefined {
  if (port.byHost.size > 0) {
    const site = port.byHost.get(hostOf(hostHeader));
    if (site !== undefined) return site;
  }
  return port.anyHost;
}
