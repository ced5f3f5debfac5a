// The gateway's configuration after loading and validation (load-config.ts): every default filled in, paths
// absolute, the admin token substituted. The rest of the gateway reads only this model, never the file.

export type Strategy = 'round-robin' | 'weighted-round-robin' | 'least-conn' | 'random';
export const STRATEGIES: readonly Strategy[] = ['round-robin', 'weighted-round-robin', 'least-conn', 'random'];

export interface TargetConfig {
  /** Absolute http(s) URL as written. */
  url: string;
  /** 1..1000, default 1. */
  weight: number;
}

export interface RouteConfig {
  /** Path prefix, starting with `/`; matched on segment boundaries, longest first. */
  path: string;
  /** Default round-robin. */
  strategy: Strategy;
  /** Forward the path without the prefix (`/api/x` → `/x`, `/api` → `/`); default false: unchanged. */
  stripPrefix: boolean;
  targets: TargetConfig[];
}

export interface HealthCheckConfig {
  path: string;
  intervalMs: number;
  timeoutMs: number;
  /** Consecutive successful probes that make an unhealthy upstream healthy again. */
  healthyThreshold: number;
  /** Consecutive failed probes that make an upstream unhealthy. */
  unhealthyThreshold: number;
}

export interface OutlierDetectionConfig {
  /** Consecutive 5xx responses that eject an upstream. */
  consecutive5xx: number;
  /** First ejection period; doubled each time a half-open probe fails, up to maxEjectionMs. */
  baseEjectionMs: number;
  maxEjectionMs: number;
}

export interface RateLimitRule {
  /** Requests allowed per window (per client address). */
  requests: number;
  windowMs: number;
}

export interface BasicAuthConfig {
  realm: string;
  users: { username: string; password: string }[];
}

export interface ApiKeyConfig {
  /** Lower-cased header name. */
  header: string;
  /** A query parameter also carrying the key; undefined = header only. */
  query: string | undefined;
  keys: string[];
}

export interface JwtAuthConfig {
  /** HS256 secret. */
  secret: string | undefined;
  /** RS256 public key, PEM (checked at load). */
  publicKey: string | undefined;
  /** The JWKS file's keys, read at load (plain data: the config travels to workers). */
  jwks: { keys: Record<string, unknown>[] } | undefined;
  issuer: string | undefined;
  audience: string | undefined;
  clockToleranceSecs: number;
}

export interface ForwardAuthConfig {
  url: string;
  timeoutMs: number;
  /** Lower-cased header names copied from a 2xx answer onto the upstream request. */
  copyHeaders: string[];
}

export interface ConsumerConfig {
  name: string;
  apiKeys: string[];
  basic: { username: string; password: string } | undefined;
  /** Per consumer, over all its clients. */
  rateLimit: RateLimitRule | undefined;
}

/** Header changes: names lower-cased; `remove` first, then `set` (replacing any of the same name). */
export interface HeaderTransformConfig {
  set: [string, string][];
  remove: string[];
}

export interface CorsConfig {
  /** Lower-cased origins, or '*' for any. */
  origins: '*' | string[];
  methods: string[];
  /** undefined = the headers the preflight asks for. */
  headers: string[] | undefined;
  expose: string[];
  credentials: boolean;
  maxAgeSecs: number;
}

/** The answer-side and request-side sections of a site (site-filters.ts builds them). */
export interface SiteFiltersConfig {
  requestTransform: HeaderTransformConfig | undefined;
  responseTransform: HeaderTransformConfig | undefined;
  /** Headers set on every proxied or cached answer; HSTS only on TLS sites (0 = not sent). */
  securityHeaders: { headers: [string, string][]; hstsMaxAgeSecs: number } | undefined;
  cors: CorsConfig | undefined;
  /** Upstream answers of these statuses are replaced by the gateway's own. */
  maskErrors: { statuses: number[] } | undefined;
  limits: { maxBodyBytes: number | undefined; upstreamTimeoutMs: number | undefined } | undefined;
}

/** One step of a site's middleware list: the request path rewritten (or answered with a redirect) before
 * static files, uploads and routes see it. */
export type MiddlewareStep =
  | { kind: 'stripPrefix'; prefix: string }
  | { kind: 'addPrefix'; prefix: string }
  | { kind: 'replacePathRegex'; pattern: RegExp; replacement: string }
  | { kind: 'redirectRegex'; pattern: RegExp; replacement: string; status: number };

