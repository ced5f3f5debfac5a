// Rate limits of a gateway of several workers hold for the gateway as a whole, exactly: per bucket and
// client address, the primary keeps the fixed window (its end and how many requests it granted) and lends
// each worker asking a share of what is left; a worker admits requests on its share without asking again
// until the share is spent or the window ends. When nothing is left to lend, the primary takes back what
// the other workers have not used before it refuses. So the gateway admits `requests` per window whichever
// workers take them, never more, and refuses only when the window is full (README.md, "Workers"); a client
// far below its limit costs one question per window and worker. The counters are counted where decided (in
// the workers) and summed by the primary; a reload starts every window and counter afresh.
import type { GatewayConfig, RateLimitRule } from '../config/gateway-config.ts';
import { findLongest, longestFirst } from '../data-plane/route-match.ts';
import { buildSiteTable, type SiteState, type SiteTable } from '../data-plane/site-table.ts';
import type { Upstream } from '../data-plane/upstream.ts';
import type { RateLimitCounters } from './gateway-runtime.ts';

/** How often windows that are over are forgotten. */
const SWEEP_MS = 10_000;

/** The seconds of Retry-After until `end` (the data plane's RateBucket rule). */
const retryAfter = (end: number, now: number): number => Math.max(1, Math.ceil((end - now) / 1000));

/** A bucket's key between the processes: the site's label and the route prefix (`*` for the site bucket). */
const bucketKey = (label: string, path: string): string => `${label}\n${path}`;

// ---------------------------------------------------------------- the worker's side

/** What a worker's share of a client's window is. */
interface Lease {
  end: number;
  left: number;
  /** The window is full: refuse until its end without asking. */
  full: boolean;
}

interface Bucket {
  key: string;
  label: string;
  path: string;
  passed: number;
  rejected: number;
  readonly leases: Map<string, Lease>;
  /** Questions on their way, by client: requests of the same client wait for the one answer. */
  readonly asking: Map<string, Promise<Granted>>;
}

interface SiteLimits {
  site: Bucket | undefined;
  /** Longest prefix first. */
  routes: Bucket[];
}

/** What the primary answers: a share of `tokens` (0: the window is full) of the window ending at `end`;
 * `once` when the question belongs to a config already replaced (the request passes, counted nowhere). */
export interface LeaseAnswer {
  tokens: number;
  end: number;
  once?: boolean;
}

type Granted = 'granted' | 'full' | 'once';

const newBucket = (label: string, path: string): Bucket => ({
  key: bucketKey(label, path),
  label,
  path,
  passed: 0,
  rejected: 0,
  leases: new Map(),
  asking: new Map(),
});

/** A worker's rate limiter: builds its tables (without the data plane's buckets) and decides each request. */
export class WorkerLimiter {
  readonly #ask: (bucket: string, client: string, generation: number) => Promise<LeaseAnswer>;
  #generation: number;
  readonly #limits = new WeakMap<SiteState, SiteLimits>();
  /** The buckets of the current table, by key. */
  #buckets = new Map<string, Bucket>();
  readonly #sweep: NodeJS.Timeout;

  /** `generation`: how many configs the primary applied before the one this worker starts on. */
  constructor(ask: (bucket: string, client: string, generation: number) => Promise<LeaseAnswer>, generation: number) {
    this.#ask = ask;
    this.#generation = generation - 1;
    this.#sweep = setInterval(() => this.#forget(Date.now()), SWEEP_MS).unref();
  }

  /** The worker's table of a config: the data plane's, with the buckets taken out (decided here instead). */
  buildTable = (config: GatewayConfig, resolve: (url: string) => Upstream): SiteTable => {
    const table = buildSiteTable(config, resolve);
    const buckets = new Map<string, Bucket>();
    const copies = new Map<SiteState, SiteState>();
    const sites = table.sites.map((site) => {
      const copy: SiteState = { ...site, siteBucket: undefined, routeBuckets: [] };
      if (site.siteBucket !== undefined || site.routeBuckets.length > 0) {
        const limits: SiteLimits = {
          site: site.siteBucket === undefined ? undefined : newBucket(site.label, '*'),
          routes: longestFirst(site.routeBuckets.map(({ path }) => newBucket(site.label, path))),
        };
        for (const bucket of [...(limits.site === undefined ? [] : [limits.site]), ...limits.routes]) buckets.set(bucket.key, bucket);
        this.#limits.set(copy, limits);
      }
      copies.set(site, copy);
      return copy;
    });
    const ports = new Map(
      [...table.ports].map(([port, state]) => [
        port,
        {
          byHost: new Map([...state.byHost].map(([host, site]) => [host, copies.get(site)!])),
          anyHost: state.anyHost === undefined ? undefined : copies.get(state.anyHost),
        },
      ]),
    );
    this.#buckets = buckets;
    this.#generation++;
    return { config: table.config, sites, ports };
  };

