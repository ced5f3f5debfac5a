// The balancing strategies (catalog gateway/routes/strategy-set). A balancer is built once per route and
// target list; `pick` skips upstreams that are not usable (unhealthy, ejected, half-open with its probe
// under way) and those already tried by the request. Weights count for weighted-round-robin only
// (gateway/upstreams/weight-wrr-only).
import type { Strategy } from '../config/gateway-config.ts';
import type { Upstream } from './upstream.ts';

export interface RouteTarget {
  url: string;
  weight: number;
  upstream: Upstream;
}

export interface Balancer {
  pick(now: number, tried: readonly Upstream[] | undefined): RouteTarget | undefined;
}

const eligible = (target: RouteTarget, now: number, tried: readonly Upstream[] | undefined): boolean =>
  target.upstream.usable(now) && (tried === undefined || !tried.includes(target.upstream));

class RoundRobin implements Balancer {
  #next = 0;
  constructor(readonly targets: readonly RouteTarget[]) {}
  pick(now: number, tried: readonly Upstream[] | undefined): RouteTarget | undefined {
    const n = this.targets.length;
    for (let i = 0; i < n; i++) {
      const index = (this.#next + i) % n;
      const target = this.targets[index]!;
      if (eligible(target, now, tried)) {
        this.#next = (index + 1) % n;
        return target;
      }
    }
    return undefined;
  }
}

/** Smooth weighted round-robin (as nginx): spreads the picks of a heavy target between the others. */
class WeightedRoundRobin implements Balancer {
  readonly #current: number[];
  constructor(readonly targets: readonly RouteTarget[]) {
    this.#current = targets.map(() => 0);
  }
  pick(now: number, tried: readonly Upstream[] | undefined): RouteTarget | undefined {
    let best = -1;
    let total = 0;
    for (let i = 0; i < this.targets.length; i++) {
      const target = this.targets[i]!;
      if (!eligible(target, now, tried)) continue;
      this.#current[i]! += target.weight;
      total += target.weight;
      if (best < 0 || this.#current[i]! > this.#current[best]!) best = i;
    }
    if (best < 0) return undefined;
    this.#current[best]! -= total;
    return this.targets[best];
  }
}

/** Fewest in-flight requests; ties go round-robin so equal loads spread. */
class LeastConn implements Balancer {
  #next = 0;
  constructor(readonly targets: readonly RouteTarget[]) {}
  pick(now: number, tried: readonly Upstream[] | undefined): RouteTarget | undefined {
    const n = this.targets.length;
    let best: RouteTarget | undefined;
    let bestIndex = 0;
    for (let i = 0; i < n; i++) {
      const index = (this.#next + i) % n;
      const target = this.targets[index]!;
      if (!eligible(target, now, tried)) continue;
      if (best === undefined || target.upstream.active < best.upstream.active) {
        best = target;
        bestIndex = index;
      }
    }
    if (best !== undefined) this.#next = (bestIndex + 1) % n;
    return best;
  }
}

class Random implements Balancer {
  constructor(readonly targets: readonly RouteTarget[]) {}
  pick(now: number, tried: readonly Upstream[] | undefined): RouteTarget | undefined {
    const candidates = this.targets.filter((target) => eligible(target, now, tried));
    return candidates[Math.floor(Math.random() * candidates.length)];
  }
}

export function createBalancer(strategy: Strategy, targets: readonly RouteTarget[]): Balancer {
  switch (strategy) {
    case 'round-robin':
      return new RoundRobin(targets);
    case 'weighted-round-robin':
      return new WeightedRoundRobin(targets);
    case 'least-conn':
      return new LeastConn(targets);
    case 'random':
      return new Random(targets);
  }
}