/** The sections that serve or shape a site's traffic besides its routes (site-serving.ts builds them). */
export interface SiteServingConfig {
  /** How requests go upstream: the client's Host kept (else the target's), X-Forwarded-* added. */
  proxy: { preserveHost: boolean; forwardedHeaders: boolean };
  /** Files under `root` (absolute) answered for GET/HEAD under `path`; a missing file falls through. */
  static: { root: string; path: string; index: string | false; maxAgeSecs: number } | undefined;
  middleware: MiddlewareStep[];
  /** Access log lines in a morgan format, to `file` (absolute) or standard output. */
  logging: { format: 'combined' | 'common' | 'short' | 'tiny'; file: string | undefined } | undefined;
  /** gzip, deflate or br for compressible answers of at least `minBytes`. */
  compression: { minBytes: number } | undefined;
  /** multipart/form-data POSTs to `path` stored in `dir` (absolute). */
  upload: { path: string; dir: string; maxBytes: number; maxFiles: number } | undefined;
}

/** The site's authentication kinds; every one configured must pass, in this order. */
export interface SiteAuthConfig {
  basic: BasicAuthConfig | undefined;
  apiKey: ApiKeyConfig | undefined;
  jwt: JwtAuthConfig | undefined;
  forward: ForwardAuthConfig | undefined;
  /** Named consumers: a request must be identified as one. */
  consumers: ConsumerConfig[] | undefined;
}

export interface SiteConfig {
  /** `<host>:<port>` (host lower-cased) or `*:<port>`. */
  label: string;
  /** Lower-cased; undefined = any host. */
  host: string | undefined;
  port: number;
  /** Absolute paths. */
  tls: { cert: string; key: string } | undefined;
  routes: RouteConfig[];
  healthCheck: HealthCheckConfig | undefined;
  outlierDetection: OutlierDetectionConfig | undefined;
  /** Extra attempts on another target after a connection failure or a 502/503/504 (0 = none). */
  retries: number;
  /** Site-level bucket (`*`) and per-route buckets (keyed by route prefix), kept in this process's memory
   * or in the Redis of global.redis (shared by every gateway using it). */
  rateLimit: { site: RateLimitRule | undefined; routes: Record<string, RateLimitRule>; store: 'memory' | 'redis' } | undefined;
  /** CIDR blocks (single addresses as /32 or /128) denied on the data plane. */
  ipDeny: string[];
  /** Response cache, in memory or in the Redis of global.redis; undefined = no cache feature (purge
   * answers 501, as it does when every cache is kept in Redis). */
  cache: { ttlMs: number; maxEntries: number; store: 'memory' | 'redis' } | undefined;
  /** undefined = no authentication. */
  auth: SiteAuthConfig | undefined;
  /** The answer to a request no route matches; undefined = the plain 404. */
  fallback: { status: number; body: string; headers: [string, string][] } | undefined;
  /** undefined = none of the transform, header, CORS, masking and limit sections. */
  filters: SiteFiltersConfig | undefined;
  /** Metrics endpoint path; undefined = none. */
  metricsPath: string | undefined;
  /** undefined = none of proxy, static, middleware, logging, compression, upload (proxy at its defaults). */
  serving: SiteServingConfig | undefined;
  /** HTTP/2 on the site's listener (ALPN h2 with TLS, prior-knowledge h2c without), beside HTTP/1.1. */
  http2: boolean;
  /** Named sections accepted but not built (reload reports them as warnings). */
  notCompiledIn: string[];
}

export interface RedisConfig {
  /** redis:// or rediss:// URL. */
  url: string;
  /** Put before every key the gateway writes. */
  keyPrefix: string;
}

export interface GatewayConfig {
  /** Absolute path of the file read. */
  path: string;
  format: 'yaml' | 'json';
  global: {
    /** undefined = no admin server. */
    admin: { host: string; port: number; token: string | undefined } | undefined;
    shutdownTimeoutSecs: number;
    /** The Redis that `store: redis` sections use; undefined = none. */
    redis: RedisConfig | undefined;
  };
  workers: number;
  backlog: number | undefined;
  hotReload: boolean;
  sites: SiteConfig[];
}