  /**
   * The data plane's order: the site bucket first, then the longest matching route bucket (a request the
   * route bucket refuses has used its site share). 0 = allowed, else the seconds of Retry-After; a promise
   * when the primary must be asked.
   */
  decide(site: SiteState, path: string, client: string): number | Promise<number> {
    const limits = this.#limits.get(site);
    if (limits === undefined) return 0;
    const route = limits.routes.length === 0 ? undefined : findLongest(limits.routes, path);
    const now = Date.now();
    if (limits.site !== undefined) {
      const wait = this.#take(limits.site, client, now);
      if (wait === undefined) return this.#decideLater(limits.site, route, client, true);
      if (wait > 0) return this.#refused(limits.site, wait);
    }
    return this.#decideRoute(limits.site, route, client, now);
  }

  /** Gives back what is left of the client's share (the primary takes it back for another worker). */
  reclaim(key: string, client: string): number {
    const lease = this.#buckets.get(key)?.leases.get(client);
    if (lease === undefined) return 0;
    const left = lease.left;
    lease.left = 0;
    return left;
  }

  /** The counters of the current table's buckets. */
  counters(): RateLimitCounters {
    const counters: RateLimitCounters = {};
    for (const bucket of this.#buckets.values()) {
      const site = counters[bucket.label] ?? {};
      counters[bucket.label] = site;
      site[bucket.path] = { passed: bucket.passed, rejected: bucket.rejected };
    }
    return counters;
  }

  close(): void {
    clearInterval(this.#sweep);
  }

  #decideRoute(site: Bucket | undefined, route: Bucket | undefined, client: string, now: number): number | Promise<number> {
    if (route !== undefined) {
      const wait = this.#take(route, client, now);
      if (wait === undefined) return this.#decideLater(site, route, client, false);
      if (wait > 0) return this.#refused(route, wait);
      route.passed++;
    }
    if (site !== undefined) site.passed++;
    return 0;
  }

  async #decideLater(site: Bucket | undefined, route: Bucket | undefined, client: string, siteFirst: boolean): Promise<number> {
    if (siteFirst && site !== undefined) {
      const wait = await this.#takeAsking(site, client);
      if (wait > 0) return this.#refused(site, wait);
    }
    if (route !== undefined) {
      const wait = await this.#takeAsking(route, client);
      if (wait > 0) return this.#refused(route, wait);
      route.passed++;
    }
    if (site !== undefined) site.passed++;
    return 0;
  }

  #refused(bucket: Bucket, wait: number): number {
    bucket.rejected++;
    return wait;
  }

  /** From the client's share: 0 taken, > 0 the window is full (Retry-After), undefined: ask the primary. */
  #take(bucket: Bucket, client: string, now: number): number | undefined {
    const lease = bucket.leases.get(client);
    if (lease === undefined || now >= lease.end) return undefined;
    if (lease.left > 0) {
      lease.left--;
      return 0;
    }
    return lease.full ? retryAfter(lease.end, now) : undefined;
  }

  /** Takes from the share, asking the primary when it is spent. The request that asks gets the first
   * token of the answer (so every answer that lends lets a request through: no worker can take back
   * another's share forever); requests of the same client meanwhile wait for that answer, then try again. */
  async #takeAsking(bucket: Bucket, client: string): Promise<number> {
    for (;;) {
      const wait = this.#take(bucket, client, Date.now());
      if (wait !== undefined) return wait;
      const other = bucket.asking.get(client);
      if (other !== undefined) {
        await other;
        continue;
      }
      const asking = this.#lease(bucket, client);
      bucket.asking.set(client, asking);
      const granted = await asking.finally(() => bucket.asking.delete(client));
      if (granted !== 'full') return 0;
    }
  }

  async #lease(bucket: Bucket, client: string): Promise<Granted> {
    const answer = await this.#ask(bucket.key, client, this.#generation);
    if (answer.once) return 'once';
    const lease = bucket.leases.get(client);
    if (answer.tokens === 0) {
      bucket.leases.set(client, { end: answer.end, left: 0, full: true });
      return 'full';
    }
    // The first token is the asking request's.
    if (lease !== undefined && lease.end === answer.end && !lease.full) lease.left += answer.tokens - 1;
    else bucket.leases.set(client, { end: answer.end, left: answer.tokens - 1, full: false });
    return 'granted';
  }

  #forget(now: number): void {
    for (const bucket of this.#buckets.values()) {
      for (const [client, lease] of bucket.leases) if (now >= lease.end) bucket.leases.delete(client);
    }
  }
}

