// The variant's own command line where it differs from the reference: help and option handling, an
// interactive --init on a terminal, and a foreground cluster manager (node:cluster) with a state file the
// other --cluster actions use.
import cluster, { type Worker } from 'node:cluster';
import { appendFileSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';

export const VERSION = 'static-variant 0.9.0';

export const USAGE = `static-variant — serves static files and forwards paths to back ends (a permitted variant)

  static-variant [--config <file|dir>]           serve, reading server-config.json by default
  static-variant --init [--config <file>]        write a config by answering questions (on a terminal)
  static-variant --cluster [start|stop|restart|status|logs|monitor] [--cluster-config <file>]
                                                 run one worker per core in the foreground, or control it
  static-variant --help                          this text
  static-variant --version                       the version
`;

const FLAGS_WITH_VALUE = new Set(['--config', '--cluster-config']);
const FLAGS = new Set(['--help', '--version', '--init', '--cluster', ...FLAGS_WITH_VALUE]);
export const CLUSTER_ACTIONS = ['start', 'stop', 'restart', 'status', 'logs', 'monitor'];

/** The first option the variant does not know, if any. */
export function unknownOption(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const name = arg.split('=')[0]!;
    if (FLAGS_WITH_VALUE.has(name) && !arg.includes('=')) i++;
    else if (arg.startsWith('-') && !FLAGS.has(name)) return arg;
  }
  return undefined;
}

/** The value of `--name value` or `--name=value`. */
export function optionValue(argv: string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === name) return argv[i + 1];
    if (argv[i]!.startsWith(`${name}=`)) return argv[i]!.slice(name.length + 1);
  }
  return undefined;
}

/** The config file a command means: --config (a directory means server-config.json in it), else the
 * working directory's server-config.json. */
export function configPath(argv: string[], cwd = process.cwd()): string {
  const given = optionValue(argv, '--config');
  if (given === undefined) return join(cwd, 'server-config.json');
  const path = resolve(cwd, given);
  return existsSync(path) && statSync(path).isDirectory() ? join(path, 'server-config.json') : path;
}

// ---------------------------------------------------------------- --init

/** Questions on the terminal: settings to import first (a question with "port" inside a word, which is no
 * port question), the folder, the port, a back end, health, and the overwrite question last (still before
 * anything is written). */
export async function init(argv: string[]): Promise<number> {
  if (!process.stdin.isTTY) {
    process.stderr.write('error: --init asks its questions on a terminal; run it in one\n');
    return 1;
  }
  const target = configPath(argv);
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const ask = async (question: string, fallback: string): Promise<string> => {
    const answer = (await rl.question(question)).trim();
    return answer === '' ? fallback : answer;
  };
  const yes = (answer: string): boolean => /^(y|yes)$/i.test(answer);
  try {
    const config: Record<string, unknown> = {};
    const from = await ask('Import settings from an existing file? (its path, or no) [no] ', 'no');
    if (!/^(n|no|none)$/i.test(from)) {
      if (!existsSync(from)) {
        process.stderr.write(`error: cannot import settings: no file ${from}\n`);
        return 1;
      }
      Object.assign(config, JSON.parse(readFileSync(from, 'utf8')) as Record<string, unknown>);
    }
    config.folders = await ask('Which folder holds the files to serve? (public) ', 'public');
    let port = 8000;
    for (let tries = 0; tries < 3; tries++) {
      const answer = await ask('Which port should it listen on? (8000) ', '8000');
      if (/^\d+$/.test(answer) && Number(answer) <= 65535) {
        port = Number(answer);
        break;
      }
      process.stdout.write('  That is not a port number.\n');
    }
    config.port = port;
    if (yes(await ask('Forward some requests to a back end? [yes/NO] ', 'no'))) {
      const prefix = await ask('Path prefix to forward (/api) ', '/api');
      config.proxy = { [prefix]: await ask('Back-end URL (http://localhost:3000) ', 'http://localhost:3000') };
    }
    if (yes(await ask('Turn on the health endpoint? [yes/NO] ', 'no'))) config.healthCheck = true;
    if (existsSync(target) && !yes(await ask(`${target} already exists. Replace it? [yes/NO] `, 'no'))) {
      process.stdout.write(`Kept ${target} as it was.\n`);
      return 0;
    }
    writeFileSync(target, `${JSON.stringify(config, null, 2)}\n`);
    process.stdout.write(`Saved ${target}\n`);
    return 0;
  } finally {
    rl.close();
  }
}

// ---------------------------------------------------------------- --cluster

const STATE = '.variant-cluster.json';
const LOG = '.variant-cluster.log';

interface State {
  manager: number;
  workers: number[];
  restartedAt: number;
}

function readState(): State | undefined {
  try {
    const state = JSON.parse(readFileSync(STATE, 'utf8')) as State;
    process.kill(state.manager, 0);
    return state;
  } catch {
    return undefined;
  }
}

