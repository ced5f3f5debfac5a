// One site of the file (already shape-checked by the schema) into its SiteConfig: defaults filled in, paths
// made absolute, the checks the schema cannot express (duplicates, URLs, CIDRs, cross-key rules), each
// failing with the key path of the value at fault.
import { resolve } from 'node:path';
import { normalizeCidr } from './cidr.ts';
import { ConfigError } from './config-error.ts';
import type {
  HealthCheckConfig,
  OutlierDetectionConfig,
  RateLimitRule,
  RouteConfig,
  SiteConfig,
  Strategy,
} from './gateway-config.ts';
import { formatKeyPath } from './key-path.ts';
import { normalizeAuth, type RawAuthSections } from './normalize-auth.ts';
import { normalizeFilters, type RawFilterSections } from './normalize-filters.ts';
import { normalizeServing, type RawServingSections } from './normalize-serving.ts';
import { targetKey, targetUrlProblem } from './target-url.ts';

export interface RawRateLimitRule {
  requests: number;
  windowMs?: number;
}

export interface RawSite extends RawAuthSections, RawFilterSections, RawServingSections {
  host?: string;
  port: number;
  tls?: { cert?: string; key?: string; acme?: unknown };
  routes?: { path: string; strategy?: Strategy; stripPrefix?: boolean; targets: { url: string; weight?: number }[] }[];
  healthCheck?: Partial<HealthCheckConfig>;
  outlierDetection?: Partial<OutlierDetectionConfig>;
  retries?: { attempts?: number };
  rateLimit?: { requests?: number; windowMs?: number; routes?: Record<string, RawRateLimitRule>; store?: 'memory' | 'redis' };
  ipFilter?: { deny?: string[] };
  cache?: { ttlMs?: number; maxEntries?: number; store?: 'memory' | 'redis' };
  metrics?: { path?: string };
  fallback?: false | { status?: number; body?: string; contentType?: string; headers?: Record<string, string> };
  hotReload?: boolean;
  http2?: boolean;
  [section: string]: unknown;
}

/** The defaults of the site sections (the schema's `default` values say the same; a test holds them equal). */
export const SITE_DEFAULTS = Object.freeze({
  strategy: 'round-robin' as Strategy,
  weight: 1,
  healthCheck: Object.freeze({ path: '/', intervalMs: 10_000, timeoutMs: 2_000, healthyThreshold: 2, unhealthyThreshold: 3 }),
  outlierDetection: Object.freeze({ consecutive5xx: 5, baseEjectionMs: 30_000, maxEjectionMs: 300_000 }),
  retryAttempts: 1,
  rateLimitWindowMs: 60_000,
  cache: Object.freeze({ ttlMs: 60_000, maxEntries: 1_000, store: 'memory' as 'memory' | 'redis' }),
  metricsPath: '/metrics',
  fallback: Object.freeze({ status: 404, body: '', contentType: 'text/plain; charset=utf-8' }),
});


const HEALTH_PATH = '/__health__';

/** `index` places the site in the file (`sites[index]`); `baseDir` is the config file's folder. */
export function normalizeSite(raw: RawSite, index: number, baseDir: string, redis = false): SiteConfig {
  const at = (...keys: (string | number)[]) => formatKeyPath(['sites', index, ...keys]);
  const host = raw.host === undefined || raw.host === '*' ? undefined : raw.host.toLowerCase();
  const routes = normalizeRoutes(raw.routes ?? [], at);
  return {
    label: `${host ?? '*'}:${raw.port}`,
    host,
    port: raw.port,
    tls: normalizeTls(raw.tls, baseDir, at),
    routes,
    healthCheck: raw.healthCheck === undefined ? undefined : { ...SITE_DEFAULTS.healthCheck, ...raw.healthCheck },
    outlierDetection: normalizeOutlier(raw.outlierDetection, at),
    retries: raw.retries === undefined ? 0 : (raw.retries.attempts ?? SITE_DEFAULTS.retryAttempts),
    rateLimit: normalizeRateLimit(raw.rateLimit, routes, at, redis),
    ipDeny: normalizeDeny(raw.ipFilter?.deny ?? [], at),
    cache: normalizeCache(raw.cache, at, redis),
    auth: normalizeAuth(raw, baseDir, at),
    filters: normalizeFilters(raw, at),
    fallback: normalizeFallback(raw.fallback),
    metricsPath: normalizeMetricsPath(raw.metrics, at),
    serving: normalizeServing(raw, baseDir, at),
    http2: raw.http2 === true,
    notCompiledIn: notCompiledIn(raw),
  };
}

type At = (...keys: (string | number)[]) => string;

function normalizeTls(tls: RawSite['tls'], baseDir: string, at: At): SiteConfig['tls'] {
  if (tls === undefined) return undefined;
  // The schema makes cert and key come together.
  if (tls.cert !== undefined && tls.key !== undefined) {
    return { cert: resolve(baseDir, tls.cert), key: resolve(baseDir, tls.key) };
  }
  if (tls.acme !== undefined && tls.acme !== false) return undefined;
  throw new ConfigError(at('tls', 'cert'), 'is required (with tls.key) unless tls.acme is configured');
}

