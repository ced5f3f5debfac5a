// How the permitted-variant gateway reads its config: its own key names where document 001 gives none
// (variant-gateway-adapter.mjs lists them), durations as strings with a unit ("200ms", "60s"), the route's rate
// limit inside the route entry. The file is read, its own keys checked and turned into the reference's raw form,
// and the reference's validator (validateConfig) does the rest; the errors it raises are told back in the
// variant's key names. Variants: strategies-alt, sniff-format, lenient-keys, defaults-alt, own-errors,
// strip-prefix (every route forwards the path without its prefix: the reference's route key stripPrefix).
import { resolve } from 'node:path';
import { ConfigError } from '../../../reference/gateway/config/config-error.ts';
import type { GatewayConfig } from '../../../reference/gateway/config/gateway-config.ts';
import { formatKeyPath, type KeySegment } from '../../../reference/gateway/config/key-path.ts';
import { validateConfig } from '../../../reference/gateway/config/load-config.ts';
import { type ConfigFormat, configFormat, parseConfigText, readConfigText } from '../../../reference/gateway/config/read-config-file.ts';
import SCHEMA from '../../../reference/gateway/gateway-config.schema.json' with { type: 'json' };
import type { GatewayVariant } from './variant-gateway-variants.ts';

/** The config file every command reads without -c / --config (catalog gateway/config/default-file-name). */
export const VARIANT_CONFIG_FILE = 'edge.yaml';

