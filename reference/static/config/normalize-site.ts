// Turns the parsed config file (one site object or an array of them) into complete, typed SiteConfigs.
// Runs once at startup; every fault is a ConfigError naming its key path (`sites[1].redirects[0].status`).
import { resolve } from 'node:path';
import { normalizeCgi } from '../features/cgi.ts';
import { normalizeUpload } from '../features/upload-options.ts';
import type { SiteContext } from '../site/handler.ts';
import { ConfigError } from './config-error.ts';
import { expectBoolean, expectHeaders, expectPort, expectString, isPlainObject, show } from './check-values.ts';
import { normalizeBasicAuth, normalizeHealthCheck, normalizeRateLimit, normalizeSsl } from './normalize-access.ts';
import { normalizeFolders } from './normalize-folders.ts';
import { normalizeCompression, normalizeLogging, normalizePassThrough, normalizeResponseTime } from './normalize-middleware.ts';
import { normalizeProxy } from './normalize-proxy.ts';
import { normalizeRedirects } from './normalize-redirects.ts';
import { normalizeUnhandled } from './normalize-unhandled.ts';
import { DEFAULT_PORT, type SiteConfig } from './site-config.ts';

const KNOWN_KEYS = new Set([
  'port', 'host', 'folders', 'proxy', 'unhandled', 'headers', 'redirects', 'ssl', 'logging', 'hotReload',
  'compression', 'helmet', 'cors', 'favicon', 'responseTime', 'rateLimit', 'basicAuth', 'healthCheck', 'cgi', 'upload',
]);

export interface NormalizeOptions {
  /** Directory of the config file (or the working directory when there is none). */
  baseDir: string;
  mode: SiteContext['mode'];
  /** Value of the PORT environment variable, used for sites without `port`. */
  envPort: string | undefined;
  /** Writes one warning line to stderr. */
  warn(message: string): void;
}

export interface NormalizedSite {
  config: SiteConfig;
  ctx: SiteContext;
}

export function normalizeSites(raw: unknown, options: NormalizeOptions): NormalizedSite[] {
  const fallbackPort = envPort(options.envPort);
  if (isPlainObject(raw)) return [normalizeOne(raw, 0, '', fallbackPort, options)];
  if (!Array.isArray(raw)) throw new ConfigError('sites', `config must be a site object or an array of them (got ${show(raw)})`);
  if (raw.length === 0) throw new ConfigError('sites', 'the array must hold at least one site');
  return raw.map((site, i) => {
    if (!isPlainObject(site)) throw new ConfigError(`sites[${i}]`, `must be an object (got ${show(site)})`);
    return normalizeOne(site, i, `sites[${i}].`, fallbackPort, options);
  });
}

function envPort(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_PORT;
  if (!/^\d+$/.test(value)) throw new ConfigError('PORT', `must be an integer from 0 to 65535 (got ${show(value)})`);
  return expectPort(Number(value), 'PORT');
}

function normalizeOne(
  raw: Record<string, unknown>,
  index: number,
  keyPrefix: string,
  fallbackPort: number,
  options: NormalizeOptions,
): NormalizedSite {
  const label = keyPrefix.slice(0, -1);
  const ctx: SiteContext = {
    baseDir: options.baseDir,
    mode: options.mode,
    warn: (message) => options.warn(label ? `${label}: ${message}` : message),
  };
  for (const name of Object.keys(raw)) {
    if (!KNOWN_KEYS.has(name)) ctx.warn(`unknown key ${show(name)} ignored`);
  }
  const k = (name: string) => keyPrefix + name;
  // `null` reads as absent and `false` as off, for every optional feature alike.
  const get = (name: string): unknown => (raw[name] === null ? undefined : raw[name]);
  const opt = <T>(name: string, normalize: (value: unknown, key: string) => T): T | null => {
    const value = get(name);
    return value === undefined || value === false ? null : normalize(value, k(name));
  };

  const hotReload = get('hotReload') === undefined ? false : expectBoolean(get('hotReload'), k('hotReload'));
  if (hotReload && options.mode === 'production') ctx.warn('hotReload is ignored in production mode');

  const config: SiteConfig = {
    index,
    keyPrefix,
    port: get('port') === undefined ? fallbackPort : expectPort(get('port'), k('port')),
    host: normalizeHost(get('host'), k('host')),
    folders: opt('folders', (v, key) => normalizeFolders(v, key, options.baseDir, ctx.warn)),
    proxy: opt('proxy', normalizeProxy),
    unhandled: opt('unhandled', (v, key) => normalizeUnhandled(v, key, options.baseDir)),
    headers: opt('headers', expectHeaders),
    redirects: opt('redirects', normalizeRedirects),
    ssl: opt('ssl', (v, key) => normalizeSsl(v, key, options.baseDir)),
    logging: get('logging') === false ? null : normalizeLogging(get('logging'), k('logging'), options.baseDir),
    hotReload: hotReload && options.mode === 'development',
    compression: opt('compression', normalizeCompression),
    helmet: opt('helmet', normalizePassThrough),
    cors: opt('cors', normalizePassThrough),
    favicon: opt('favicon', (v, key) => resolve(options.baseDir, expectString(v, key))),
    responseTime: opt('responseTime', normalizeResponseTime),
    rateLimit: opt('rateLimit', normalizeRateLimit),
    basicAuth: opt('basicAuth', normalizeBasicAuth),
    healthCheck: opt('healthCheck', normalizeHealthCheck),
    cgi: opt('cgi', (v, key) => normalizeCgi(v, key, ctx)),
    upload: opt('upload', (v, key) => normalizeUpload(v, key, ctx)),
  };
  return { config, ctx };
}

/** `*` and absent are the catch-all (null); otherwise the host, lower-cased for case-insensitive matching. */
function normalizeHost(value: unknown, key: string): string | null {
  if (value === undefined || value === '*') return null;
  const host = expectString(value, key);
  if (!/^(\[[0-9a-fA-F:.]+\]|[^\s/:@[\]]+)(:\d{1,5})?$/.test(host)) {
    throw new ConfigError(key, `must be a host name with an optional ":port" (got ${show(value)})`);
  }
  return host.toLowerCase();
}
