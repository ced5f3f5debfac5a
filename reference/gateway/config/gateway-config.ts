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
  /** Site-level bucket (`*`) and per-route buckets (keyed by route prefix). */
  rateLimit: { site: RateLimitRule | undefined; routes: Record<string, RateLimitRule> } | undefined;
  /** CIDR blocks (single addresses as /32 or /128) denied on the data plane. */
  ipDeny: string[];
  /** In-memory response cache; undefined = no cache feature (purge answers 501). */
  cache: { ttlMs: number; maxEntries: number } | undefined;
  /** Metrics endpoint path; undefined = none. */
  metricsPath: string | undefined;
  /** Named sections accepted but not built (reload reports them as warnings). */
  notCompiledIn: string[];
}

export interface GatewayConfig {
  /** Absolute path of the file read. */
  path: string;
  format: 'yaml' | 'json';
  global: {
    /** undefined = no admin server. */
    admin: { host: string; port: number; token: string | undefined } | undefined;
    shutdownTimeoutSecs: number;
  };
  workers: number;
  backlog: number | undefined;
  hotReload: boolean;
  sites: SiteConfig[];
}