/** `workers = 2` lines (# comments allowed): the variant's cluster settings. */
function readSettings(path: string | undefined): { workers: number } {
  const settings = { workers: availableParallelism() };
  if (path === undefined) return settings;
  const lines = readFileSync(resolve(path), 'utf8').split('\n');
  lines.forEach((line, i) => {
    const text = line.replace(/#.*/, '').trim();
    if (text === '') return;
    const match = /^(\w+)\s*=\s*(\S+)$/.exec(text);
    if (!match) throw new Error(`cluster settings ${path}, line ${i + 1}: not "key = value"`);
    if (match[1] !== 'workers' || !/^\d+$/.test(match[2]!)) throw new Error(`cluster settings ${path}, line ${i + 1}: only "workers = <number>" is known`);
    settings.workers = Number(match[2]);
  });
  return settings;
}

/** The command line without its --cluster and --cluster-config parts: what each worker serves with. */
function serveArgs(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--cluster') {
      if (CLUSTER_ACTIONS.includes(argv[i + 1] ?? '')) i++;
    } else if (arg === '--cluster-config') i++;
    else if (!arg.startsWith('--cluster-config=')) out.push(arg);
  }
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runCluster(argv: string[]): Promise<number> {
  const at = argv.indexOf('--cluster');
  const next = argv[at + 1];
  const action = next !== undefined && !next.startsWith('-') ? next : 'start';
  if (!CLUSTER_ACTIONS.includes(action)) {
    process.stderr.write(`error: --cluster takes one of ${CLUSTER_ACTIONS.join(', ')}\n`);
    return 1;
  }
  const state = readState();
  switch (action) {
    case 'start': {
      if (state) {
        process.stderr.write(`error: the cluster already runs (manager ${state.manager})\n`);
        return 1;
      }
      let settings: { workers: number };
      try {
        settings = readSettings(optionValue(argv, '--cluster-config'));
      } catch (error) {
        process.stderr.write(`error: ${(error as Error).message}\n`);
        return 1;
      }
      return manage(serveArgs(argv), settings.workers);
    }
    case 'stop': {
      if (!state) {
        process.stdout.write('the cluster is not running\n');
        return 0;
      }
      process.kill(state.manager, 'SIGTERM');
      for (let i = 0; i < 100 && readState(); i++) await sleep(100);
      process.stdout.write(`stopped the cluster (manager ${state.manager})\n`);
      return 0;
    }
    case 'restart': {
      if (!state) {
        process.stderr.write('error: the cluster is not running\n');
        return 1;
      }
      process.kill(state.manager, 'SIGHUP');
      for (let i = 0; i < 200 && (readState()?.restartedAt ?? 0) <= state.restartedAt; i++) await sleep(100);
      process.stdout.write('restarted the workers\n');
      return 0;
    }
    case 'status':
      process.stdout.write(state ? `manager ${state.manager}, workers ${state.workers.join(' ')}\n` : 'the cluster is not running\n');
      return 0;
    case 'logs':
      process.stdout.write(existsSync(LOG) ? readFileSync(LOG, 'utf8').split('\n').slice(-100).join('\n') : 'no log yet\n');
      return 0;
    default: {
      // monitor: the status every 2 s until interrupted.
      for (;;) {
        const now = readState();
        process.stdout.write(`${new Date().toISOString()} ${now ? `manager ${now.manager}, ${now.workers.length} workers` : 'not running'}\n`);
        await sleep(2000);
      }
    }
  }
}

/** The foreground manager: forks the workers (this same program, serving), replaces any that die, restarts
 * them on SIGHUP and ends with them on SIGTERM or SIGINT. */
function manage(serveArgs: string[], count: number): Promise<number> {
  cluster.setupPrimary({ args: serveArgs, silent: true });
  let stopping = false;
  let restartedAt = Date.now();
  const workers = new Set<Worker>();
  const save = () =>
    writeFileSync(STATE, JSON.stringify({ manager: process.pid, workers: [...workers].flatMap((w) => (w.process.pid === undefined ? [] : [w.process.pid])), restartedAt } satisfies State));
  const fork = (): Worker => {
    const worker = cluster.fork({ VARIANT_CLUSTER_WORKER: '1' });
    workers.add(worker);
    for (const stream of [worker.process.stdout, worker.process.stderr]) {
      stream?.on('data', (chunk: Buffer) => {
        appendFileSync(LOG, chunk);
        process.stdout.write(chunk);
      });
    }
    worker.on('online', save);
    return worker;
  };
  cluster.on('exit', (worker) => {
    workers.delete(worker);
    save();
    if (!stopping && !(worker as Worker & { retired?: boolean }).retired) fork();
  });
  for (let i = 0; i < count; i++) fork();
  process.stdout.write(`cluster manager ${process.pid}: ${count} worker(s); stop with --cluster stop or Ctrl-C\n`);
  process.on('SIGHUP', async () => {
    const old = [...workers];
    const fresh = old.map(() => fork());
    await Promise.all(fresh.map((w) => new Promise((done) => w.once('listening', done))));
    for (const w of old) {
      (w as Worker & { retired?: boolean }).retired = true;
      w.kill('SIGTERM');
    }
    restartedAt = Date.now();
    save();
  });
  return new Promise((done) => {
    const stop = () => {
      if (stopping) return;
      stopping = true;
      for (const w of workers) w.kill('SIGTERM');
      const finish = () => {
        rmSync(STATE, { force: true });
        done(0);
      };
      if (workers.size === 0) finish();
      cluster.on('exit', () => {
        if (workers.size === 0) finish();
      });
      setTimeout(finish, 5000).unref();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}
