// The messages between the primary of a gateway of several workers and its workers (node:cluster IPC with
// the advanced serialization, so a config's undefined fields and Buffers cross as they are). The primary
// owns the config, the changes and the counters that must hold for the gateway as a whole; every worker
// serves the public ports on the same table (README.md, "Workers").
import type { GatewayConfig } from '../config/gateway-config.ts';
import type { Traffic } from '../data-plane/proxy-exchange.ts';
import type { LeaseAnswer } from './cluster-limits.ts';
import type { RateLimitCounters, TargetChange, UpstreamEntry } from './gateway-runtime.ts';

type Weighted = TargetChange & { weight: number };

/** What every worker applies, in the order the primary accepted them. */
export type Change =
  | { kind: 'config'; config: GatewayConfig }
  | { kind: 'add'; change: Weighted }
  | { kind: 'remove'; change: TargetChange }
  | { kind: 'weight'; change: Weighted }
  | { kind: 'deny-add'; cidr: string }
  | { kind: 'deny-remove'; cidr: string }
  | { kind: 'purge'; url: string };

/** An upstream's ejection (outlier detection): until when (0 = none) and for how long it was ejected. */
export interface Ejection {
  key: string;
  ejectedUntil: number;
  ejectionMs: number;
}

/** An upstream's probe results and ejection as the primary holds them (what a worker started later is given). */
export interface UpstreamShared extends Ejection {
  healthy: boolean;
  latencyMs: number | null;
  consecutiveFailures: number;
  consecutiveSuccesses: number;
  probes: number;
}

/** Everything a worker needs to serve like the others: the running config (and how many were applied
 * before it), the runtime changes made since it was applied (upstream changes, then the runtime denies), the
 * probe results and ejections, and the TLS files as read when the gateway started. */
export interface WorkerInit {
  config: GatewayConfig;
  generation: number;
  changes: Change[];
  upstreams: UpstreamShared[];
  tlsFiles: Record<string, Uint8Array>;
}

/** A worker's share of what the read endpoints report. */
export interface WorkerSnapshot {
  traffic: Traffic;
  upstreams: UpstreamEntry[];
  rateLimits: RateLimitCounters;
}

export type ToWorker =
  | { t: 'init'; init: WorkerInit }
  | { t: 'apply'; id: number; change: Change }
  | { t: 'snapshot'; id: number }
  | { t: 'probe'; key: string; ok: boolean; latencyMs: number | null }
  /** Another worker ejected the upstream, or ended its ejection. */
  | ({ t: 'outlier' } & Ejection)
  /** Answers a `lease`. */
  | { t: 'leased'; id: number; answer: LeaseAnswer }
  /** What is left of the worker's share of a client's window, taken back (reply: the number). */
  | { t: 'reclaim'; id: number; bucket: string; client: string }
  /** Answers a `metrics`: the gateway's metrics body. */
  | { t: 'metrics'; id: number; body: string }
  | { t: 'shutdown' };

export type ToPrimary =
  | { t: 'ready' }
  | { t: 'listening'; ports: number[] }
  | { t: 'failed'; message: string }
  /** This worker ejected the upstream, or ended its ejection. */
  | ({ t: 'outlier' } & Ejection)
  /** Answers an `apply` (value: what the change returned) or a `snapshot`. */
  | { t: 'reply'; id: number; value?: unknown; error?: string }
  /** A share of a client's rate-limit window (cluster-limits.ts). */
  | { t: 'lease'; id: number; bucket: string; client: string; generation: number }
  | { t: 'metrics'; id: number };
