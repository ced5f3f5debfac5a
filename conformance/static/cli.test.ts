// The command line: --help, --init, --cluster, --cluster-config and the short alias.
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { type CaseContext, check } from '../harness/index.ts';
import { shellScript } from './fixtures.ts';
import { runToExit, type Site, startSite } from './site.ts';

const launch = { needs: ['launch'] };
const MANY_NOS = 'n\n'.repeat(20);
const MANY_BLANKS = '\n'.repeat(20);

check('static/cli/help/prints-usage-without-serving', launch, async (t, c) => {
  const exit = await runToExit(c, { config: {}, args: ['--help'] });
  const text = exit.stdout + exit.stderr;
  t.is(exit.code, 0);
  for (const flag of ['--config', '--init', '--cluster', '--cluster-config']) t.true(text.includes(flag), `usage lacks ${flag}`);
});

check('static/cli/help-output-and-exit/stdout-and-short-flag', launch, async (t, c) => {
  const long = await runToExit(c, { config: {}, args: ['--help'] });
  const short = await runToExit(c, { config: {}, args: ['-h'] });
  t.true(long.stdout.includes('--config'));
  t.is(short.code, 0);
  t.is(short.stdout, long.stdout);
});

check('static/cli/unknown-flag/usage-error-exit-2', launch, async (t, c) => {
  const exit = await runToExit(c, { config: {}, args: ['--no-such-flag'] });
  t.is(exit.code, 2);
  t.regex(exit.stderr, /no-such-flag/);
});

check('static/cli/init-creates-config/defaults-give-valid-config', launch, async (t, c) => {
  const exit = await runToExit(c, { config: null, args: ['--init'], stdin: MANY_BLANKS });
  t.is(exit.code, 0, exit.stderr);
  const written: unknown = JSON.parse(readFileSync(join(exit.dir, 'server-config.json'), 'utf8'));
  t.is(typeof written, 'object');
  t.not(written, null);
});

check('static/cli/init-asks-before-overwrite/no-keeps-file', launch, async (t, c) => {
  const original = '{"folders": "keep-me"}\n';
  const exit = await runToExit(c, { config: null, files: { 'server-config.json': original }, args: ['--init'], stdin: MANY_NOS });
  t.is(readFileSync(join(exit.dir, 'server-config.json'), 'utf8'), original);
  t.regex(exit.stdout + exit.stderr, /\?/, 'no question was asked');
});

check('static/cli/init-questions/answers-become-config', launch, async (t, c) => {
  const exit = await runToExit(c, {
    config: null,
    args: ['--init'],
    stdin: '8123\nsite\n/api http://127.0.0.1:3000\nn\n',
  });
  t.is(exit.code, 0, exit.stderr);
  t.deepEqual(JSON.parse(readFileSync(join(exit.dir, 'server-config.json'), 'utf8')), {
    port: 8123,
    folders: 'site',
    proxy: { '/api': 'http://127.0.0.1:3000' },
  });
});

check('static/cli/init-overwrite-prompt/yes-replaces', launch, async (t, c) => {
  const exit = await runToExit(c, { config: null, files: { 'server-config.json': '{"folders": "old"}' }, args: ['--init'], stdin: `y\n${MANY_BLANKS}` });
  const written = JSON.parse(readFileSync(join(exit.dir, 'server-config.json'), 'utf8')) as { folders?: unknown };
  t.not(written.folders, 'old');
});

// Cluster cases: pm2 (or whatever the target uses) gets a private home inside the case directory. Workers
// are told apart by the parent PID a CGI script reports: each request's script is a child of its worker.
const CLUSTER_ENV = { PM2_HOME: '{dir}/.pm2' };

async function clusterSite(c: CaseContext, args: string[], extraFiles: Record<string, string> = {}) {
  const exit = await runToExit(c, {
    config: (p) => ({ port: p[0], cgi: 'cgi-bin', logging: false }),
    files: { 'cgi-bin/ppid.sh': shellScript('echo $PPID'), ...extraFiles },
    args,
    env: CLUSTER_ENV,
  });
  const { dir } = exit;
  const port = exit.ports[0]!;
  const stop = async () => {
    await runToExit(c, { config: null, dir, args: ['--cluster', 'stop'], env: CLUSTER_ENV });
    killDaemon(dir);
  };
  return { exit, dir, port, http: c.http(`http://127.0.0.1:${port}`), stop };
}

function killDaemon(dir: string): void {
  try {
    process.kill(Number(readFileSync(join(dir, '.pm2', 'pm2.pid'), 'utf8')), 'SIGTERM');
  } catch {
    // No pm2 daemon: the target manages its cluster another way.
  }
}

