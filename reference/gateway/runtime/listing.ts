// The read-only views of the running gateway: the status object, the upstream and route listing, and the
// rate-limit counters (catalog gateway/status/*, gateway/upstreams/list-shape, gateway/rate-limits/*).
import type { Traffic } from '../data-plane/proxy-exchange.ts';
import type { SiteTable } from '../data-plane/site-table.ts';
import type { Upstream } from '../data-plane/upstream.ts';
import type { RateLimitCounters, RouteEntry, StatusObject, UpstreamEntry } from './gateway-runtime.ts';

export function statusObject(table: SiteTable, upstreams: readonly Upstream[], traffic: Traffic): StatusObject {
  return {
    status: 'running',
    inflight: traffic.inflight,
    retry_inflight: traffic.retryInflight,
    sites: table.sites.length,
    configured_upstreams: upstreams.length,
    healthy_upstreams: upstreams.filter((u) => u.healthy).length,
    total_probed_upstreams: upstreams.filter((u) => u.probes > 0).length,
    config_path: table.config.path,
  };
}

export function upstreamListing(
  table: SiteTable,
  upstreams: readonly Upstream[],
  now: number,
): { upstreams: UpstreamEntry[]; routes: RouteEntry[] } {
  const routes = table.sites.flatMap((site) =>
    site.routes.map(
      (route): RouteEntry => ({
        site: site.label,
        path: route.path,
        strategy: route.strategy,
        targets: route.targets.map(({ url, weight, upstream }) => ({
          url,
          weight,
          healthy: upstream.healthy,
          latency_ms: upstream.latencyMs,
          consecutive_failures: upstream.consecutiveFailures,
          consecutive_successes: upstream.consecutiveSuccesses,
        })),
      }),
    ),
  );
  return { upstreams: upstreams.map((u) => u.entry(now)), routes };
}

/** Every configured bucket, from start (zeros until traffic); `{}` when nothing is rate-limited. */
export function rateLimitCounters(table: SiteTable): RateLimitCounters {
  const counters: RateLimitCounters = {};
  for (const site of table.sites) {
    if (site.siteBucket === undefined && site.routeBuckets.length === 0) continue;
    const buckets: RateLimitCounters[string] = counters[site.label] ?? {};
    counters[site.label] = buckets;
    if (site.siteBucket !== undefined) buckets['*'] = site.siteBucket.counters();
    for (const { path, bucket } of site.routeBuckets) buckets[path] = bucket.counters();
  }
  return counters;
}
