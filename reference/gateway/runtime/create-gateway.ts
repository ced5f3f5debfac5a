// The running gateway: public listeners over the current site table, the upstream registry (stats, pools,
// probes), runtime denies, and the GatewayRuntime operations the admin server calls. A reload builds a new
// table and swaps it in; requests under way keep the one they started with.
import type { GatewayConfig } from '../config/gateway-config.ts';
import { notCompiledInWarnings } from '../config/load-config.ts';
import { DenyList, parseBlock } from '../data-plane/ip-filter.ts';
import type { Traffic } from '../data-plane/proxy-exchange.ts';
import { createRequestHandler, type DataPlane } from '../data-plane/request-handler.ts';
import { purgeKey } from '../data-plane/response-cache.ts';
import { buildSiteTable, type SiteTable } from '../data-plane/site-table.ts';
import type { Upstream } from '../data-plane/upstream.ts';
import { writePair } from './certs-reload.ts';
import { type ConfigWatcher, watchConfig } from './config-watcher.ts';
import {
  GatewayError,
  type GatewayRuntime,
  type RateLimitCounters,
  type RouteEntry,
  type StatusObject,
  type TargetChange,
  type UpstreamEntry,
} from './gateway-runtime.ts';
import { type Listener, openListeners } from './listeners.ts';
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
}

export type Gateway = GatewayRuntime & {
  /** The bound public ports, one per configured port, in config order. */
  ports(): number[];
};

/** How often idle rate-limit windows are forgotten. */
const RATE_LIMIT_SWEEP_MS = 10_000;

class RunningGateway implements Gateway, DataPlane {
  table: SiteTable;
  closing = false;
  readonly denies = new DenyList();
  readonly traffic: Traffic = { inflight: 0, retryInflight: 0 };
  readonly #registry = new UpstreamRegistry();
  readonly #options: GatewayOptions;
  readonly #log: (line: string) => void;
  #listeners: Listener[] = [];
  #watcher: ConfigWatcher | undefined;
  #sweep: NodeJS.Timeout | undefined;
  #drained: (() => void) | undefined;
  #shutdown: Promise<void> | undefined;

  constructor(config: GatewayConfig, options: GatewayOptions) {
    this.#options = options;
    this.#log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.table = buildSiteTable(config, this.#registry.resolve);
    this.#registry.sync(this.table, false);
  }

  async start(): Promise<void> {
    const config = this.table.config;
    if (config.workers > 1) this.#log('workers: running 1 process (multi-process later)');
    for (const warning of notCompiledInWarnings(config)) this.#log(`warning: ${warning}`);
    try {
      this.#listeners = await openListeners(config, (port, scheme) => createRequestHandler(this, port, scheme));
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

  async reload(): Promise<{ warnings: string[] }> {
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
    let table: SiteTable;
    try {
      table = buildSiteTable(next, this.#registry.resolve);
    } catch (error) {
      this.#registry.sync(this.table, true);
      throw reloadFailure(error, running.path);
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
    return caches.map((cache) => cache.purge(key, now)).some(Boolean);
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
    for (const site of this.table.sites) {
      site.siteBucket?.sweep(now);
      for (const { bucket } of site.routeBuckets) bucket.sweep(now);
    }
  }

  /** Starts or stops the file watcher to match the current config's hotReload. */
  #followHotReload(): void {
    const config = this.table.config;
    if (config.hotReload && this.#watcher === undefined && !this.closing) {
      this.#watcher = watchConfig(config.path, () => {
        this.reload().then(
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

export async function createGateway(config: GatewayConfig, options: GatewayOptions): Promise<Gateway> {
  const gateway = new RunningGateway(config, options);
  await gateway.start();
  return gateway;
}
