// How the faulty gateway reads its config: the reference's reader and validator (read-config-file.ts,
// validateConfig), with the faults of the config layer applied to the raw file before validation or to the
// normalised model after it, at start-up or on a reload.
import { resolve } from 'node:path';
import type { GatewayConfig, SiteConfig } from '../../../reference/gateway/config/gateway-config.ts';
import { coldChange } from '../../../reference/gateway/config/cold-change.ts';
import { validateConfig } from '../../../reference/gateway/config/load-config.ts';
import { resolveToken } from '../../../reference/gateway/config/normalize-config.ts';
import { configFormat, parseConfigText, readConfigText } from '../../../reference/gateway/config/read-config-file.ts';
import { faultsOf, type GatewayFault } from './faulty-gateway-faults.ts';

const faults = faultsOf(process.env);
const on = (f: GatewayFault): boolean => faults.has(f);

type Raw = {
  global?: { admin?: { bind?: string; token?: string }; shutdownTimeoutSecs?: number };
  sites?: { tls?: Record<string, unknown> }[];
};

/** Loads the config at start-up (`running` undefined) or for a reload of `running`. */
export function loadFaultyConfig(path: string, env: NodeJS.ProcessEnv, running?: GatewayConfig): GatewayConfig {
  const absolute = resolve(path);
  const format = configFormat(absolute);
  const raw = parseConfigText(readConfigText(absolute), format, absolute) as Raw;
  const start = running === undefined;
  const admin = raw.global?.admin;
  const bindless = on('admin-bind-optional') && admin !== undefined && admin.bind === undefined;
  if (bindless) delete raw.global!.admin;
  for (const site of raw.sites ?? []) {
    if (start && on('tls-versions-accepted')) delete site.tls?.versions;
    if (start && on('tls-ciphers-accepted')) delete site.tls?.ciphers;
  }
  const config = structuredClone(validateConfig(raw, absolute, format, env));
  if (bindless) config.global.admin = { host: '127.0.0.1', port: 0, token: resolveToken(admin!.token, env) };
  if (on('token-env-literal') && config.global.admin !== undefined && admin?.token?.startsWith('$')) config.global.admin.token = admin.token;
  if (on('shutdown-timeout-ignored')) config.global.shutdownTimeoutSecs = 3600;
  const noAdmin = config.global.admin === undefined;
  if (on('no-background-without-admin') && noAdmin) config.hotReload = false;
  const before = new Map((running?.sites ?? []).map((site) => [site.label, site]));
  config.sites = config.sites.map((site) => siteFaults(site, { start, noAdmin, format, timeoutSet: raw.global?.shutdownTimeoutSecs !== undefined, before: before.get(site.label) }));
  return config;
}

interface SiteContext {
  start: boolean;
  noAdmin: boolean;
  format: string;
  timeoutSet: boolean;
  /** The same site in the running config, on a reload. */
  before: SiteConfig | undefined;
}

function siteFaults(site: SiteConfig, ctx: SiteContext): SiteConfig {
  const s = { ...site };
  const dropRoutes =
    (on('json-config-routes-dropped') && ctx.format === 'json') ||
    (on('shutdown-timeout-drops-routes') && ctx.timeoutSet) ||
    (on('fallback-replaces-routes') && s.fallback !== undefined);
  if (dropRoutes) s.routes = [];
  if (on('route-ignored-first-route') && s.routes.length > 1) s.routes = s.routes.map((route) => ({ ...route, targets: s.routes[0]!.targets }));
  if (on('no-background-without-admin') && ctx.noAdmin) s.healthCheck = undefined;
  if (on('metrics-path-ignored') && s.metricsPath !== undefined) s.metricsPath = '/metrics';
  if (on('ip-filter-ignored-at-start') && ctx.start) s.ipDeny = [];
  if (on('site-filters-ignored')) {
    s.filters = undefined;
    s.fallback = undefined;
  }
  if (on('site-serving-ignored')) {
    s.serving = undefined;
    s.http2 = false;
  }
  if (on('redis-store-ignored') && s.rateLimit?.store === 'redis') s.rateLimit = { ...s.rateLimit, store: 'memory' };
  if (on('redis-store-ignored') && s.cache?.store === 'redis') s.cache = { ...s.cache, store: 'memory' };
  if (s.auth !== undefined) {
    const { jwt, forward } = s.auth;
    s.auth = {
      ...s.auth,
      jwt: jwt && { ...jwt, ...(on('jwt-expiry-ignored') ? { clockToleranceSecs: 10 * 365 * 86400 } : {}), ...(on('jwt-jwks-ignored') ? { jwks: undefined } : {}) },
      forward: on('forward-auth-ignored') ? undefined : forward,
    };
  }
  if (ctx.before !== undefined) {
    if (on('ip-filter-reload-ignored')) s.ipDeny = ctx.before.ipDeny;
    if (on('reload-keeps-hot-sections')) {
      s.rateLimit = ctx.before.rateLimit;
      s.cache = ctx.before.cache;
      s.outlierDetection = ctx.before.outlierDetection;
      s.auth = ctx.before.auth;
      s.filters = ctx.before.filters;
      s.serving = ctx.before.serving;
    }
  }
  return s;
}

/** The reference's cold-field check, blind to workers and backlog under `cold-workers-backlog-ignored`. */
export function faultyColdChange(running: GatewayConfig, next: GatewayConfig): string | undefined {
  const field = coldChange(running, next);
  return on('cold-workers-backlog-ignored') && (field === 'workers' || field === 'backlog') ? undefined : field;
}
