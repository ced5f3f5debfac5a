// The running gateway: public listeners over the current site table, the upstream registry (stats, pools,
// probes), runtime denies, and the GatewayRuntime operations the admin server calls. A reload builds a new
// table and swaps it in; requests under way keep the one they started with. A gateway of several workers
// (runtime/cluster-*.ts) runs one of these in each process, each doing its part: the primary's checks every
// change and probes, the workers' serve.
import pLimit from 'p-limit';
import type { GatewayConfig } from '../config/gateway-config.ts';
import { notCompiledInWarnings } from '../config/load-config.ts';
import { DenyList, parseBlock } from '../data-plane/ip-filter.ts';
import { importPackagesFor } from '../data-plane/optional-packages.ts';
import type { Traffic } from '../data-plane/proxy-exchange.ts';
import { createRequestHandler, type DataPlane, type PipelineHooks } from '../data-plane/request-handler.ts';
import { purgeKey } from '../data-plane/response-cache.ts';
import { closeRedisStores, redisStores } from '../data-plane/redis-store.ts';
import { closeLogStreams } from '../data-plane/site-serving.ts';
import { buildSiteTable, type SiteTable } from '../data-plane/site-table.ts';
import type { Upstream } from '../data-plane/upstream.ts';
import { writePair } from './certs-reload.ts';
import { type ConfigWatcher, watchConfig } from './config-watcher.ts';
import {
  GatewayError,
  type LocalGatewayRuntime,
  type RateLimitCounters,
  type RouteEntry,
  type StatusObject,
  type TargetChange,
  type UpstreamEntry,
} from './gateway-runtime.ts';
import { type Listener, openListeners, type ReadTlsFile } from './listeners.ts';
import { rateLimitCounters, statusObject, upstreamListing } from './listing.ts';
import { reloadFailure } from './reload-messages.ts';
import { addTarget, removeTarget, setWeight } from './runtime-changes.ts';
import { UpstreamRegistry } from './upstream-registry.ts';

export interface GatewayOptions {
  /** Reads and validates the config file (throws ConfigError `<field>: <reason>`). */
  loadConfig: (path: string) => GatewayConfig;
  /** The first cold field that differs between two configs, or undefined. */
  coldChange: (running: GatewayConfig, next: GatewayConfig) => string | undefined;
  log?: (line: string) => void;
  /** Set in the processes of a gateway of several workers; without it one process does everything. */
  part?: ControlPart | WorkerPart;
}

/** The primary's gateway: no listeners; the health checks (each result told to onProbe), the file watcher
 * (which runs the whole gateway's reload) and the checks of every change before the workers apply it. */
export interface ControlPart {
  role: 'control';
  onProbe: (upstream: Upstream, ok: boolean, latencyMs: number | null) => void;
  reloadOnChange: () => Promise<{ warnings: string[] }>;
}

/** A worker's gateway: the listeners, with the whole gateway's metrics and rate limits (hooks); no probes (the primary's results are
 * applied), no watcher; the table as the worker builds it; the TLS files as the primary read them; each
 * ejection it starts or ends told to onOutlier. */
export interface WorkerPart {
  role: 'worker';
  onOutlier: (upstream: Upstream) => void;
  hooks: PipelineHooks;
  buildTable: (config: GatewayConfig, resolve: (url: string) => Upstream) => SiteTable;
  readTlsFile: ReadTlsFile;
}

export type Gateway = LocalGatewayRuntime & {
  /** The bound public ports, one per configured port, in config order. */
  ports(): number[];
};

/** How often idle rate-limit windows are forgotten. */
const RATE_LIMIT_SWEEP_MS = 10_000;
/** How long start-up waits for each Redis of the config to connect. */
const REDIS_CONNECT_WAIT_MS = 2_000;

export class RunningGateway implements Gateway, DataPlane {
  table: SiteTable;
  closing = false;
  readonly denies = new DenyList();
  readonly traffic: Traffic = { inflight: 0, retryInflight: 0 };
  readonly hooks: PipelineHooks | undefined;
  readonly #registry: UpstreamRegistry;
  readonly #options: GatewayOptions;
  readonly #part: ControlPart | WorkerPart | undefined;
  readonly #log: (line: string) => void;
  #listeners: Listener[] = [];
  #watcher: ConfigWatcher | undefined;
  #sweep: NodeJS.Timeout | undefined;
  #drained: (() => void) | undefined;
  #shutdown: Promise<void> | undefined;
  readonly #oneReload = pLimit(1);