// ---------------------------------------------------------------- the primary's side

interface Window {
  end: number;
  granted: number;
  /** What each worker was lent in this window and has not given back (some of it used). */
  lent: Map<number, number>;
}

/** The primary's windows of the running config's buckets. */
export class LeaseBook {
  #generation = 0;
  #windows = new Map<string, Window>();
  /** Questions about one client's window are answered one after the other. */
  readonly #queues = new Map<string, Promise<unknown>>();
  readonly #sweep: NodeJS.Timeout;

  constructor() {
    this.#sweep = setInterval(() => {
      const now = Date.now();
      for (const [key, window] of this.#windows) if (now >= window.end) this.#windows.delete(key);
    }, SWEEP_MS).unref();
  }

  /** How many configs were applied since the start (a worker's questions carry the one it runs on). */
  get generation(): number {
    return this.#generation;
  }

  /** A reload: every window starts afresh. */
  reset(): void {
    this.#generation++;
    this.#windows = new Map();
  }

  close(): void {
    clearInterval(this.#sweep);
  }

  /**
   * A share of the client's window in the bucket for worker `worker` (one of `workers`): half of an even
   * split of what is left (at least 1); when nothing is left, what the other workers have not used is
   * taken back first (`reclaim` asks one of them and answers what it gave back, 0 when it is gone). A
   * question of a config already replaced lets its request pass (counted nowhere).
   */
  lease(
    table: () => SiteTable,
    ask: { worker: number; bucket: string; client: string; generation: number },
    workers: number,
    reclaim: (worker: number, bucket: string, client: string) => Promise<number>,
  ): Promise<LeaseAnswer> {
    const key = `${ask.bucket}\n${ask.client}`;
    const answer = (this.#queues.get(key) ?? Promise.resolve()).then(async (): Promise<LeaseAnswer> => {
      const rule = ask.generation === this.#generation ? ruleOf(table(), ask.bucket) : undefined;
      if (rule === undefined) return { tokens: 1, end: 0, once: true };
      let window = this.#windows.get(key);
      if (window === undefined || Date.now() >= window.end) {
        window = { end: Date.now() + rule.windowMs, granted: 0, lent: new Map() };
        this.#windows.set(key, window);
      }
      // The asking worker has used all it was lent (it asks because its share is spent).
      window.lent.delete(ask.worker);
      if (window.granted >= rule.requests && window.lent.size > 0) {
        const lent = [...window.lent];
        window.lent.clear();
        const back = await Promise.all(lent.map(([worker]) => reclaim(worker, ask.bucket, ask.client)));
        lent.forEach(([, n], i) => {
          window.granted -= Math.min(n, back[i]!);
        });
      }
      const left = rule.requests - window.granted;
      if (left <= 0) return { tokens: 0, end: window.end };
      const tokens = Math.max(1, Math.floor(left / (2 * workers)));
      window.granted += tokens;
      window.lent.set(ask.worker, tokens);
      return { tokens, end: window.end };
    });
    const tail = answer.catch(() => {});
    this.#queues.set(key, tail);
    void tail.then(() => {
      if (this.#queues.get(key) === tail) this.#queues.delete(key);
    });
    return answer;
  }
}

function ruleOf(table: SiteTable, key: string): RateLimitRule | undefined {
  const [label, path] = key.split('\n') as [string, string];
  const site = table.sites.find((s) => s.label === label);
  if (site === undefined) return undefined;
  if (path === '*') return site.siteBucket?.rule;
  return site.routeBuckets.find((bucket) => bucket.path === path)?.bucket.rule;
}

/** The gateway's counters: the config's buckets (zeros included), each the sum of the workers' counts. */
export function sumCounters(shape: RateLimitCounters, workers: readonly RateLimitCounters[]): RateLimitCounters {
  const sum: RateLimitCounters = {};
  for (const [label, buckets] of Object.entries(shape)) {
    sum[label] = {};
    for (const path of Object.keys(buckets)) {
      let passed = 0;
      let rejected = 0;
      for (const counters of workers) {
        passed += counters[label]?.[path]?.passed ?? 0;
        rejected += counters[label]?.[path]?.rejected ?? 0;
      }
      sum[label]![path] = { passed, rejected };
    }
  }
  return sum;
}
