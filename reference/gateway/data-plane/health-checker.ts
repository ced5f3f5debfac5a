// Active health checks: each upstream with a healthCheck config is probed with GET <url><path> every
// intervalMs (the next probe is scheduled when the last one settles, so probes never pile up). A 2xx or
// 3xx answer within timeoutMs passes; the thresholds live in Upstream.recordProbe.
import type { HealthCheckConfig } from '../config/gateway-config.ts';
import type { Upstream } from './upstream.ts';

interface Schedule {
  config: HealthCheckConfig;
  timer: NodeJS.Timeout | undefined;
  stopped: boolean;
}

const sameConfig = (a: HealthCheckConfig, b: HealthCheckConfig): boolean =>
  a.path === b.path &&
  a.intervalMs === b.intervalMs &&
  a.timeoutMs === b.timeoutMs &&
  a.healthyThreshold === b.healthyThreshold &&
  a.unhealthyThreshold === b.unhealthyThreshold;

/** One probe: passed or not, and the time to the whole answer (null without one). */
export async function probe(
  upstream: Upstream,
  config: HealthCheckConfig,
): Promise<{ ok: boolean; latencyMs: number | null }> {
  const start = performance.now();
  try {
    const { status } = await upstream.pool.request('GET', upstream.basePath + config.path, config.timeoutMs);
    return { ok: status >= 200 && status < 400, latencyMs: performance.now() - start };
  } catch {
    return { ok: false, latencyMs: null };
  }
}

export class HealthChecker {
  readonly #schedules = new Map<Upstream, Schedule>();

  /** Probes exactly the upstreams given that have a healthCheck config (now theirs), stops the others. */
  sync(upstreams: Iterable<Upstream>): void {
    const wanted = new Set<Upstream>();
    for (const upstream of upstreams) {
      const config = upstream.healthCheck;
      if (config === undefined) continue;
      wanted.add(upstream);
      const current = this.#schedules.get(upstream);
      if (current !== undefined && sameConfig(current.config, config)) continue;
      if (current !== undefined) this.#stop(upstream, current);
      this.#start(upstream, config);
    }
    for (const [upstream, schedule] of this.#schedules) if (!wanted.has(upstream)) this.#stop(upstream, schedule);
  }

  stopAll(): void {
    for (const [upstream, schedule] of this.#schedules) this.#stop(upstream, schedule);
  }

  #start(upstream: Upstream, config: HealthCheckConfig): void {
    const schedule: Schedule = { config, timer: undefined, stopped: false };
    const run = (): void => {
      probe(upstream, config).then(({ ok, latencyMs }) => {
        // A probe that settles after its schedule ended (reload, removal, shutdown) counts for nothing.
        if (schedule.stopped) return;
        upstream.recordProbe(ok, latencyMs);
        schedule.timer = setTimeout(run, config.intervalMs).unref();
      });
    };
    schedule.timer = setTimeout(run, 0).unref();
    this.#schedules.set(upstream, schedule);
  }

  #stop(upstream: Upstream, schedule: Schedule): void {
    schedule.stopped = true;
    clearTimeout(schedule.timer);
    this.#schedules.delete(upstream);
  }
}
