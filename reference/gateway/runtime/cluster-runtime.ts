// The primary of a gateway of several workers (`workers` > 1, node:cluster): it holds the config and a
// gateway of its own without listeners (the control: the checks of every change, the health checks, the
// file watcher, the rate-limit buckets, the certificate files), forks the workers that serve the public
// ports, and is the GatewayRuntime the admin server calls: a change is checked and applied by the control,
// then applied by every worker before the answer; a read merges the workers' counters into the control's
// view (cluster-merge.ts). A worker that dies is replaced, with a log line, and the new one starts from the
// current state. See README.md, "Workers".
import { readFileSync } from 'node:fs';
import cluster, { type Worker } from 'node:cluster';
import pLimit from 'p-limit';
import type { GatewayConfig } from '../config/gateway-config.ts';
import { parseBlock } from '../data-plane/ip-filter.ts';
import type { Upstream } from '../data-plane/upstream.ts';
import { LeaseBook, sumCounters } from './cluster-limits.ts';
import { type Listing, mergedMetrics, mergeListing, mergeStatus } from './cluster-merge.ts';
import type { Change, ToPrimary, ToWorker, UpstreamShared, WorkerInit, WorkerSnapshot } from './cluster-protocol.ts';
import { createGateway, type GatewayOptions, type RunningGateway } from './create-gateway.ts';
import type { GatewayRuntime, RateLimitCounters, StatusObject, TargetChange } from './gateway-runtime.ts';

type Weighted = TargetChange & { weight: number };

/** How long a worker may take to answer the primary before it is left out of an answer. */
const CALL_TIMEOUT_MS = 10_000;
/** A worker that dies sooner than this after its start is replaced only after this long (no tight loop). */
const RESTART_BACKOFF_MS = 1_000;
/** Beyond the shutdown timeout, how long workers get to exit before they are killed. */
const EXIT_GRACE_MS = 5_000;

interface Member {
  worker: Worker;
  pid: number;
  startedAt: number;
  /** Sent its init: every change from then on reaches it, in order. */
  initialised: boolean;
  listening: boolean;
}

interface Pending {
  member: Member;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export type ClusterOptions = Omit<GatewayOptions, 'part'>;

/** Set in the environment of the primary's workers: the process is this gateway's worker (not a worker of
 * another cluster, such as pm2's cluster mode, which runs the gateway itself as its worker). */
export const WORKER_MARK = 'GATEWAY_WORKER_OF';

/** Whether this process is a worker of a gateway's primary. */
export const isGatewayWorker = (): boolean => cluster.isWorker && process.env[WORKER_MARK] !== undefined;

/** Whether this process can fork workers (it is not itself a cluster worker). */
export const canFork = (): boolean => cluster.isPrimary;

/** How the workers share a port unless NODE_CLUSTER_SCHED_POLICY says otherwise (README.md, "Workers"). */
const SCHEDULING_POLICY = cluster.SCHED_NONE;

/** Every TLS file of the config, read now: what every worker serves until the gateway restarts. */
function readTlsFiles(config: GatewayConfig): Record<string, Buffer> {
  const files: Record<string, Buffer> = {};
  for (const site of config.sites) {
    if (site.tls === undefined) continue;
    for (const [field, path] of [
      ['tls.cert', site.tls.cert],
      ['tls.key', site.tls.key],
    ] as const) {
      try {
        files[path] ??= readFileSync(path);
      } catch (error) {
        throw new Error(`${field}: cannot read ${path}: ${(error as Error).message}`, { cause: error });
      }
    }
  }
  return files;
}

function shared(upstream: Upstream): UpstreamShared {
  return {
    key: upstream.key,
    ejectedUntil: upstream.ejectedUntil,
    ejectionMs: upstream.ejectionMs,
    healthy: upstream.healthy,
    latencyMs: upstream.latencyMs,
    consecutiveFailures: upstream.consecutiveFailures,
    consecutiveSuccesses: upstream.consecutiveSuccesses,
    probes: upstream.probes,
  };
}

export class ClusterGateway implements GatewayRuntime {
  readonly #log: (line: string) => void;
  readonly #options: ClusterOptions;
  readonly #count: number;
  #control!: RunningGateway;
  #tlsFiles: Record<string, Buffer> = {};
  readonly #members = new Map<Worker, Member>();
  /** Runtime upstream changes since the running config was applied, in order. */
  #changes: Change[] = [];
  readonly #oneReload = pLimit(1);
  /** Runtime denies by normalised block (they outlive reloads), as sent. */
  readonly #denies = new Map<string, string>();
  readonly #pending = new Map<number, Pending>();
  readonly #leases = new LeaseBook();
  #nextId = 0;
  #ports: number[] = [];
  /** Until the first workers listen: settles the start. */
  #starting: { resolve: () => void; reject: (error: Error) => void } | undefined;
  #stopping = false;
  #shutdown: Promise<void> | undefined;
  #allExited: (() => void) | undefined;