function normalizeRoutes(raw: NonNullable<RawSite['routes']>, at: At): RouteConfig[] {
  const paths = new Map<string, number>();
  return raw.map((route, r) => {
    const earlier = paths.get(route.path);
    if (earlier !== undefined) {
      throw new ConfigError(at('routes', r, 'path'), `duplicate route path "${route.path}" (same as routes[${earlier}])`);
    }
    paths.set(route.path, r);
    const seen = new Map<string, number>();
    const targets = route.targets.map((target, t) => {
      const problem = targetUrlProblem(target.url);
      if (problem !== undefined) throw new ConfigError(at('routes', r, 'targets', t, 'url'), `${problem} (got "${target.url}")`);
      const key = targetKey(target.url);
      const first = seen.get(key);
      if (first !== undefined) {
        throw new ConfigError(at('routes', r, 'targets', t, 'url'), `duplicate target "${target.url}" (same as targets[${first}])`);
      }
      seen.set(key, t);
      return { url: target.url, weight: target.weight ?? SITE_DEFAULTS.weight };
    });
    return { path: route.path, strategy: route.strategy ?? SITE_DEFAULTS.strategy, stripPrefix: route.stripPrefix ?? false, targets };
  });
}

function normalizeOutlier(raw: RawSite['outlierDetection'], at: At): OutlierDetectionConfig | undefined {
  if (raw === undefined) return undefined;
  const defaults = SITE_DEFAULTS.outlierDetection;
  const baseEjectionMs = raw.baseEjectionMs ?? defaults.baseEjectionMs;
  const maxEjectionMs = raw.maxEjectionMs ?? Math.max(defaults.maxEjectionMs, baseEjectionMs);
  if (maxEjectionMs < baseEjectionMs) {
    throw new ConfigError(at('outlierDetection', 'maxEjectionMs'), `must be at least baseEjectionMs (${baseEjectionMs}) (got ${maxEjectionMs})`);
  }
  return { consecutive5xx: raw.consecutive5xx ?? defaults.consecutive5xx, baseEjectionMs, maxEjectionMs };
}

function normalizeRateLimit(raw: RawSite['rateLimit'], routes: RouteConfig[], at: At, redis: boolean): SiteConfig['rateLimit'] {
  if (raw === undefined) return undefined;
  const store = raw.store ?? 'memory';
  if (store === 'redis' && !redis) throw new ConfigError(at('rateLimit', 'store'), 'is redis, but global.redis names no Redis');
  const rule = (r: RawRateLimitRule): RateLimitRule => ({ requests: r.requests, windowMs: r.windowMs ?? SITE_DEFAULTS.rateLimitWindowMs });
  const site = raw.requests === undefined ? undefined : rule({ requests: raw.requests, windowMs: raw.windowMs });
  const byRoute: Record<string, RateLimitRule> = {};
  const known = new Set(routes.map((route) => route.path));
  for (const [path, value] of Object.entries(raw.routes ?? {})) {
    if (!known.has(path)) {
      const list = known.size === 0 ? 'the site has no routes' : `its routes are ${[...known].join(', ')}`;
      throw new ConfigError(at('rateLimit', 'routes', path), `names no route of this site (${list})`);
    }
    byRoute[path] = rule(value);
  }
  if (site === undefined && Object.keys(byRoute).length === 0) return undefined;
  return { site, routes: byRoute, store };
}

function normalizeCache(raw: RawSite['cache'], at: At, redis: boolean): SiteConfig['cache'] {
  if (raw === undefined) return undefined;
  if (raw.store === 'redis' && !redis) throw new ConfigError(at('cache', 'store'), 'is redis, but global.redis names no Redis');
  return { ...SITE_DEFAULTS.cache, ...raw };
}

function normalizeDeny(raw: string[], at: At): string[] {
  const blocks = raw.map((text, d) => {
    const block = normalizeCidr(text);
    if (block === undefined) throw new ConfigError(at('ipFilter', 'deny', d), `is not a valid CIDR block or IP address (got "${text}")`);
    return block;
  });
  return [...new Set(blocks)];
}

function normalizeFallback(raw: RawSite['fallback']): SiteConfig['fallback'] {
  if (raw === undefined || raw === false) return undefined;
  const defaults = SITE_DEFAULTS.fallback;
  const headers = Object.entries(raw.headers ?? {}).map(([name, value]): [string, string] => [name.toLowerCase(), value]);
  return {
    status: raw.status ?? defaults.status,
    body: raw.body ?? defaults.body,
    headers: [['content-type', raw.contentType ?? defaults.contentType], ...headers.filter(([name]) => name !== 'content-type')],
  };
}

function normalizeMetricsPath(raw: RawSite['metrics'], at: At): string | undefined {
  if (raw === undefined) return undefined;
  const path = raw.path ?? SITE_DEFAULTS.metricsPath;
  if (path === HEALTH_PATH) throw new ConfigError(at('metrics', 'path'), `${HEALTH_PATH} is the gateway's health endpoint`);
  return path;
}

/** The configured sections this build does not implement: tls.acme. */
function notCompiledIn(raw: RawSite): string[] {
  return raw.tls?.acme !== undefined && raw.tls.acme !== false ? ['tls.acme'] : [];
}