  constructor(config: GatewayConfig, options: GatewayOptions) {
    this.#options = options;
    this.#part = options.part;
    this.hooks = this.#part?.role === 'worker' ? this.#part.hooks : undefined;
    this.#log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.#registry = new UpstreamRegistry(
      this.#part?.role === 'control'
        ? { onProbe: this.#part.onProbe }
        : this.#part?.role === 'worker'
          ? { probing: false, onOutlier: this.#part.onOutlier }
          : {},
    );
    this.table = this.#build(config);
    this.#registry.sync(this.table, false);
  }

  #build(config: GatewayConfig): SiteTable {
    const part = this.#part;
    return part?.role === 'worker' ? part.buildTable(config, this.#registry.resolve) : buildSiteTable(config, this.#registry.resolve);
  }

  async start(): Promise<void> {
    const config = this.table.config;
    const part = this.#part;
    // The primary of several workers says what the config leaves unbuilt; its workers do not repeat it.
    if (part?.role !== 'worker') for (const warning of notCompiledInWarnings(config)) this.#log(`warning: ${warning}`);
    // Rate limits kept in Redis hold from the first request: the connections are made first (briefly).
    for (const store of redisStores()) {
      if (!(await store.ready(REDIS_CONNECT_WAIT_MS))) this.#log(`warning: redis ${store.url}: not connected yet; requests pass unchecked until it is`);
    }
    try {
      if (part?.role !== 'control') {
        const readTlsFile = part?.role === 'worker' ? part.readTlsFile : undefined;
        this.#listeners = await openListeners(config, (port, scheme) => createRequestHandler(this, port, scheme), readTlsFile);
      }
    } catch (error) {
      await this.#registry.close();
      throw error;
    }
    this.#sweep = setInterval(() => this.#sweepRateLimits(), RATE_LIMIT_SWEEP_MS).unref();
    this.#followHotReload();
  }

  ports(): number[] {
    return this.#listeners.map((listener) => listener.port);
  }

  upstreams(): { upstreams: UpstreamEntry[]; routes: RouteEntry[] } {
    return upstreamListing(this.table, this.#registry.list(), Date.now());
  }

  upstreamList(): readonly Upstream[] {
    return this.#registry.list();
  }

  /** The upstream of a normalised URL, if routed to. */
  upstream(key: string): Upstream | undefined {
    return this.#registry.get(key);
  }

  requestEnded(): void {
    if (this.traffic.inflight === 0) this.#drained?.();
  }

  status(): StatusObject {
    return statusObject(this.table, this.#registry.list(), this.traffic);
  }

  addTarget(change: TargetChange & { weight: number }): void {
    addTarget(this.table, change, this.#registry.resolve);
    this.#registry.sync(this.table, true);
  }

  removeTarget(change: TargetChange): boolean {
    const removed = removeTarget(this.table, change);
    this.#registry.sync(this.table, true);
    return removed;
  }

  setWeight(change: TargetChange & { weight: number }): void {
    setWeight(this.table, change);
  }

  /** One reload at a time: the file is read, its packages imported, then applied, so a reload that waits for
   * an import never applies an older file over a newer one. */
  reload(): Promise<{ warnings: string[] }> {
    return this.#oneReload(async () => this.applyConfig(await this.nextConfig()));
  }

  /** The file as a reload would apply it, with the packages it uses imported (what applyConfig needs). */
  async nextConfig(): Promise<GatewayConfig> {
    const next = this.readConfig();
    await importPackagesFor(next);
    return next;
  }

  /** Re-reads the file: the config a reload would apply; throws GatewayError bad-request (validation, cold
   * change, unreadable). */
  readConfig(): GatewayConfig {
    const running = this.table.config;
    let next: GatewayConfig;
    try {
      next = this.#options.loadConfig(running.path);
    } catch (error) {
      throw reloadFailure(error, running.path);
    }
    const cold = this.#options.coldChange(running, next);
    if (cold !== undefined) {
      throw new GatewayError(
        'bad-request',
        `${cold}: changed in the config file; a restart is required to apply it (nothing was reloaded)`,
      );
    }
    return next;
  }

  /** Runs on `next` from now on: runtime upstream changes and rate-limit counters start afresh. The packages
   * it uses must be imported (nextConfig, importPackagesFor). */
  applyConfig(next: GatewayConfig): { warnings: string[] } {
    let table: SiteTable;
    try {
      table = this.#build(next);
    } catch (error) {
      this.#registry.sync(this.table, true);
      throw reloadFailure(error, this.table.config.path);
    }
    this.table = table;
    this.#registry.sync(table, false);
    this.#followHotReload();
    return { warnings: notCompiledInWarnings(next) };
  }

  purge(url: string): boolean {
    const caches = this.table.sites.flatMap((site) => (site.cache === undefined ? [] : [site.cache]));
    if (caches.length === 0) throw new GatewayError('not-implemented', 'cache: no site configures the response cache');
    const key = purgeKey(url);
    if (key === undefined) throw new GatewayError('bad-request', 'url: must be an absolute URL');
    const now = Date.now();
    const purged = caches.map((cache) => cache.purge(key, now));
    if (purged.every((done) => done === undefined)) {
      throw new GatewayError('not-implemented', 'cache: a Redis-backed cache cannot be purged (only in-memory caches can)');
    }
    return purged.some(Boolean);
  }

  rateLimits(): RateLimitCounters {
    return rateLimitCounters(this.table);
  }

  denyAdd(cidr: string): void {
    this.denies.add(this.#block(cidr));
  }

  denyRemove(cidr: string): void {
    this.denies.remove(this.#block(cidr));
  }

  certsReload(cert: string, key: string): Promise<{ certPath: string; keyPath: string }> {
    return writePair(this.table.config, cert, key);
  }

  shutdown(): Promise<void> {
    this.#shutdown ??= this.#close();
    return this.#shutdown;
  }

  async #close(): Promise<void> {
    this.closing = true;
    clearInterval(this.#sweep);
    await this.#watcher?.close();
    this.#watcher = undefined;
    const closed = this.#listeners.map(
      ({ server }) => new Promise<void>((resolve) => server.close(() => resolve())),
    );
    for (const { server } of this.#listeners) server.closeIdleConnections();
    if (this.traffic.inflight > 0) {
      const timeoutMs = this.table.config.global.shutdownTimeoutSecs * 1000;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.#drained = resolve;
        timer = setTimeout(resolve, timeoutMs);
      });
      clearTimeout(timer);
    }
    // What is still running when the time is up is cut without a response (gateway/shutdown/timeout-expiry).
    for (const { server } of this.#listeners) server.closeAllConnections();
    await Promise.all(closed);
    await this.#registry.close();
    await closeRedisStores();
    await closeLogStreams();
  }

  #block(cidr: string) {
    const block = typeof cidr === 'string' ? parseBlock(cidr) : undefined;
    if (block === undefined) {
      throw new GatewayError('bad-request', `cidr: ${JSON.stringify(cidr)} is not a CIDR block or an IP address`);
    }
    return block;
  }

  #sweepRateLimits(): void {
    const now = Date.now();
    for (const store of redisStores()) {
      const { count, error } = store.takeFailures();
      if (count > 0) this.#log(`warning: redis ${store.url}: ${count} request(s) let through without their rate-limit check: ${error}`);
    }
    for (const site of this.table.sites) {
      site.siteBucket?.sweep(now);
      for (const { bucket } of site.routeBuckets) bucket.sweep(now);
    }
  }

  /** Starts or stops the file watcher to match the current config's hotReload. */
  #followHotReload(): void {
    const config = this.table.config;
    const part = this.#part;
    if (part?.role === 'worker') return;
    if (config.hotReload && this.#watcher === undefined && !this.closing) {
      this.#watcher = watchConfig(config.path, () => {
        (part === undefined ? this.reload() : part.reloadOnChange()).then(
          ({ warnings }) => {
            this.#log(`config reloaded from ${config.path}`);
            for (const warning of warnings) this.#log(`warning: ${warning}`);
          },
          (error: Error) => this.#log(`config reload failed, keeping the running config: ${error.message}`),
        );
      });
    } else if (!config.hotReload && this.#watcher !== undefined) {
      const watcher = this.#watcher;
      this.#watcher = undefined;
      watcher.close().catch(() => {});
    }
  }
}

export async function createGateway(config: GatewayConfig, options: GatewayOptions): Promise<RunningGateway> {
  await importPackagesFor(config);
  const gateway = new RunningGateway(config, options);
  await gateway.start();
  return gateway;
}
