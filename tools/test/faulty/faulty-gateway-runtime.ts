// The faulty gateway's GatewayRuntime: a decorator around the reference's running gateway (createGateway's
// result) that the admin server is given instead. Each fault of the runtime changes what one operation does
// or what one field of an answer says; everything else is the reference's.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Server } from 'node:http';
import { dirname } from 'node:path';
import { Server as TlsServer } from 'node:tls';
import type { GatewayConfig } from '../../../reference/gateway/config/gateway-config.ts';
import type { Gateway } from '../../../reference/gateway/runtime/create-gateway.ts';
import {
  GatewayError,
  type GatewayRuntime,
  type RateLimitCounters,
  type RouteEntry,
  type StatusObject,
  type TargetChange,
  type UpstreamEntry,
} from '../../../reference/gateway/runtime/gateway-runtime.ts';
import { faultsOf, type GatewayFault } from './faulty-gateway-faults.ts';

const faults = faultsOf(process.env);
const on = (f: GatewayFault): boolean => faults.has(f);

type Weighted = TargetChange & { weight: number };
type Op = { kind: 'add'; change: Weighted } | { kind: 'remove'; change: TargetChange } | { kind: 'weight'; change: Weighted };
type Json = Record<string, unknown>;

/** What the runtime reads of the faulty gateway around it. */
export interface RuntimeContext {
  /** The config the gateway runs on now. */
  config(): GatewayConfig;
  /** Called once a reload has been applied. */
  reloaded(): void;
  /** The public listeners. */
  servers: Server[];
  /** The data plane's last client address and the GET URLs (path and query) it forwarded. */
  traffic: { lastClient: string | undefined; urls: Set<string> };
}

/** Where `denies-persisted` keeps the runtime denies: the gateway's working folder. */
const DENY_FILE = '.faulty-denies.json';
/** Where `counters-persisted` keeps the rate-limit counters: the gateway's working folder. */
const COUNTER_FILE = '.faulty-counters.json';
/** How often `counters-persisted` saves them (a restart ends the process with SIGTERM, no save at exit). */
const COUNTER_SAVE_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const sameTarget = (a: string, b: string): boolean => URL.canParse(a) && URL.canParse(b) && new URL(a).href === new URL(b).href;
const onSite = (site: string | undefined, label: string): boolean => site === undefined || site === '*' || site.toLowerCase() === label;

export class FaultyRuntime implements GatewayRuntime {
  readonly #inner: Gateway;
  readonly #ctx: RuntimeContext;
  /** Runtime denies as they were sent. */
  readonly #denies = new Set<string>();
  /** Runtime changes since the last reload, in order. */
  #ops: Op[] = [];
  /** Targets added at the runtime but kept out of the data plane (`added-not-balanced`). */
  #shadowAdds: Weighted[] = [];
  /** Weights listed but not applied (`weight-ignored-wrr`): `route target` -> weight. */
  #shadowWeights = new Map<string, number>();
  /** Counters carried over reloads (`reload-keeps-counters`) or restarts (`counters-persisted`). */
  #counterBase: RateLimitCounters = {};
  /** Upstreams seen half-open (`half-open-sticks`). */
  readonly #halfOpen = new Set<string>();

  constructor(inner: Gateway, ctx: RuntimeContext) {
    this.#inner = inner;
    this.#ctx = ctx;
    if (on('denies-persisted') && existsSync(DENY_FILE)) {
      for (const cidr of JSON.parse(readFileSync(DENY_FILE, 'utf8')) as string[]) this.denyAdd(cidr);
    }
    if (on('counters-persisted')) {
      if (existsSync(COUNTER_FILE)) this.#counterBase = JSON.parse(readFileSync(COUNTER_FILE, 'utf8')) as RateLimitCounters;
      setInterval(() => this.rateLimits(), COUNTER_SAVE_MS).unref();
    }
  }

  hasDeny(cidr: string): boolean {
    return this.#denies.has(cidr.trim());
  }