  constructor(config: GatewayConfig, options: ClusterOptions) {
    this.#options = options;
    this.#log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.#count = config.workers;
  }

  async start(config: GatewayConfig): Promise<void> {
    this.#tlsFiles = readTlsFiles(config);
    this.#control = await createGateway(config, {
      ...this.#options,
      part: {
        role: 'control',
        onProbe: (upstream, ok, latencyMs) => this.#broadcast({ t: 'probe', key: upstream.key, ok, latencyMs }),
        reloadOnChange: () => this.reload(),
      },
    });
    if (process.env.NODE_CLUSTER_SCHED_POLICY === undefined) cluster.schedulingPolicy = SCHEDULING_POLICY;
    cluster.setupPrimary({ serialization: 'advanced' });
    cluster.on('message', this.#onMessage);
    cluster.on('exit', this.#onExit);
    // The primary gone, for whatever reason, takes its workers along.
    process.once('exit', () => {
      for (const member of this.#members.values()) member.worker.process.kill('SIGKILL');
    });
    const started = new Promise<void>((resolve, reject) => {
      this.#starting = { resolve, reject };
    });
    for (let i = 0; i < this.#count; i++) this.#fork();
    try {
      await started;
    } catch (error) {
      await this.#stopAll(0, true);
      throw error;
    }
  }

  ports(): number[] {
    return this.#ports;
  }

  /** The worker processes' ids. */
  workerPids(): number[] {
    return [...this.#members.values()].map((member) => member.pid);
  }

  async status(): Promise<StatusObject> {
    const snapshots = await this.#snapshots();
    return mergeStatus(this.#control.status(), snapshots);
  }

  async upstreams(): Promise<Listing> {
    const snapshots = await this.#snapshots();
    return mergeListing(this.#control.upstreams(), snapshots);
  }

  async addTarget(change: Weighted): Promise<void> {
    this.#control.addTarget(change);
    await this.#change({ kind: 'add', change }, true);
  }

  async removeTarget(change: TargetChange): Promise<boolean> {
    const removed = this.#control.removeTarget(change);
    await this.#change({ kind: 'remove', change }, true);
    return removed;
  }

  async setWeight(change: Weighted): Promise<void> {
    this.#control.setWeight(change);
    await this.#change({ kind: 'weight', change }, true);
  }

  /** One reload at a time: the file is read, its packages imported, then applied, so a reload that waits for
   * an import never applies an older file over a newer one. */
  reload(): Promise<{ warnings: string[] }> {
    return this.#oneReload(async () => {
      const next = await this.#control.nextConfig();
      const result = this.#control.applyConfig(next);
      this.#leases.reset();
      this.#changes = [];
      await this.#change({ kind: 'config', config: next }, false);
      return result;
    });
  }

  async purge(url: string): Promise<boolean> {
    // The control has the same caches (empty): its checks and errors are the gateway's.
    this.#control.purge(url);
    const purged = await this.#change({ kind: 'purge', url }, false);
    return purged.some((value) => value === true);
  }

  async rateLimits(): Promise<RateLimitCounters> {
    const snapshots = await this.#snapshots();
    return sumCounters(this.#control.rateLimits(), snapshots.map((snapshot) => snapshot.rateLimits));
  }

  async denyAdd(cidr: string): Promise<void> {
    this.#control.denyAdd(cidr);
    this.#denies.set(parseBlock(cidr)!.key, cidr);
    await this.#change({ kind: 'deny-add', cidr }, false);
  }

  async denyRemove(cidr: string): Promise<void> {
    this.#control.denyRemove(cidr);
    this.#denies.delete(parseBlock(cidr)!.key);
    await this.#change({ kind: 'deny-remove', cidr }, false);
  }

  certsReload(cert: string, key: string): Promise<{ certPath: string; keyPath: string }> {
    return this.#control.certsReload(cert, key);
  }

  /** Every worker drains (bounded by global.shutdownTimeoutSecs) and exits; then the control closes. */
  shutdown(): Promise<void> {
    this.#shutdown ??= this.#stopAll(this.#control.table.config.global.shutdownTimeoutSecs * 1000);
    return this.#shutdown;
  }

  /** Tells every worker to drain and exit (or kills them), and waits until all have exited. */
  async #stopAll(timeoutMs: number, kill = false): Promise<void> {
    this.#stopping = true;
    const exited = new Promise<void>((resolve) => {
      this.#allExited = resolve;
    });
    if (this.#members.size === 0) this.#allExited?.();
    const killAll = (): void => {
      for (const member of this.#members.values()) member.worker.process.kill('SIGKILL');
    };
    if (kill) killAll();
    else for (const member of this.#members.values()) this.#send(member, { t: 'shutdown' });
    const timer = setTimeout(killAll, timeoutMs + EXIT_GRACE_MS);
    await exited;
    clearTimeout(timer);
    this.#leases.close();
    await this.#control?.shutdown();
  }

  #fork(): void {
    const worker = cluster.fork({ [WORKER_MARK]: String(process.pid) });
    this.#members.set(worker, { worker, pid: worker.process.pid!, startedAt: Date.now(), initialised: false, listening: false });
  }

  #init(): WorkerInit {
    const denies: Change[] = [...this.#denies.values()].map((cidr) => ({ kind: 'deny-add', cidr }));
    return {
      config: this.#control.table.config,
      generation: this.#leases.generation,
      changes: [...this.#changes, ...denies],
      upstreams: this.#control.upstreamList().map(shared),
      tlsFiles: this.#tlsFiles,
    };
  }

  #send(member: Member, message: ToWorker): void {
    // A worker gone in the meantime is handled by its exit (the callback keeps the send error quiet).
    if (member.worker.isConnected()) member.worker.send(message, () => {});
  }

  /** To every worker given its init (the others get the state with it), but `except`. */
  #broadcast(message: ToWorker, except?: Member): void {
    for (const member of this.#members.values()) if (member.initialised && member !== except) this.#send(member, message);
  }

  #call(member: Member, message: ToWorker & { id: number }): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(message.id);
        reject(new Error(`worker ${member.pid} did not answer within ${CALL_TIMEOUT_MS} ms`));
      }, CALL_TIMEOUT_MS);
      this.#pending.set(message.id, { member, resolve, reject, timer });
      this.#send(member, message);
    });
  }

  /** Applies the change in every worker and waits for all (a worker that dies meanwhile restarts from
   * the current state); `logged` changes are replayed to workers started later. */
  async #change(change: Change, logged: boolean): Promise<unknown[]> {
    if (logged) this.#changes.push(change);
    const members = [...this.#members.values()].filter((member) => member.initialised);
    const answers = await Promise.allSettled(members.map((member) => this.#call(member, { t: 'apply', id: ++this.#nextId, change })));
    return answers.flatMap((answer, i) => {
      if (answer.status === 'fulfilled') return [answer.value];
      this.#log(`error: worker ${members[i]!.pid}: ${change.kind}: ${(answer.reason as Error).message}`);
      return [];
    });
  }

  /** The counters of every serving worker (one that does not answer in time is left out). */
  async #snapshots(): Promise<WorkerSnapshot[]> {
    const members = [...this.#members.values()].filter((member) => member.listening);
    const answers = await Promise.allSettled(members.map((member) => this.#call(member, { t: 'snapshot', id: ++this.#nextId })));
    return answers.flatMap((answer) => (answer.status === 'fulfilled' && answer.value !== undefined ? [answer.value as WorkerSnapshot] : []));
  }

  /** What worker `id` gives back of its share of a client's window (0 when it is gone). */
  async #reclaim(id: number, bucket: string, client: string): Promise<number> {
    const member = [...this.#members.values()].find((m) => m.worker.id === id);
    if (member === undefined) return 0;
    const back = await this.#call(member, { t: 'reclaim', id: ++this.#nextId, bucket, client }).catch(() => 0);
    return typeof back === 'number' ? back : 0;
  }

  readonly #onMessage = (worker: Worker, message: ToPrimary): void => {
    const member = this.#members.get(worker);
    if (member === undefined) return;
    switch (message.t) {
      case 'ready':
        member.initialised = true;
        this.#send(member, { t: 'init', init: this.#init() });
        return;
      case 'listening':
        member.listening = true;
        this.#ports = message.ports;
        if (this.#starting !== undefined && [...this.#members.values()].every((m) => m.listening)) {
          this.#starting.resolve();
          this.#starting = undefined;
        }
        return;
      case 'failed':
        if (this.#starting !== undefined) {
          this.#starting.reject(new Error(message.message));
          this.#starting = undefined;
        } else {
          this.#log(`error: worker ${member.pid} could not start: ${message.message}`);
        }
        return;
      case 'reply': {
        const pending = this.#pending.get(message.id);
        if (pending === undefined) return;
        this.#pending.delete(message.id);
        clearTimeout(pending.timer);
        if (message.error !== undefined) pending.reject(new Error(message.error));
        else pending.resolve(message.value);
        return;
      }
      case 'outlier': {
        // One worker's ejection is every worker's (and the primary keeps it for workers started later).
        const upstream = this.#control.upstream(message.key);
        if (upstream === undefined) return;
        upstream.ejectedUntil = message.ejectedUntil;
        upstream.ejectionMs = message.ejectionMs;
        this.#broadcast(message, member);
        return;
      }
      case 'lease':
        this.#leases
          .lease(() => this.#control.table, { ...message, worker: member.worker.id }, this.#count, (id, bucket, client) => this.#reclaim(id, bucket, client))
          .then((answer) => this.#send(member, { t: 'leased', id: message.id, answer }));
        return;
      case 'metrics':
        this.#snapshots().then((snapshots) => {
          this.#send(member, { t: 'metrics', id: message.id, body: mergedMetrics(this.#control.upstreams(), snapshots, Date.now()) });
        });
        return;
    }
  };

  readonly #onExit = (worker: Worker, code: number | null, signal: string | null): void => {
    const member = this.#members.get(worker);
    if (member === undefined) return;
    this.#members.delete(worker);
    for (const [id, pending] of this.#pending) {
      if (pending.member !== member) continue;
      this.#pending.delete(id);
      clearTimeout(pending.timer);
      // Nothing to report: its replacement starts from the current state.
      pending.resolve(undefined);
    }
    if (this.#stopping) {
      if (this.#members.size === 0) this.#allExited?.();
      return;
    }
    const how = signal === null ? `code ${code}` : `signal ${signal}`;
    if (this.#starting !== undefined) {
      this.#starting.reject(new Error(`worker ${member.pid} exited (${how}) before it served`));
      this.#starting = undefined;
      return;
    }
    const lived = Date.now() - member.startedAt;
    this.#log(`worker ${member.pid} exited unexpectedly (${how}); starting a new worker`);
    setTimeout(
      () => {
        if (!this.#stopping) this.#fork();
      },
      lived < RESTART_BACKOFF_MS ? RESTART_BACKOFF_MS : 0,
    );
  };
}

export async function startCluster(config: GatewayConfig, options: ClusterOptions): Promise<ClusterGateway> {
  const gateway = new ClusterGateway(config, options);
  await gateway.start(config);
  return gateway;
}
