// --cluster and its actions, --cluster-config, and the default number of workers. How the cluster is run is
// the target's own (static/cli/cluster-manager): a `start` that returns once the cluster runs (a daemon, as
// with pm2) and one that stays in the foreground as the cluster's manager are both allowed, so `start` is
// judged by the cluster serving, never by the command ending. Workers are told apart by the parent PID a
// CGI script reports: each request's script is a child of its worker.
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { type CaseContext, check, type HttpClient, type Launched } from '../harness/index.ts';
import { NotApplicable } from '../harness/inconclusive.ts';
import { sleep } from './event-stream.ts';
import { shellScript } from './fixtures.ts';
import { runToExit, startCommand } from './site.ts';
import { within } from '../harness/within.ts';

const launch = { needs: ['launch'] };
/** pm2 (or whatever the target uses) gets a private home inside the case directory. */
const CLUSTER_ENV = { PM2_HOME: '{dir}/.pm2' };
/** How long a cluster may take to serve, and to stop serving after `stop`. */
const SERVE_MS = 45_000;
const STOP_MS = 15_000;
/** An action that has not ended after this long has been accepted (logs and monitor may keep following). */
const ACCEPTED_MS = 4000;
const SCRIPT = '/cgi-bin/ppid.sh';

interface Cluster {
  /** Whether it came to serve (if not, `t` has failed). */
  up: boolean;
  clusterArgs: string[];
  dir: string;
  port: number;
  http: HttpClient;
  start: Launched;
  /** How the start command ended: its status, or null while it stays in the foreground. */
  startCode(): number | null;
}

async function serving(http: HttpClient): Promise<boolean> {
  return (await http.get(SCRIPT).then((r) => r.status, () => 0)) === 200;
}

async function waitServing(http: HttpClient, ms = SERVE_MS, gone?: () => boolean): Promise<boolean> {
  for (const start = Date.now(); Date.now() - start < ms; await sleep(150)) {
    if (await serving(http)) return true;
    if (gone?.()) return false;
  }
  return false;
}

function killDaemon(dir: string): void {
  try {
    process.kill(Number(readFileSync(join(dir, '.pm2', 'pm2.pid'), 'utf8')), 'SIGTERM');
  } catch {
    // No pm2 daemon: the target manages its cluster another way.
  }
}

/** Runs `body` on a started cluster, then stops it however it was started: the target's `stop` (with the
 * same cluster config) while the case still runs, and pm2's daemon where there is one (also when the case
 * is cut short); a foreground manager goes with the case's processes. */
async function withCluster(c: CaseContext, started: Cluster, body: () => Promise<void>): Promise<void> {
  c.defer(() => killDaemon(started.dir));
  try {
    if (started.up) await body();
  } finally {
    await runToExit(c, { config: null, dir: started.dir, args: ['--cluster', 'stop', ...started.clusterArgs], env: CLUSTER_ENV }).catch(() => undefined);
    killDaemon(started.dir);
  }
}

/** Runs `--cluster …` and waits until the cluster serves (the command may have returned or still run), or
 * the command ends with a non-zero status, or SERVE_MS pass. */
async function launchCluster(c: CaseContext, args: string[], files: Record<string, string> = {}, clusterArgs: string[] = []): Promise<Cluster> {
  const start = await startCommand(c, {
    config: (p) => ({ port: p[0], cgi: 'cgi-bin', logging: false }),
    files: { 'cgi-bin/ppid.sh': shellScript('echo $PPID'), ...files },
    args: [...args, ...clusterArgs],
    env: CLUSTER_ENV,
  });
  let ended: { code: number | null } | undefined;
  void start.exited.then((e) => {
    ended = e;
  });
  const http = c.http(`http://127.0.0.1:${start.port}`);
  const failed = (): boolean => ended !== undefined && ended.code !== 0;
  const up = (await waitServing(http, SERVE_MS, failed)) && !failed();
  return { up, clusterArgs, dir: start.dir, port: start.port, http, start, startCode: () => (ended === undefined ? null : ended.code) };
}

/** launchCluster, failing `t` when the start ends with a non-zero status or the cluster never serves. */
async function startCluster(t: ExecutionContext, c: CaseContext, args: string[], files: Record<string, string> = {}, clusterArgs: string[] = []): Promise<Cluster> {
  const cluster = await launchCluster(c, args, files, clusterArgs);
  const code = cluster.startCode();
  const said = `${cluster.start.stderr()}\n${cluster.start.stdout()}`;
  if (code !== null && code !== 0) t.fail(`${args.join(' ')} ended with status ${code}:\n${said}`);
  else t.true(cluster.up, `the cluster did not serve ${SCRIPT} within ${SERVE_MS} ms of ${args.join(' ')}:\n${said}`);
  return cluster;
}

/** Runs one cluster action in the cluster's folder: accepted when it ends with status 0, or is still going
 * after a moment (an action may follow the logs or the monitor until stopped). */
async function action(t: ExecutionContext, c: CaseContext, cluster: Cluster, name: string, clusterArgs: string[] = []): Promise<boolean> {
  const run = await startCommand(c, { config: null, dir: cluster.dir, args: ['--cluster', name, ...clusterArgs], env: CLUSTER_ENV });
  const ended = await within(run.exited, name === 'logs' || name === 'monitor' ? ACCEPTED_MS : 30_000, undefined);
  if (ended === undefined) {
    if (name === 'logs' || name === 'monitor') {
      await run.stop();
      return true;
    }
    t.fail(`--cluster ${name} did not end within 30 s`);
    return false;
  }
  return t.is(ended.code, 0, `--cluster ${name} ended with status ${ended.code}:\n${run.stderr()}\n${run.stdout()}`);
}

