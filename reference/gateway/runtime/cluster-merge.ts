// The read endpoints of a gateway of several workers: the primary's own view (config, routes, probe
// results: it runs the health checks) merged with what each worker counted (traffic, balancer picks,
// responses, passive outlier detection). Rules (README.md, "Workers"):
// - inflight, retry_inflight, active_connections, responses and selected.total are sums; last_secs the latest;
// - healthy, latency_ms and the probe streaks are the primary's (every worker applies the same results);
// - consecutive_5xx is the longest streak of any worker (each worker sees the answers it forwarded);
// - ewma_latency_ms is the workers' mean weighted by the requests each sent the upstream (plain mean without);
// - state follows the catalog's precedence (gateway/upstream-state/precedence) over the workers: ejected when
//   any worker ejects it, else half-open when any worker has it half-open, else unhealthy when failing its
//   health checks, else busy when any request is in flight to it, else healthy; `ejected` is state = ejected.
import type { Traffic } from '../data-plane/proxy-exchange.ts';
import { renderMetrics } from '../data-plane/metrics.ts';
import { Upstream } from '../data-plane/upstream.ts';
import type { WorkerSnapshot } from './cluster-protocol.ts';
import type { RouteEntry, StatusObject, UpstreamEntry, UpstreamState } from './gateway-runtime.ts';

export interface Listing {
  upstreams: UpstreamEntry[];
  routes: RouteEntry[];
}

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

export function mergeTraffic(snapshots: readonly WorkerSnapshot[]): Traffic {
  return {
    inflight: sum(snapshots.map((s) => s.traffic.inflight)),
    retryInflight: sum(snapshots.map((s) => s.traffic.retryInflight)),
  };
}

export function mergeStatus(primary: StatusObject, snapshots: readonly WorkerSnapshot[]): StatusObject {
  const traffic = mergeTraffic(snapshots);
  return { ...primary, inflight: traffic.inflight, retry_inflight: traffic.retryInflight };
}

function mergedState(primary: UpstreamEntry, workers: readonly UpstreamEntry[], active: number): UpstreamState {
  if (workers.some((w) => w.state === 'ejected')) return 'ejected';
  if (workers.some((w) => w.state === 'half-open')) return 'half-open';
  if (!primary.healthy) return 'unhealthy';
  return active > 0 ? 'busy' : 'healthy';
}

function mergedEwma(primary: UpstreamEntry, workers: readonly UpstreamEntry[]): number {
  if (workers.length === 0) return primary.ewma_latency_ms;
  const picks = sum(workers.map((w) => w.selected.total));
  const value =
    picks === 0
      ? sum(workers.map((w) => w.ewma_latency_ms)) / workers.length
      : sum(workers.map((w) => w.ewma_latency_ms * w.selected.total)) / picks;
  return Math.round(value * 100) / 100;
}

export function mergeEntry(primary: UpstreamEntry, workers: readonly UpstreamEntry[]): UpstreamEntry {
  const active = sum(workers.map((w) => w.active_connections));
  const state = mergedState(primary, workers, active);
  return {
    url: primary.url,
    healthy: primary.healthy,
    state,
    latency_ms: primary.latency_ms,
    ewma_latency_ms: mergedEwma(primary, workers),
    consecutive_failures: primary.consecutive_failures,
    consecutive_successes: primary.consecutive_successes,
    consecutive_5xx: Math.max(0, ...workers.map((w) => w.consecutive_5xx)),
    active_connections: active,
    ejected: state === 'ejected',
    responses: {
      '2xx': sum(workers.map((w) => w.responses['2xx'])),
      '4xx': sum(workers.map((w) => w.responses['4xx'])),
      '5xx': sum(workers.map((w) => w.responses['5xx'])),
    },
    selected: {
      total: sum(workers.map((w) => w.selected.total)),
      last_secs: Math.max(0, ...workers.map((w) => w.selected.last_secs)),
    },
  };
}

const keyOf = (url: string): string => new URL(url).href;

/** The primary's listing (its order, routes and probe results) with the workers' counters merged in. */
export function mergeListing(primary: Listing, snapshots: readonly WorkerSnapshot[]): Listing {
  const byKey = new Map<string, UpstreamEntry[]>();
  for (const snapshot of snapshots) {
    for (const entry of snapshot.upstreams) {
      const key = keyOf(entry.url);
      const entries = byKey.get(key);
      if (entries === undefined) byKey.set(key, [entry]);
      else entries.push(entry);
    }
  }
  return {
    upstreams: primary.upstreams.map((entry) => mergeEntry(entry, byKey.get(keyOf(entry.url)) ?? [])),
    routes: primary.routes,
  };
}

/** An upstream holding a merged entry's numbers, for the data plane's metrics renderer. */
function upstreamOf(entry: UpstreamEntry): Upstream {
  const upstream = new Upstream(entry.url);
  upstream.healthy = entry.healthy;
  upstream.active = entry.active_connections;
  upstream.selectedTotal = entry.selected.total;
  upstream.ewma = entry.ewma_latency_ms;
  Object.assign(upstream.responses, entry.responses);
  // What state() reads: ejected until later, or an ejection already over (half-open).
  upstream.ejectedUntil = entry.state === 'ejected' ? Number.POSITIVE_INFINITY : entry.state === 'half-open' ? 1 : 0;
  return upstream;
}

/** The metrics body of the whole gateway (the same format as one process's). */
export function mergedMetrics(primary: Listing, snapshots: readonly WorkerSnapshot[], now: number): string {
  const merged = mergeListing(primary, snapshots);
  return renderMetrics(merged.upstreams.map(upstreamOf), mergeTraffic(snapshots), now);
}
