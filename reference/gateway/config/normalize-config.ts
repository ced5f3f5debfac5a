// The whole file (already shape-checked by the schema) into the GatewayConfig model: the global section with
// the admin address parsed and the token substituted from the environment, every site, and the checks that
// span sites (labels, TLS per port, the admin port, the total number of targets).
import { dirname } from 'node:path';
import { ConfigError } from './config-error.ts';
import type { GatewayConfig, SiteConfig } from './gateway-config.ts';
import { parseHostPort } from './host-port.ts';
import { normalizeSite, type RawSite } from './normalize-site.ts';
import type { ConfigFormat } from './read-config-file.ts';

export interface RawConfig {
  $schema?: string;
  global?: { admin?: { bind: string; token?: string }; shutdownTimeoutSecs?: number; redis?: { url: string; keyPrefix?: string } };
  workers?: number;
  backlog?: number;
  hotReload?: boolean;
  sites: RawSite[];
}

export const GLOBAL_DEFAULTS = Object.freeze({ shutdownTimeoutSecs: 30, workers: 1, hotReload: false, redisKeyPrefix: 'gateway:' });

/** Upstream targets over all sites and routes, at most (each one may be probed and pooled). */
export const MAX_TOTAL_TARGETS = 10_000;

const TOKEN_REFERENCE = /^\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})$/;

/** `path` is the absolute path of the file, whose folder relative paths resolve against. */
export function normalizeConfig(raw: RawConfig, path: string, format: ConfigFormat, env: NodeJS.ProcessEnv): GatewayConfig {
  const admin = normalizeAdmin(raw.global?.admin, env);
  const redis = normalizeRedis(raw.global?.redis);
  const sites = raw.sites.map((site, index) => normalizeSite(site, index, dirname(path), redis !== undefined));
  checkSites(sites);
  if (admin !== undefined) checkAdminPort(admin.port, sites);
  return {
    path,
    format,
    global: { admin, shutdownTimeoutSecs: raw.global?.shutdownTimeoutSecs ?? GLOBAL_DEFAULTS.shutdownTimeoutSecs, redis },
    workers: raw.workers ?? GLOBAL_DEFAULTS.workers,
    backlog: raw.backlog,
    hotReload: (raw.hotReload ?? GLOBAL_DEFAULTS.hotReload) || raw.sites.some((site) => site.hotReload === true),
    sites,
  };
}

function normalizeRedis(raw: { url: string; keyPrefix?: string } | undefined): GatewayConfig['global']['redis'] {
  if (raw === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw.url);
  } catch {}
  if (url === undefined || !/^rediss?:$/.test(url.protocol) || url.hostname === '') {
    throw new ConfigError('global.redis.url', `must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379 (got "${raw.url}")`);
  }
  return { url: raw.url, keyPrefix: raw.keyPrefix ?? GLOBAL_DEFAULTS.redisKeyPrefix };
}

function normalizeAdmin(raw: { bind: string; token?: string } | undefined, env: NodeJS.ProcessEnv): GatewayConfig['global']['admin'] {
  if (raw === undefined) return undefined;
  const address = parseHostPort(raw.bind);
  if (address === undefined) {
    throw new ConfigError('global.admin.bind', `must be host:port, for example 127.0.0.1:2019 or [::1]:2019 (got "${raw.bind}")`);
  }
  return { ...address, token: resolveToken(raw.token, env) };
}

/** `$NAME` or `${NAME}` reads the environment; any other value is the token itself. The value never goes into
 * a message. */
export function resolveToken(token: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (token === undefined) return undefined;
  const field = 'global.admin.token';
  const match = TOKEN_REFERENCE.exec(token);
  const name = match === null ? undefined : (match[1] ?? match[2]);
  let value = token;
  if (name !== undefined) {
    const fromEnv = env[name];
    if (fromEnv === undefined) throw new ConfigError(field, `refers to the environment variable ${name}, which is not set`);
    if (fromEnv === '') throw new ConfigError(field, `refers to the environment variable ${name}, which is empty`);
    value = fromEnv;
  }
  if (value === '') throw new ConfigError(field, 'must not be empty');
  if (!/^[\x21-\x7e]+$/.test(value)) {
    const what = name === undefined ? 'the token' : `the value of ${name}`;
    throw new ConfigError(field, `${what} holds spaces or characters that cannot be sent in an Authorization header`);
  }
  return value;
}

function checkSites(sites: SiteConfig[]): void {
  const labels = new Map<string, number>();
  const firstOnPort = new Map<number, number>();
  let targets = 0;
  sites.forEach((site, index) => {
    const same = labels.get(site.label);
    if (same !== undefined) throw new ConfigError(`sites[${index}]`, `duplicate site label ${site.label} (same as sites[${same}])`);
    labels.set(site.label, index);
    const other = firstOnPort.get(site.port);
    if (other === undefined) firstOnPort.set(site.port, index);
    else if ((sites[other]?.tls === undefined) !== (site.tls === undefined)) {
      const uses = site.tls === undefined ? 'uses TLS' : 'does not use TLS';
      throw new ConfigError(
        `sites[${index}].tls`,
        `port ${site.port} is shared with sites[${other}], which ${uses}; the sites of one port are all HTTPS or all plain HTTP`,
      );
    }
    site.routes.forEach((route, r) => {
      targets += route.targets.length;
      if (targets > MAX_TOTAL_TARGETS) {
        throw new ConfigError(`sites[${index}].routes[${r}].targets`, `the config holds more than ${MAX_TOTAL_TARGETS} targets in all`);
      }
    });
  });
}

function checkAdminPort(port: number, sites: SiteConfig[]): void {
  const index = sites.findIndex((site) => site.port === port);
  if (index !== -1) throw new ConfigError('global.admin.bind', `port ${port} is also the port of sites[${index}]`);
}