async function workerPids(http: HttpClient, requests: number): Promise<Set<string>> {
  const pids = new Set<string>();
  for (let i = 0; i < requests; i++) {
    const res = await http.get(SCRIPT).catch(() => undefined);
    if (res?.status === 200) pids.add(res.text.trim());
  }
  return pids;
}

/** The distinct workers answering, sampled until `want` are seen or `ms` pass (workers come up one by one). */
async function workersSeen(http: HttpClient, want: number, ms = 20_000): Promise<Set<string>> {
  const seen = new Set<string>();
  for (const deadline = Date.now() + ms; seen.size < want && Date.now() < deadline; ) {
    for (const pid of await workerPids(http, 4 * Math.max(want, 2))) seen.add(pid);
  }
  for (const pid of await workerPids(http, 4 * Math.max(want, 2))) seen.add(pid);
  return seen;
}

check('static/cli/cluster-actions/start-status-restart-logs-monitor-stop', { ...launch, timeoutMs: 120_000 }, async (t, c) => {
  const cluster = await startCluster(t, c, ['--cluster', 'start']);
  await withCluster(c, cluster, async () => {
    await action(t, c, cluster, 'status');
    if (await action(t, c, cluster, 'restart')) t.true(await waitServing(cluster.http), 'not serving after --cluster restart');
    await action(t, c, cluster, 'logs');
    await action(t, c, cluster, 'monitor');
    if (!(await action(t, c, cluster, 'stop'))) return;
    let stopped = false;
    for (const start = Date.now(); !stopped && Date.now() - start < STOP_MS; await sleep(200)) stopped = !(await serving(cluster.http));
    t.true(stopped, `still serving ${STOP_MS} ms after --cluster stop`);
  });
});

check('static/cli/cluster-default-start/no-action-starts', { ...launch, timeoutMs: 90_000 }, async (t, c) => {
  await withCluster(c, await startCluster(t, c, ['--cluster']), async () => {});
});

// The pm2 manner of the reference: `start` returns once pm2 runs the workers.
check('static/cli/cluster-start-background/start-returns-while-cluster-serves', { ...launch, timeoutMs: 90_000 }, async (t, c) => {
  const cluster = await startCluster(t, c, ['--cluster', 'start']);
  await withCluster(c, cluster, async () => {
    const ended = await within(cluster.start.exited, 5000, undefined);
    t.is(ended?.code, 0, '--cluster start still running 5 s after the cluster served');
    t.true(await serving(cluster.http), 'the cluster stopped serving once --cluster start returned');
  });
});

interface ClusterSettings {
  /** File name (default cluster.json). */
  name?: string;
  content: string;
  /** Workers the file asks for, when it sets a number. */
  workers?: number;
}

/** The reference's format (a pm2 ecosystem file), asking for one worker. */
const ECOSYSTEM: ClusterSettings = {
  content: JSON.stringify({ apps: [{ name: 'conform-one', instances: 1, exec_mode: 'cluster' }] }),
  workers: 1,
};

function settingsArgs(settings: ClusterSettings): string[] {
  return ['--cluster-config', settings.name ?? 'cluster.json'];
}

// The file's format is the target's own (static/cli/cluster-manager): a target describes a settings file in
// its format as `clusterConfig` in its description. Without one, the reference's format is tried, and a
// target that does not take it cannot stage the case.
check('static/cli/cluster-config/settings-file-used', { ...launch, timeoutMs: 90_000 }, async (t, c) => {
  const described = c.target.description?.clusterConfig as ClusterSettings | undefined;
  const settings: ClusterSettings = described ?? { content: ECOSYSTEM.content };
  const args = settingsArgs(settings);
  const cluster = await launchCluster(c, ['--cluster', 'start'], { [settings.name ?? 'cluster.json']: settings.content }, args);
  await withCluster(c, cluster, async () => {
    if (settings.workers === undefined) return;
    const seen = await workersSeen(cluster.http, settings.workers + 1, 8000);
    t.is(seen.size, settings.workers, `the settings file asks for ${settings.workers} worker(s)`);
  });
  const said = `${cluster.start.stderr()}\n${cluster.start.stdout()}`;
  if (!cluster.up && !described) {
    throw new NotApplicable(
      `the target did not serve with a cluster settings file in the reference's format (a pm2 ecosystem file); describe one in its own format as "clusterConfig": {"name", "content", "workers"} in the target description. It said:\n${said}`,
    );
  }
  t.true(cluster.up, `--cluster start ${args.join(' ')} did not serve within ${SERVE_MS} ms (status ${cluster.startCode()}):\n${said}`);
});

check('static/cli/cluster-manager/ecosystem-file-sets-workers', { ...launch, timeoutMs: 90_000 }, async (t, c) => {
  const cluster = await startCluster(t, c, ['--cluster', 'start'], { 'cluster.json': ECOSYSTEM.content }, settingsArgs(ECOSYSTEM));
  await withCluster(c, cluster, async () => {
    t.is((await workersSeen(cluster.http, 2, 8000)).size, 1);
  });
});

check('static/limits/cluster-workers-per-core/one-worker-per-cpu', { ...launch, timeoutMs: 90_000 }, async (t, c) => {
  const cluster = await startCluster(t, c, ['--cluster', 'start']);
  await withCluster(c, cluster, async () => {
    t.is((await workersSeen(cluster.http, cpus().length)).size, cpus().length);
  });
});
