// The state of one upstream URL: probe results (active health checks), outlier detection (passive, from
// traffic), traffic counters and the reported state (catalog gateway/upstream-state/*). One object per
// distinct normalised URL, shared by every route that lists it.
import type { UpstreamPool } from '../../shared/upstream-client/upstream-pool.ts';
import type { HealthCheckConfig, OutlierDetectionConfig } from '../config/gateway-config.ts';
import type { UpstreamEntry, UpstreamState } from '../runtime/gateway-runtime.ts';

/** Weight of the newest sample in ewma_latency_ms. */
const EWMA_ALPHA = 0.3;

/** The WHATWG form used to compare URLs: scheme and host lower-cased, default port dropped, empty path `/`. */
export function normalizeUrl(url: string): string {
  return new URL(url).href;
}

/** One pick of this upstream by a balancer; `probe` is true for the half-open trial request. */
export interface Selection {
  upstream: Upstream;
  probe: boolean;
}

export class Upstream {
  readonly url: string;
  readonly key: string;
  readonly origin: string;
  /** The target's `host[:port]`: the Host header of a site that does not keep the client's. */
  readonly host: string;
  /** Path of the target URL without its trailing `/` ('' for the root), put before the request path. */
  readonly basePath: string;
  /** Assigned by the registry: the keep-alive pool of the URL's origin. */
  pool!: UpstreamPool;
  /** From the first site (config order) routing to this URL that configures them. */
  healthCheck: HealthCheckConfig | undefined;
  outlier: OutlierDetectionConfig | undefined;

  healthy = true;
  latencyMs: number | null = null;
  consecutiveFailures = 0;
  consecutiveSuccesses = 0;
  probes = 0;
  ewma = 0;
  consecutive5xx = 0;
  active = 0;
  readonly responses = { '2xx': 0, '4xx': 0, '5xx': 0 };
  selectedTotal = 0;
  selectedLastSecs = 0;
  /** 0 = not ejected; else the time (ms) the ejection ends and the upstream turns half-open. */
  ejectedUntil = 0;
  /** Length of the current (or last) ejection, doubled on each failed half-open probe. */
  ejectionMs = 0;
  /** A half-open probe request is on its way: nothing else is sent until it settles. */
  probing = false;
  #hasEwma = false;

  constructor(url: string) {
    const parsed = new URL(url);
    this.url = url;
    this.key = parsed.href;
    this.origin = parsed.origin;
    this.host = parsed.host;
    this.basePath = parsed.pathname === '/' ? '' : parsed.pathname.replace(/\/$/, '');
  }

  state(now: number): UpstreamState {
    if (this.ejectedUntil !== 0) return now < this.ejectedUntil ? 'ejected' : 'half-open';
    if (!this.healthy) return 'unhealthy';
    return this.active > 0 ? 'busy' : 'healthy';
  }

  /** May a balancer pick it now? Unhealthy and ejected upstreams are skipped; half-open takes one probe. */
  usable(now: number): boolean {
    if (!this.healthy) return false;
    if (this.ejectedUntil === 0) return true;
    return now >= this.ejectedUntil && !this.probing;
  }

  select(now: number): Selection {
    this.selectedTotal++;
    this.selectedLastSecs = Math.floor(now / 1000);
    const probe = this.ejectedUntil !== 0 && now >= this.ejectedUntil;
    if (probe) this.probing = true;
    return { upstream: this, probe };
  }

  recordLatency(ms: number): void {
    this.ewma = this.#hasEwma ? this.ewma + EWMA_ALPHA * (ms - this.ewma) : ms;
    this.#hasEwma = true;
  }

  /** An upstream answer to proxied traffic (final status, not 1xx). */
  recordResponse(selection: Selection, status: number): void {
    if (status >= 200 && status < 300) this.responses['2xx']++;
    else if (status >= 400 && status < 500) this.responses['4xx']++;
    else if (status >= 500) this.responses['5xx']++;
    if (status >= 500) this.#failure(selection);
    else this.#success(selection);
  }

  /** No answer at all (refused, reset, timed out): counted like a 5xx for outlier detection only. */
  recordConnectFailure(selection: Selection): void {
    this.#failure(selection);
  }

  /** The request ended before its outcome was known (client gone): a half-open probe is released. */
  release(selection: Selection): void {
    if (selection.probe) this.probing = false;
  }

  recordProbe(ok: boolean, latencyMs: number | null): void {
    this.probes++;
    if (latencyMs !== null) {
      this.latencyMs = Math.round(latencyMs);
      this.recordLatency(latencyMs);
    }
    const hc = this.healthCheck;
    if (ok) {
      this.consecutiveSuccesses++;
      this.consecutiveFailures = 0;
      if (!this.healthy && (hc === undefined || this.consecutiveSuccesses >= hc.healthyThreshold)) this.healthy = true;
    } else {
      this.consecutiveFailures++;
      this.consecutiveSuccesses = 0;
      if (this.healthy && (hc === undefined || this.consecutiveFailures >= hc.unhealthyThreshold)) this.healthy = false;
    }
  }

  /** Back to "never probed" (its site no longer configures health checks): healthy, no latency. */
  resetProbes(): void {
    this.healthy = true;
    this.latencyMs = null;
    this.consecutiveFailures = 0;
    this.consecutiveSuccesses = 0;
    this.probes = 0;
  }

  #success(selection: Selection): void {
    this.consecutive5xx = 0;
    if (selection.probe) {
      this.probing = false;
      this.ejectedUntil = 0;
      this.ejectionMs = 0;
    }
  }

  #failure(selection: Selection): void {
    this.consecutive5xx++;
    const od = this.outlier;
    if (selection.probe) {
      this.probing = false;
      // Back to ejected with twice the backoff, bounded (catalog gateway/upstream-state/other-transitions).
      const next = od === undefined ? this.ejectionMs * 2 : Math.min(this.ejectionMs * 2, od.maxEjectionMs);
      this.#eject(next);
      return;
    }
    if (od !== undefined && this.ejectedUntil === 0 && this.consecutive5xx >= od.consecutive5xx) {
      this.#eject(Math.min(od.baseEjectionMs, od.maxEjectionMs));
    }
  }

  #eject(ms: number): void {
    this.ejectionMs = ms;
    this.ejectedUntil = Date.now() + ms;
  }

  entry(now: number): UpstreamEntry {
    const state = this.state(now);
    return {
      url: this.url,
      healthy: this.healthy,
      state,
      latency_ms: this.latencyMs,
      ewma_latency_ms: Math.round(this.ewma * 100) / 100,
      consecutive_failures: this.consecutiveFailures,
      consecutive_successes: this.consecutiveSuccesses,
      consecutive_5xx: this.consecutive5xx,
      active_connections: this.active,
      ejected: state === 'ejected',
      responses: { ...this.responses },
      selected: { total: this.selectedTotal, last_secs: this.selectedLastSecs },
    };
  }
}
