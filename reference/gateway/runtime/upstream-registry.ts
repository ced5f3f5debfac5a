// The upstreams of the running gateway: one Upstream per distinct normalised URL, in order of first
// appearance (config order: sites, routes, targets; runtime additions last) (catalog
// gateway/upstreams/entry-per-distinct-url). Stats live here, so a reload keeps those of URLs still routed
// to; URLs no route uses any more are dropped, with their probes and, when no URL uses it, their pool.
// In a gateway of several workers, the primary's registry probes and reports each result (onProbe); the
// workers' registries do not probe and are given those results, and report each ejection they start or end
// (onOutlier) so that all eject together (runtime/cluster-*.ts).
import { HealthChecker } from '../data-plane/health-checker.ts';
import type { SiteTable } from '../data-plane/site-table.ts';
import { type Selection, Upstream } from '../data-plane/upstream.ts';
import { UpstreamPools } from '../data-plane/upstream-pools.ts';

export interface RegistryOptions {
  /** Run the active health checks here (default true). */
  probing?: boolean;
  /** Told each probe result once the upstream has recorded it. */
  onProbe?: (upstream: Upstream, ok: boolean, latencyMs: number | null) => void;
  /** Told when outlier detection ejects an upstream, or its half-open probe request ends the ejection. */
  onOutlier?: (upstream: Upstream) => void;
}

/** An upstream that reports its probe results and the changes of its ejection. */
class ReportingUpstream extends Upstream {
  constructor(
    url: string,
    readonly report: RegistryOptions,
  ) {
    super(url);
  }

  override recordProbe(ok: boolean, latencyMs: number | null): void {
    super.recordProbe(ok, latencyMs);
    this.report.onProbe?.(this, ok, latencyMs);
  }

  override recordResponse(selection: Selection, status: number): void {
    const before = this.ejectedUntil;
    super.recordResponse(selection, status);
    if (this.ejectedUntil !== before) this.report.onOutlier?.(this);
  }

  override recordConnectFailure(selection: Selection): void {
    const before = this.ejectedUntil;
    super.recordConnectFailure(selection);
    if (this.ejectedUntil !== before) this.report.onOutlier?.(this);
  }
}

export class UpstreamRegistry {
  readonly #byKey = new Map<string, Upstream>();
  readonly pools = new UpstreamPools();
  readonly health = new HealthChecker();
  readonly #probing: boolean;
  readonly #reports: RegistryOptions | undefined;

  constructor(options: RegistryOptions = {}) {
    this.#probing = options.probing ?? true;
    this.#reports = options.onProbe !== undefined || options.onOutlier !== undefined ? options : undefined;
  }

  /** The upstream of a URL, created (last in order) when new. */
  resolve = (url: string): Upstream => {
    const key = new URL(url).href;
    let upstream = this.#byKey.get(key);
    if (upstream === undefined) {
      upstream = this.#reports === undefined ? new Upstream(url) : new ReportingUpstream(url, this.#reports);
      upstream.pool = this.pools.get(upstream.origin);
      this.#byKey.set(key, upstream);
    }
    return upstream;
  };

  /** The upstream of a normalised URL, if routed to. */
  get(key: string): Upstream | undefined {
    return this.#byKey.get(key);
  }

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
    if (this.#probing) this.health.sync(ordered);
  }

  async close(): Promise<void> {
    this.health.stopAll();
    await this.pools.destroy();
  }
}
