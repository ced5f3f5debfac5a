// What the admin server (and the CLI through it) asks of the running gateway. The runtime knows no HTTP
// status: it throws GatewayError with a code, which the admin server maps (bad-request 400, not-found 404,
// not-implemented 501, internal 500).

export type GatewayErrorCode = 'bad-request' | 'not-found' | 'not-implemented' | 'internal';

export class GatewayError extends Error {
  override name = 'GatewayError';
  constructor(
    readonly code: GatewayErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export type UpstreamState = 'healthy' | 'busy' | 'unhealthy' | 'half-open' | 'ejected';

export interface StatusObject {
  status: 'running';
  inflight: number;
  retry_inflight: number;
  sites: number;
  configured_upstreams: number;
  healthy_upstreams: number;
  total_probed_upstreams: number;
  config_path: string;
}

export interface UpstreamEntry {
  url: string;
  healthy: boolean;
  state: UpstreamState;
  latency_ms: number | null;
  ewma_latency_ms: number;
  consecutive_failures: number;
  consecutive_successes: number;
  consecutive_5xx: number;
  active_connections: number;
  ejected: boolean;
  responses: { '2xx': number; '4xx': number; '5xx': number };
  selected: { total: number; last_secs: number };
}

export interface RouteTargetEntry {
  url: string;
  weight: number;
  healthy: boolean;
  latency_ms: number | null;
  consecutive_failures: number;
  consecutive_successes: number;
}

export interface RouteEntry {
  site: string;
  path: string;
  strategy: string;
  targets: RouteTargetEntry[];
}

/** A runtime upstream change; `site` undefined = every site having the route. */
export interface TargetChange {
  site: string | undefined;
  route: string;
  target: string;
}

export type RateLimitCounters = Record<string, Record<string, { passed: number; rejected: number }>>;

type Awaitable<T> = T | Promise<T>;

/** What the admin server asks of the running gateway. An answer may come later: a gateway of several worker
 * processes (`workers` > 1) asks its workers first (runtime/cluster-runtime.ts). */
export interface GatewayRuntime {
  status(): Awaitable<StatusObject>;
  upstreams(): Awaitable<{ upstreams: UpstreamEntry[]; routes: RouteEntry[] }>;
  /** Adds (or re-weights) the target on the route. */
  addTarget(change: TargetChange & { weight: number }): Awaitable<void>;
  /** False when the route exists but does not hold the target. */
  removeTarget(change: TargetChange): Awaitable<boolean>;
  setWeight(change: TargetChange & { weight: number }): Awaitable<void>;
  /** Re-reads and applies the file; throws GatewayError bad-request (validation, cold change, unreadable). */
  reload(): Promise<{ warnings: string[] }>;
  /** Throws GatewayError not-implemented without the cache feature. */
  purge(url: string): Awaitable<boolean>;
  rateLimits(): Awaitable<RateLimitCounters>;
  /** Throws GatewayError bad-request for an invalid CIDR or IP. */
  denyAdd(cidr: string): Awaitable<void>;
  denyRemove(cidr: string): Awaitable<void>;
  /** Validates the pair and writes both files atomically; returns the absolute paths written. */
  certsReload(cert: string, key: string): Promise<{ certPath: string; keyPath: string }>;
  /** Stops accepting, drains in-flight requests (bounded by shutdownTimeoutSecs), closes everything. */
  shutdown(): Promise<void>;
}

/** The gateway of one process: every answer but reload, certsReload and shutdown comes at once. */
export interface LocalGatewayRuntime extends GatewayRuntime {
  status(): StatusObject;
  upstreams(): { upstreams: UpstreamEntry[]; routes: RouteEntry[] };
  addTarget(change: TargetChange & { weight: number }): void;
  removeTarget(change: TargetChange): boolean;
  setWeight(change: TargetChange & { weight: number }): void;
  purge(url: string): boolean;
  rateLimits(): RateLimitCounters;
  denyAdd(cidr: string): void;
  denyRemove(cidr: string): void;
}
