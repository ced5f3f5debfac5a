// A worker process of a gateway of several workers: it asks its primary for the running state (config,
// runtime changes, probe results, TLS files), serves the public ports (shared through node:cluster), applies
// each change the primary sends before answering it, and drains and exits when told to. It never reads the
// config file, probes or watches; signals are its primary's to handle (a terminal's Ctrl-C reaches the
// whole process group): a worker without its primary exits at once (node:cluster's own rule).
import { importPackagesFor } from '../data-plane/optional-packages.ts';
import { type LeaseAnswer, WorkerLimiter } from './cluster-limits.ts';
import type { Change, ToPrimary, ToWorker, WorkerInit, WorkerSnapshot } from './cluster-protocol.ts';
import { RunningGateway } from './create-gateway.ts';

function send(message: ToPrimary): void {
  process.send?.(message);
}

function apply(gateway: RunningGateway, change: Change): unknown {
  switch (change.kind) {
    case 'config':
      return gateway.applyConfig(change.config);
    case 'add':
      return gateway.addTarget(change.change);
    case 'remove':
      return gateway.removeTarget(change.change);
    case 'weight':
      return gateway.setWeight(change.change);
    case 'deny-add':
      return gateway.denyAdd(change.cidr);
    case 'deny-remove':
      return gateway.denyRemove(change.cidr);
    case 'purge':
      return gateway.purge(change.url);
  }
}

function snapshot(gateway: RunningGateway, limiter: WorkerLimiter): WorkerSnapshot {
  return { traffic: { ...gateway.traffic }, upstreams: gateway.upstreams().upstreams, rateLimits: limiter.counters() };
}

/** Questions to the primary and their answers, by id. */
class Questions {
  readonly #waiting = new Map<number, (answer: never) => void>();
  #nextId = 0;

  ask<T>(message: (id: number) => ToPrimary): Promise<T> {
    return new Promise<T>((resolve) => {
      const id = ++this.#nextId;
      this.#waiting.set(id, resolve as (answer: never) => void);
      send(message(id));
    });
  }

  answered(id: number, answer: unknown): void {
    this.#waiting.get(id)?.(answer as never);
    this.#waiting.delete(id);
  }
}

async function start(init: WorkerInit, log: (line: string) => void, questions: Questions): Promise<{ gateway: RunningGateway; limiter: WorkerLimiter }> {
  const limiter = new WorkerLimiter(
    (bucket, client, generation) => questions.ask<LeaseAnswer>((id) => ({ t: 'lease', id, bucket, client, generation })),
    init.generation,
  );
  const metrics = (): Promise<string> => questions.ask<string>((id) => ({ t: 'metrics', id }));
  for (const config of [init.config, ...init.changes.flatMap((change) => (change.kind === 'config' ? [change.config] : []))]) await importPackagesFor(config);
  const gateway = new RunningGateway(init.config, {
    loadConfig: () => {
      throw new Error('a worker does not read the config file');
    },
    coldChange: () => undefined,
    log,
    part: {
      role: 'worker',
      hooks: { metrics, rateLimit: (site, path, client) => limiter.decide(site, path, client) },
      buildTable: limiter.buildTable,
      onOutlier: (upstream) => send({ t: 'outlier', key: upstream.key, ejectedUntil: upstream.ejectedUntil, ejectionMs: upstream.ejectionMs }),
      readTlsFile: (path) => {
        const file = init.tlsFiles[path];
        if (file === undefined) throw new Error(`${path}: not read when the gateway started`);
        return Buffer.from(file);
      },
    },
  });
  for (const change of init.changes) apply(gateway, change);
  for (const shared of init.upstreams) {
    const upstream = gateway.upstream(shared.key);
    if (upstream === undefined) continue;
    upstream.healthy = shared.healthy;
    upstream.latencyMs = shared.latencyMs;
    upstream.consecutiveFailures = shared.consecutiveFailures;
    upstream.consecutiveSuccesses = shared.consecutiveSuccesses;
    upstream.probes = shared.probes;
    upstream.ejectedUntil = shared.ejectedUntil;
    upstream.ejectionMs = shared.ejectionMs;
  }
  await gateway.start();
  return { gateway, limiter };
}

/** Serves until the primary says to stop (or is gone). */
export function runClusterWorker(log: (line: string) => void): void {
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => {});
  const questions = new Questions();
  let gateway: RunningGateway | undefined;
  let limiter: WorkerLimiter | undefined;
  // The primary's messages are handled one after the other, in the order sent (start included).
  let queue = Promise.resolve();
  const handle = async (message: ToWorker): Promise<void> => {
    switch (message.t) {
      case 'init':
        try {
          ({ gateway, limiter } = await start(message.init, log, questions));
        } catch (error) {
          send({ t: 'failed', message: (error as Error).message });
          process.exit(1);
        }
        send({ t: 'listening', ports: gateway.ports() });
        return;
      case 'apply':
        try {
          if (message.change.kind === 'config') await importPackagesFor(message.change.config);
          send({ t: 'reply', id: message.id, value: apply(gateway!, message.change) });
        } catch (error) {
          send({ t: 'reply', id: message.id, error: (error as Error).message });
        }
        return;
      case 'snapshot':
        send({ t: 'reply', id: message.id, value: snapshot(gateway!, limiter!) });
        return;
      case 'probe':
        gateway?.upstream(message.key)?.recordProbe(message.ok, message.latencyMs);
        return;
      case 'outlier': {
        const upstream = gateway?.upstream(message.key);
        if (upstream === undefined) return;
        upstream.ejectedUntil = message.ejectedUntil;
        upstream.ejectionMs = message.ejectionMs;
        return;
      }
      case 'shutdown':
        await gateway?.shutdown();
        process.exit(0);
    }
  };
  process.on('message', (message: ToWorker) => {
    // Answers to this worker's questions, and take-backs of its rate-limit shares, at once; the rest in order.
    if (message.t === 'leased') questions.answered(message.id, message.answer);
    else if (message.t === 'metrics') questions.answered(message.id, message.body);
    else if (message.t === 'reclaim') send({ t: 'reply', id: message.id, value: limiter?.reclaim(message.bucket, message.client) ?? 0 });
    else queue = queue.then(() => handle(message));
  });
  send({ t: 'ready' });
}