async function workerPids(http: Site['http'], requests: number): Promise<Set<string>> {
  const pids = new Set<string>();
  for (let i = 0; i < requests; i++) pids.add((await http.get('/cgi-bin/ppid.sh')).text.trim());
  return pids;
}

async function waitServing(http: Site['http']): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const status = await http.get('/cgi-bin/ppid.sh').then((r) => r.status, () => 0);
    if (status === 200) return status;
    await new Promise((r) => setTimeout(r, 100));
  }
  return 0;
}

check('static/cli/cluster-actions/start-status-restart-logs-stop', { ...launch, timeoutMs: 90_000 }, async (t, c) => {
  const cluster = await clusterSite(c, ['--cluster', 'start']);
  try {
    t.is(cluster.exit.code, 0, cluster.exit.stderr);
    t.is(await waitServing(cluster.http), 200);
    const status = await runToExit(c, { config: null, dir: cluster.dir, args: ['--cluster', 'status'], env: CLUSTER_ENV });
    t.is(status.code, 0, status.stderr);
    const restart = await runToExit(c, { config: null, dir: cluster.dir, args: ['--cluster', 'restart'], env: CLUSTER_ENV });
    t.is(restart.code, 0, restart.stderr);
    t.is(await waitServing(cluster.http), 200);
    const logs = await runToExit(c, { config: null, dir: cluster.dir, args: ['--cluster', 'logs'], env: CLUSTER_ENV });
    t.is(logs.code, 0, logs.stderr);
    const stop = await runToExit(c, { config: null, dir: cluster.dir, args: ['--cluster', 'stop'], env: CLUSTER_ENV });
    t.is(stop.code, 0, stop.stderr);
    t.is(await cluster.http.get('/cgi-bin/ppid.sh').then((r) => r.status, () => 0), 0, 'still serving after stop');
  } finally {
    await cluster.stop();
  }
});

check('static/cli/cluster-default-start/no-action-starts', { ...launch, timeoutMs: 60_000 }, async (t, c) => {
  const cluster = await clusterSite(c, ['--cluster']);
  try {
    t.is(cluster.exit.code, 0, cluster.exit.stderr);
    t.is(await waitServing(cluster.http), 200);
  } finally {
    await cluster.stop();
  }
});

check('static/cli/cluster-config/settings-from-file', { ...launch, timeoutMs: 60_000 }, async (t, c) => {
  const ecosystem = JSON.stringify({ apps: [{ name: 'conform-one', instances: 1, exec_mode: 'cluster' }] });
  const cluster = await clusterSite(c, ['--cluster', 'start', '--cluster-config', 'cluster.json'], { 'cluster.json': ecosystem });
  try {
    t.is(cluster.exit.code, 0, cluster.exit.stderr);
    t.is(await waitServing(cluster.http), 200);
    t.is((await workerPids(cluster.http, 8)).size, 1);
  } finally {
    await runToExit(c, { config: null, dir: cluster.dir, args: ['--cluster', 'stop', '--cluster-config', 'cluster.json'], env: CLUSTER_ENV });
    await cluster.stop();
  }
});

check('static/limits/cluster-workers-per-core/one-worker-per-cpu', { ...launch, timeoutMs: 60_000 }, async (t, c) => {
  const cluster = await clusterSite(c, ['--cluster', 'start']);
  try {
    t.is(await waitServing(cluster.http), 200);
    // Workers come up one by one: sample until every core's worker answered (or 20 s passed).
    const seen = new Set<string>();
    for (const deadline = Date.now() + 20_000; seen.size < cpus().length && Date.now() < deadline; ) {
      for (const pid of await workerPids(cluster.http, 4 * cpus().length)) seen.add(pid);
    }
    for (const pid of await workerPids(cluster.http, 4 * cpus().length)) seen.add(pid);
    t.is(seen.size, cpus().length);
  } finally {
    await cluster.stop();
  }
});

check('static/cli/short-alias/same-help-and-serving', { needs: ['launch', 'alias'] }, async (t, c) => {
  const main = await runToExit(c, { config: {}, args: ['--help'] });
  const alias = await runToExit(c, { config: {}, args: ['--help'], command: c.target.aliasCommand });
  t.is(alias.code, 0);
  t.is(alias.stdout, main.stdout);
  const site = await startSite(c, { config: { healthCheck: true }, command: c.target.aliasCommand });
  t.is((await site.http.get('/__health__')).status, 200);
});