  denyList(): string[] {
    return [...this.#denies];
  }

  clearDenies(): void {
    for (const cidr of this.#denies) this.#inner.denyRemove(cidr);
    this.#denies.clear();
  }

  // ---------------------------------------------------------------- GET /status

  status(): StatusObject {
    const s = { ...this.#inner.status() } as Json;
    const config = this.#ctx.config();
    const entries = () => this.#inner.upstreams().upstreams;
    if (on('status-ok')) s.status = 'ok';
    if (on('inflight-zero')) s.inflight = 0;
    if (on('retry-inflight-zero')) s.retry_inflight = 0;
    if (on('sites-hosted-only')) s.sites = config.sites.filter((site) => site.host !== undefined).length;
    if (on('healthy-upstreams-all')) s.healthy_upstreams = s.configured_upstreams;
    if (on('configured-upstreams-counts-routes')) s.configured_upstreams = config.sites.flatMap((site) => site.routes).length;
    if (on('total-probed-healthy-only')) s.total_probed_upstreams = entries().filter((e) => e.healthy && e.latency_ms !== null).length;
    if (on('config-path-dir')) s.config_path = dirname(String(s.config_path));
    if (on('status-lacks-sites')) delete s.sites;
    return s as unknown as StatusObject;
  }

  // ---------------------------------------------------------------- GET /upstreams

  upstreams(): { upstreams: UpstreamEntry[]; routes: RouteEntry[] } {
    const listing = clone(this.#inner.upstreams());
    for (const add of this.#shadowAdds) {
      for (const route of listing.routes.filter((r) => r.path === add.route && onSite(add.site, r.site))) {
        route.targets.push({ url: add.target, weight: add.weight, healthy: true, latency_ms: null, consecutive_failures: 0, consecutive_successes: 0 });
      }
    }
    for (const route of listing.routes) {
      for (const target of route.targets) {
        const shadow = this.#shadowWeights.get(`${route.path} ${new URL(target.url).href}`);
        if (shadow !== undefined) target.weight = shadow;
      }
      if (on('targets-config-only')) {
        const added = this.#ops.filter((op) => op.kind === 'add' && op.change.route === route.path).map((op) => op.change.target);
        route.targets = route.targets.filter((target) => !added.some((url) => sameTarget(url, target.url)));
      }
    }
    const upstreams = listing.upstreams.map((e) => this.#entry(e as unknown as Json));
    const routes = listing.routes.map((r) => routeFaults(r as unknown as Json));
    return (on('routes-key-renamed') ? { upstreams, route_entries: routes } : { upstreams, routes }) as unknown as { upstreams: UpstreamEntry[]; routes: RouteEntry[] };
  }

  #entry(e: Json): UpstreamEntry {
    const selected = e.selected as { total: number; last_secs: number };
    const responses = e.responses as Record<string, number>;
    const url = String(e.url);
    if (e.state === 'half-open') this.#halfOpen.add(url);
    if (on('state-unknown-when-unused') && e.state === 'healthy' && selected.total === 0 && e.latency_ms === null) e.state = 'unknown';
    if (on('served-shown-busy') && e.state === 'healthy' && selected.total > 0) e.state = 'busy';
    if (on('busy-shown-healthy') && e.state === 'busy') e.state = 'healthy';
    if (on('unhealthy-shown-half-open') && e.state === 'unhealthy') e.state = 'half-open';
    if (on('half-open-sticks') && e.state === 'healthy' && this.#halfOpen.has(url)) e.state = 'half-open';
    if (on('ejected-never-half-open') && e.state === 'half-open') {
      e.state = 'ejected';
      e.ejected = true;
    }
    if (on('ejected-flag-false') && e.state === 'ejected') e.ejected = false;
    if (on('ejected-null') && e.ejected === false) e.ejected = null;
    if (on('entry-url-host-only')) e.url = url.replace(/^https?:\/\//, '');
    if (on('healthy-as-string')) e.healthy = String(e.healthy);
    if (on('latency-fractional') && typeof e.latency_ms === 'number') e.latency_ms += 0.25;
    if (on('ewma-from-probes-only')) e.ewma_latency_ms = e.latency_ms ?? 0;
    if (on('failures-capped-1')) e.consecutive_failures = Math.min(Number(e.consecutive_failures), 1);
    if (on('successes-capped-1')) e.consecutive_successes = Math.min(Number(e.consecutive_successes), 1);
    if (on('5xx-never-reset')) e.consecutive_5xx = responses['5xx'];
    if (on('active-connections-zero')) e.active_connections = 0;
    if (on('responses-4xx-in-5xx')) e.responses = { ...responses, '4xx': 0, '5xx': (responses['5xx'] ?? 0) + (responses['4xx'] ?? 0) };
    if (on('selected-counts-twice')) e.selected = { ...selected, total: selected.total * 2 };
    if (on('last-secs-millis')) e.selected = { ...(e.selected as Json), last_secs: selected.last_secs * 1000 };
    if (on('no-v1-1-fields')) delete e.consecutive_5xx;
    return e as unknown as UpstreamEntry;
  }

  // ---------------------------------------------------------------- runtime upstream changes

  addTarget(change: Weighted): void {
    if (on('add-no-site-first-site-only') && (change.site === undefined || change.site === '*')) {
      const first = this.#inner.upstreams().routes.find((r) => r.path === change.route);
      if (first !== undefined) change = { ...change, site: first.site };
    }
    if (on('added-not-balanced')) {
      this.#shadowAdds.push(change);
      return;
    }
    this.#inner.addTarget(change);
    this.#ops.push({ kind: 'add', change });
    if (on('changes-written-to-file')) appendFileSync(this.#ctx.config().path, `# added at runtime: ${change.target} on ${change.route}\n`);
  }

  removeTarget(change: TargetChange): boolean {
    const removed = this.#inner.removeTarget(change);
    this.#ops.push({ kind: 'remove', change });
    return on('remove-absent-true') ? true : removed;
  }

  setWeight(change: Weighted): void {
    const route = this.#inner.upstreams().routes.find((r) => r.path === change.route && onSite(change.site, r.site));
    if (on('weight-ignored-wrr') && route?.strategy === 'weighted-round-robin' && route.targets.some((t) => sameTarget(t.url, change.target))) {
      this.#shadowWeights.set(`${change.route} ${new URL(change.target).href}`, change.weight);
      return;
    }
    this.#inner.setWeight(change);
    this.#ops.push({ kind: 'weight', change });
  }

  // ---------------------------------------------------------------- POST /reload

  async reload(): Promise<{ warnings: string[] }> {
    if (on('reload-not-applied')) return { warnings: [] };
    const counters = this.rateLimits();
    const result = await this.#inner.reload();
    this.#ctx.reloaded();
    const ops = this.#ops;
    this.#ops = [];
    this.#shadowAdds = [];
    this.#shadowWeights.clear();
    if (on('reload-keeps-overrides')) for (const op of ops) this.#replay(op);
    if (on('reload-clears-denies')) this.clearDenies();
    this.#counterBase = on('reload-keeps-counters') ? (counters as RateLimitCounters) : {};
    if (on('reload-activates-certs')) this.#activate(this.#ctx.config());
    return result;
  }

  #replay(op: Op): void {
    try {
      if (op.kind === 'add') this.addTarget(op.change);
      else if (op.kind === 'remove') this.removeTarget(op.change);
      else this.setWeight(op.change);
    } catch {
      // a change the reloaded config no longer allows
    }
  }

  // ---------------------------------------------------------------- DELETE /cache/purge

  purge(url: string): boolean {
    const cached = this.#ctx.config().sites.some((site) => site.cache !== undefined);
    if (!cached) return this.#inner.purge(url);
    if (on('purge-port-kept') && URL.canParse(url) && new URL(url).port !== '') return false;
    if (on('purge-answers-only')) return true;
    const purged = this.#inner.purge(url);
    if (on('purge-all-queries') && URL.canParse(url)) {
      const target = new URL(url);
      for (const seen of this.#ctx.traffic.urls) {
        if (new URL(seen, target.origin).pathname === target.pathname) this.#inner.purge(new URL(seen, target.origin).href);
      }
    }
    return on('purge-reports-false') ? false : purged;
  }

  // ---------------------------------------------------------------- GET /rate-limits

  rateLimits(): RateLimitCounters {
    const counters = clone(this.#inner.rateLimits());
    for (const [label, buckets] of Object.entries(counters)) {
      for (const [route, bucket] of Object.entries(buckets)) {
        const base = this.#counterBase[label]?.[route];
        if (base) buckets[route] = { passed: bucket.passed + base.passed, rejected: bucket.rejected + base.rejected };
      }
    }
    if (on('counters-persisted')) writeFileSync(COUNTER_FILE, JSON.stringify(counters));
    for (const buckets of Object.values(counters)) {
      for (const [route, b] of Object.entries(buckets)) {
        if (on('rejected-counted-as-passed')) b.passed += b.rejected;
        if (on('counters-capped-7')) buckets[route] = { passed: Math.min(b.passed, 7), rejected: Math.min(b.rejected, 7) };
      }
      if (on('site-bucket-hidden')) delete buckets['*'];
      if (on('site-bucket-shows-last-client') && buckets['*']) (buckets['*'] as Json).last_client = this.#ctx.traffic.lastClient;
      if (on('consumer-bucket-listed')) buckets['consumer:anonymous'] = { passed: 0, rejected: 0 };
    }
    if (on('consumer-bucket-listed')) {
      for (const site of this.#ctx.config().sites) {
        for (const consumer of site.auth?.consumers ?? []) {
          if (consumer.rateLimit === undefined) continue;
          counters[site.label] = { ...counters[site.label], [`consumer:${consumer.name}`]: { passed: 0, rejected: 0 } };
        }
      }
    }
    if (on('rate-limits-keyed-by-port')) {
      return Object.fromEntries(Object.entries(counters).map(([label, buckets]) => [label.slice(label.lastIndexOf(':') + 1), buckets]));
    }
    if (on('rate-limits-array')) {
      return Object.entries(counters).flatMap(([site, buckets]) => Object.entries(buckets).map(([route, b]) => ({ site, route, ...b }))) as unknown as RateLimitCounters;
    }
    return counters;
  }

  // ---------------------------------------------------------------- POST and DELETE /ip-deny

  denyAdd(cidr: string): void {
    const block = cidr;
    if (on('single-ip-next-too') && /^\s*\d+\.\d+\.\d+\.\d+\s*$/.test(cidr)) {
      const parts = cidr.trim().split('.').map(Number);
      this.#inner.denyAdd([...parts.slice(0, 3), Math.min(parts[3]! + 1, 255)].join('.'));
    }
    if (on('deny-delayed')) {
      // Checked now (an invalid value is still refused), applied later.
      this.#inner.denyAdd(block);
      this.#inner.denyRemove(block);
      setTimeout(() => this.#inner.denyAdd(block), 1500).unref();
    } else this.#inner.denyAdd(block);
    this.#denies.add(cidr.trim());
    if (on('denies-persisted')) writeFileSync(DENY_FILE, JSON.stringify([...this.#denies]));
  }

  denyRemove(cidr: string): void {
    this.#inner.denyRemove(cidr);
    this.#denies.delete(cidr.trim());
    if (on('denies-persisted')) writeFileSync(DENY_FILE, JSON.stringify([...this.#denies]));
  }

  // ---------------------------------------------------------------- POST /certs/reload

  async certsReload(cert: string, key: string): Promise<{ certPath: string; keyPath: string }> {
    const tls = this.#ctx.config().sites.find((site) => site.tls !== undefined)?.tls;
    let written: { certPath: string; keyPath: string };
    try {
      written = await this.#inner.certsReload(cert, key);
    } catch (error) {
      if (on('certs-written-before-check') && tls !== undefined && error instanceof GatewayError && error.code === 'bad-request') {
        writeFileSync(tls.cert, cert);
        writeFileSync(tls.key, key);
      }
      throw error;
    }
    if (on('certs-written-in-place')) {
      await inPieces(written.certPath, cert);
      await inPieces(written.keyPath, key);
    }
    if (on('certs-hot-swapped')) this.#serve(cert, key);
    return written;
  }

  /** Serves the certificate files of the first TLS site of `config` on every TLS listener. */
  #activate(config: GatewayConfig): void {
    const tls = config.sites.find((site) => site.tls !== undefined)?.tls;
    if (tls !== undefined) this.#serve(readFileSync(tls.cert, 'utf8'), readFileSync(tls.key, 'utf8'));
  }

  #serve(cert: string, key: string): void {
    for (const server of this.#ctx.servers) if (server instanceof TlsServer) server.setSecureContext({ cert, key });
  }

  shutdown(): Promise<void> {
    return this.#inner.shutdown();
  }
}

/** Rewrites `path` in place: truncated, half written, a pause long enough for a reader on a loaded machine, the rest. */
async function inPieces(path: string, text: string): Promise<void> {
  const file = await open(path, 'w');
  try {
    const half = Math.floor(text.length / 2);
    await file.write(text.slice(0, half));
    // Long enough that a reader starved by a loaded machine still gets a turn while the file is half written.
    await sleep(1500);
    await file.write(text.slice(half));
  } finally {
    await file.close();
  }
}

function routeFaults(r: Json): RouteEntry {
  const targets = r.targets as Json[];
  if (on('route-site-port-only')) r.site = `*:${String(r.site).slice(String(r.site).lastIndexOf(':') + 1)}`;
  if (on('route-path-trailing-slash')) r.path = `${r.path}/`;
  if (on('strategy-default-shown')) r.strategy = 'round-robin';
  for (const t of targets) {
    if (on('target-url-object')) t.url = { href: t.url };
    if (on('target-weight-string')) t.weight = String(t.weight);
    if (on('target-healthy-string')) t.healthy = String(t.healthy);
    if (on('target-latency-text') && t.latency_ms === null) t.latency_ms = 'n/a';
    if (on('target-failures-missing')) delete t.consecutive_failures;
    if (on('target-successes-null')) t.consecutive_successes = null;
  }
  return r as unknown as RouteEntry;
}
