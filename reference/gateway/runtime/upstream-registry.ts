// The upstreams of the running gateway: one Upstream per distinct normalised URL, in order of first
// appearance (config order: sites, routes, targets; runtime additions last) (catalog
// gateway/upstreams/entry-per-distinct-url). Stats live here, so a reload keeps those of URLs still routed
// to; URLs no route uses any more are dropped, with their probes and, when no URL uses it, their pool.
import { HealthChecker } from '../data-plane/health-checker.ts';
import type { SiteTable } from '../data-plane/site-table.ts';
import { Upstream } from '../data-plane/upstream.ts';
import { UpstreamPools } from '../data-plane/upstream-pools.ts';

export class UpstreamRegistry {
  readonly #byKey = new Map<string, Upstream>();
  readonly pools = new UpstreamPools();
  readonly health = new HealthChecker();

  /** The upstream of a URL, created (last in order) when new. */
  resolve = (url: string): Upstream => {
    const key = new URL(url).href;
    let upstream = this.#byKey.get(key);
    if (upstream === undefined) {
      upstream = new Upstream(url);
      upstream.pool = this.pools.get(upstream.origin);
      this.#byKey.set(key, upstream);
    }
    return upstream;
  };

  /** Upstreams in listing order (the map keeps insertion order). */
  list(): Upstream[] {
    return [...this.#byKey.values()];
  }

  /**
   * Makes the registry match the table: the order is the table's first appearances, then earlier runtime
   * additions still routed to; health-check and outlier settings come from the first site routing to each
   * URL that configures them; unused upstreams and pools go; probes follow.
   */
  sync(table: SiteTable, keepRuntimeOrder: boolean): void {
    const used = new Map<Upstream, true>();
    for (const upstream of this.#byKey.values()) {
      upstream.healthCheck = undefined;
      upstream.outlier = undefined;
    }
    for (const site of table.sites) {
      for (const route of site.routes) {
        for (const target of route.targets) {
          const upstream = target.upstream;
          used.set(upstream, true);
          upstream.healthCheck ??= site.config.healthCheck;
          upstream.outlier ??= site.config.outlierDetection;
        }
      }
    }
    const ordered = keepRuntimeOrder ? this.list().filter((u) => used.has(u)) : [...used.keys()];
    // Without health checks an upstream is healthy and unprobed (catalog gateway/upstream-state/healthy-flag-meaning).
    for (const upstream of ordered) if (upstream.healthCheck === undefined && upstream.probes > 0) upstream.resetProbes();
    this.#byKey.clear();
    for (const upstream of ordered) this.#byKey.set(upstream.key, upstream);
    this.pools.retain(new Set(ordered.map((u) => u.origin)));
    this.health.sync(ordered);
  }

  async close(): Promise<void> {
    this.health.stopAll();
    await this.pools.destroy();
  }
}