export interface LoadContext {
  on: (v: GatewayVariant) => boolean;
  env: NodeJS.ProcessEnv;
  /** Where ignored keys are told (lenient-keys). */
  warn?: (line: string) => void;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The variant's own names: own key -> [reference key, duration?]. */
const ROUTE_KEYS = { prefix: 'path', balance: 'strategy', upstreams: 'targets' } as const;
const NAMES: Record<string, Record<string, [string, boolean]>> = {
  upstream: { address: ['url', false], weight: ['weight', false] },
  healthCheck: { uri: ['path', false], every: ['intervalMs', true], timeout: ['timeoutMs', true], rise: ['healthyThreshold', false], fall: ['unhealthyThreshold', false] },
  outlierDetection: { errors5xx: ['consecutive5xx', false], ejectFor: ['baseEjectionMs', true], ejectAtMost: ['maxEjectionMs', true] },
  retryPolicy: { extraAttempts: ['attempts', false] },
  rateLimit: { limit: ['requests', false], per: ['windowMs', true], store: ['store', false] },
  cache: { ttl: ['ttlMs', true], capacity: ['maxEntries', false], store: ['store', false] },
  apiKey: { headerName: ['header', false], queryParam: ['query', false], values: ['keys', false] },
  jwtAuth: {
    hmacSecret: ['secret', false],
    rsaPublicKey: ['publicKey', false],
    jwks: ['jwksFile', false],
    issuer: ['issuer', false],
    audience: ['audience', false],
    leewaySecs: ['clockToleranceSecs', false],
  },
  forwardAuth: { address: ['url', false], timeout: ['timeoutMs', true], authResponseHeaders: ['copyHeaders', false] },
  cors: {
    origins: ['allowOrigins', false],
    methods: ['allowMethods', false],
    headers: ['allowHeaders', false],
    expose: ['exposeHeaders', false],
    credentials: ['allowCredentials', false],
    maxAgeSecs: ['maxAgeSecs', false],
  },
  limits: { maxBody: ['maxBodyBytes', false], upstreamTimeout: ['upstreamTimeoutMs', true] },
  proxy: { keepHost: ['preserveHost', false], xForwarded: ['forwardedHeaders', false] },
  static: { dir: ['root', false], at: ['path', false], index: ['index', false], maxAgeSecs: ['maxAgeSecs', false] },
  logging: { format: ['format', false], to: ['file', false] },
  compression: { minSize: ['minBytes', false] },
  upload: { at: ['path', false], into: ['dir', false], maxSize: ['maxBytes', false], maxFiles: ['maxFiles', false] },
};
const CONSUMER_NAMES: Record<string, [string, boolean]> = { username: ['name', false], keys: ['apiKeys', false] };
/** Site keys of the reference the variant names otherwise (so they are unknown to it). */
const RENAMED_SITE_KEYS = new Set(['retries']);
const REFERENCE_SITE_KEYS = new Set(Object.keys((SCHEMA as { $defs: { site: { properties: Obj } } }).$defs.site.properties));
const REFERENCE_TOP_KEYS = new Set(Object.keys((SCHEMA as { properties: Obj }).properties));

/** A "name:password" line as {username, password}. */
function login(line: unknown, at: KeySegment[]): { username: string; password: string } {
  const colon = typeof line === 'string' ? line.indexOf(':') : -1;
  if (colon < 1) throw new ConfigError(formatKeyPath(at), `must be "name:password" (got ${JSON.stringify(line)})`);
  return { username: (line as string).slice(0, colon), password: (line as string).slice(colon + 1) };
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A duration ("250ms", "2s", "1.5m") in milliseconds. */
export function durationMs(value: unknown, at: KeySegment[]): number {
  const m = typeof value === 'string' ? /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(value.trim()) : null;
  if (m === null) throw new ConfigError(formatKeyPath(at), `must be a duration such as 500ms, 2s or 1m (got ${JSON.stringify(value)})`);
  return Math.round(Number(m[1]) * UNITS[m[2]!]!);
}

/** The format of the file: by its name, or (sniff-format) by its text. */
export function formatOf(path: string, text: string, ctx: LoadContext): ConfigFormat {
  if (!ctx.on('sniff-format')) return configFormat(path);
  try {
    JSON.parse(text);
    return 'json';
  } catch {
    return 'yaml';
  }
}

class Translator {
  constructor(
    readonly ctx: LoadContext,
    /** Per site: the route prefix of each route index (errors of route buckets name the route entry). */
    readonly prefixes: string[][] = [],
  ) {}

  unknown(at: KeySegment[], out: Obj, key: string): void {
    if (this.ctx.on('lenient-keys')) {
      this.ctx.warn?.(`warning: ${formatKeyPath(at)}: unknown key ignored`);
      delete out[key];
      return;
    }
    throw new ConfigError(formatKeyPath(at), 'unknown key');
  }

  /** `value` with the variant's names of `section` turned into the reference's; other keys are unknown. */
  section(value: unknown, names: Record<string, [string, boolean]>, at: KeySegment[]): unknown {
    if (!isObj(value)) return value;
    const out: Obj = {};
    for (const [key, v] of Object.entries(value)) {
      const name = names[key];
      if (name === undefined) {
        if (this.ctx.on('lenient-keys')) this.ctx.warn?.(`warning: ${formatKeyPath([...at, key])}: unknown key ignored`);
        else throw new ConfigError(formatKeyPath([...at, key]), 'unknown key');
        continue;
      }
      out[name[0]] = name[1] ? durationMs(v, [...at, key]) : v;
    }
    return out;
  }

  route(value: unknown, at: KeySegment[], limits: Obj): unknown {
    if (!isObj(value)) return value;
    const out: Obj = {};
    for (const [key, v] of Object.entries(value)) {
      if (key in ROUTE_KEYS) out[ROUTE_KEYS[key as keyof typeof ROUTE_KEYS]] = v;
      else if (key !== 'rateLimit') {
        if (this.ctx.on('lenient-keys')) this.ctx.warn?.(`warning: ${formatKeyPath([...at, key])}: unknown key ignored`);
        else throw new ConfigError(formatKeyPath([...at, key]), 'unknown key');
      }
    }
    if (Array.isArray(out.targets)) out.targets = out.targets.map((u, k) => this.section(u, NAMES.upstream!, [...at, 'upstreams', k]));
    if (out.strategy === undefined && this.ctx.on('strategies-alt')) out.strategy = 'least-conn';
    if (out.strategy === 'random' && this.ctx.on('strategies-alt')) {
      throw new ConfigError(formatKeyPath([...at, 'balance']), 'unknown balancing policy "random" (round-robin, weighted-round-robin, least-conn)');
    }
    if (value.rateLimit !== undefined && typeof value.prefix === 'string') limits[value.prefix] = this.section(value.rateLimit, NAMES.rateLimit!, [...at, 'rateLimit']);
    return out;
  }

  /** basicAuth: {realm, users: ["name:password", ...]} (htpasswd-like lines, the password in clear). */
  basicAuth(value: Obj, at: KeySegment[]): Obj {
    const { users, ...rest } = value;
    if (!Array.isArray(users)) return value;
    return { ...rest, users: users.map((line, k) => login(line, [...at, 'users', k])) };
  }

  /** consumers[]: {username, keys, login "name:password", limit {limit, per}}. */
  consumer(value: unknown, at: KeySegment[]): unknown {
    if (!isObj(value)) return value;
    const { login: credentials, limit, ...rest } = value;
    const out = this.section(rest, CONSUMER_NAMES, at) as Obj;
    if (credentials !== undefined) out.basicAuth = login(credentials, [...at, 'login']);
    if (limit !== undefined) out.rateLimit = this.section(limit, NAMES.rateLimit!, [...at, 'limit']);
    return out;
  }

  site(value: unknown, i: number): unknown {
    if (!isObj(value)) return value;
    const at: KeySegment[] = ['sites', i];
    const out: Obj = { ...value };
    for (const key of Object.keys(value)) {
      if (RENAMED_SITE_KEYS.has(key) || (this.ctx.on('lenient-keys') && !REFERENCE_SITE_KEYS.has(key) && !(key in NAMES) && !key.startsWith('x-'))) {
        this.unknown([...at, key], out, key);
      }
    }
    const limits: Obj = {};
    if (Array.isArray(value.routes)) {
      this.prefixes[i] = value.routes.map((r) => (isObj(r) ? String(r.prefix) : ''));
      out.routes = value.routes.map((r, j) => this.route(r, [...at, 'routes', j], limits));
    }
    for (const key of ['healthCheck', 'outlierDetection', 'cache', 'apiKey', 'jwtAuth', 'forwardAuth', 'cors', 'limits', 'proxy', 'static', 'logging', 'compression', 'upload'] as const) {
      if (isObj(value[key])) out[key] = this.section(value[key], NAMES[key]!, [...at, key]);
    }
    if (isObj(value.basicAuth)) out.basicAuth = this.basicAuth(value.basicAuth, [...at, 'basicAuth']);
    if (Array.isArray(value.consumers)) out.consumers = value.consumers.map((c, k) => this.consumer(c, [...at, 'consumers', k]));
    if (value.retryPolicy !== undefined) {
      delete out.retryPolicy;
      out.retries = this.section(value.retryPolicy, NAMES.retryPolicy!, [...at, 'retryPolicy']);
    }
    if (value.rateLimit !== undefined || Object.keys(limits).length > 0) {
      const site = value.rateLimit === undefined ? {} : this.section(value.rateLimit, NAMES.rateLimit!, [...at, 'rateLimit']);
      out.rateLimit = isObj(site) ? { ...site, ...(Object.keys(limits).length > 0 ? { routes: limits } : {}) } : site;
    }
    if (this.ctx.on('defaults-alt') && isObj(value.metrics) && value.metrics.path === undefined) out.metrics = { ...value.metrics, path: '/-/metrics' };
    return out;
  }

  config(raw: unknown): unknown {
    if (!isObj(raw)) return raw;
    const out: Obj = { ...raw };
    if (this.ctx.on('lenient-keys')) {
      for (const key of Object.keys(raw)) if (!REFERENCE_TOP_KEYS.has(key) && !key.startsWith('x-')) this.unknown([key], out, key);
    }
    if (Array.isArray(raw.sites)) out.sites = raw.sites.map((s, i) => this.site(s, i));
    if (this.ctx.on('defaults-alt') && (raw.global === undefined || (isObj(raw.global) && raw.global.shutdownTimeoutSecs === undefined))) {
      out.global = { ...(isObj(raw.global) ? raw.global : {}), shutdownTimeoutSecs: 2 };
    }
    return out;
  }

  /** A field of the reference's form named the variant's way. */
  field(field: string): string {
    const routeBucket = /^sites\[(\d+)\]\.rateLimit\.routes\[("(?:[^"\\]|\\.)*")\](.*)$/.exec(field);
    if (routeBucket !== null) {
      const [, site, quoted, rest] = routeBucket;
      const j = this.prefixes[Number(site)]?.indexOf(JSON.parse(quoted!) as string) ?? -1;
      return this.field(`sites[${site}].routes[${j < 0 ? '?' : j}].rateLimit${rest}`);
    }
    return field
      .replace(/(\.routes\[\d+\])\.path\b/, '$1.prefix')
      .replace(/(\.routes\[\d+\])\.strategy\b/, '$1.balance')
      .replace(/(\.routes\[\d+\])\.targets(\[\d+\])?(\.url)?/, (_, r: string, k = '', url = '') => `${r}.upstreams${k}${url ? '.address' : ''}`)
      .replace(/\.retries(\.attempts)?\b/, (_, a: string | undefined) => `.retryPolicy${a ? '.extraAttempts' : ''}`)
      .replace(/\.(healthCheck|outlierDetection|rateLimit|cache|apiKey|jwtAuth|forwardAuth|cors|limits|proxy|static|logging|compression|upload)\.(\w+)$/, (all, section: string, key: string) => {
        const own = Object.entries(NAMES[section] ?? {}).find(([, [ref]]) => ref === key)?.[0];
        return own === undefined ? all : `.${section}.${own}`;
      });
  }

  /** A reason of the reference's form with the reference's key names the variant's way. */
  reason(reason: string): string {
    return reason.replace(/\b(baseEjectionMs|maxEjectionMs|intervalMs|timeoutMs|windowMs|ttlMs|upstreamTimeoutMs)\b/g, (name) => {
      for (const names of Object.values(NAMES)) for (const [own, [ref]] of Object.entries(names)) if (ref === name) return own;
      return name;
    });
  }
}

/** Reads, checks and normalises the variant's config file at `path`. Throws ConfigError. */
export function loadVariantConfig(path: string, ctx: LoadContext): GatewayConfig {
  const absolute = resolve(path);
  const text = readConfigText(absolute);
  const format = formatOf(absolute, text, ctx);
  const raw = parseConfigText(text, format, absolute);
  const translator = new Translator(ctx);
  const translated = translator.config(raw);
  try {
    const config = validateConfig(translated, absolute, format, ctx.env);
    if (!ctx.on('strip-prefix')) return config;
    return { ...config, sites: config.sites.map((site) => ({ ...site, routes: site.routes.map((route) => ({ ...route, stripPrefix: true })) })) };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const unset = /^refers to the environment variable (\w+), which is (not set|empty)$/.exec(error.reason);
    if (ctx.on('own-errors') && unset !== null) {
      throw new ConfigError(`$${unset[1]}`, `environment variable ${unset[2]} (the admin token is read from it)`, { cause: error });
    }
    throw new ConfigError(translator.field(error.field), translator.reason(error.reason), { cause: error });
  }
}
