// `--cluster [action]`: the server as a pm2 cluster (one worker per CPU core) through pm2's programmatic
// API. pm2 is imported only here and only on demand, so a normal start does not pay for loading it.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { ProcessDescription, StartOptions } from 'pm2';
import { ConfigError } from '../config/config-error.ts';
import { isPlainObject } from '../config/check-values.ts';
import type { ClusterAction } from './help.ts';

export const APP_NAME = 'static-proxy';
/** Lines shown per log file by `logs`. */
const LOG_TAIL_LINES = 50;

type Pm2 = typeof import('pm2');

export interface ClusterOptions {
  action: ClusterAction;
  /** Resolved config file path (may not exist: then the workers use built-in defaults). */
  configPath: string;
  /** True when `--config` was given, so the workers must get it. */
  configExplicit: boolean;
  /** `--cluster-config` as given. */
  clusterConfig: string | undefined;
  cwd: string;
  print(line: string): void;
}

/** Runs one cluster action and returns the process exit code. */
export async function runCluster(options: ClusterOptions): Promise<number> {
  const ecosystem = options.clusterConfig === undefined ? null : readEcosystem(resolve(options.cwd, options.clusterConfig));
  const names = ecosystem?.names ?? [APP_NAME];

  if (options.action === 'monitor') return monitor();

  const pm2 = ((await import('pm2')) as { default: Pm2 }).default;
  await call<void>((done) => pm2.connect(done));
  try {
    const running = (await call<ProcessDescription[]>((done) => pm2.list(done))).filter((p) => names.includes(p.name ?? ''));
    switch (options.action) {
      case 'start':
        if (running.length > 0) {
          options.print(`${names.join(', ')} is already running; use --cluster restart or --cluster stop`);
          return 1;
        }
        // Each app of a cluster config is the built-in app with the file's settings laid over it, so a
        // file may carry settings only (instances, env, ...) and still run this server.
        for (const app of ecosystem?.apps ?? [{}]) {
          await call((done) => pm2.start({ ...defaultApp(options), ...app } as StartOptions, done));
        }
        return await printStatus(pm2, names, options.print);
      case 'stop':
        if (running.length === 0) {
          options.print(`${names.join(', ')} is not running`);
          return 0;
        }
        // delete (not just stop) so that a later `start` begins from a clean process list.
        for (const name of names) await call((done) => pm2.delete(name, done)).catch(() => undefined);
        options.print(`stopped ${names.join(', ')}`);
        return 0;
      case 'restart':
        if (running.length === 0) {
          options.print(`${names.join(', ')} is not running; use --cluster start`);
          return 1;
        }
        for (const name of names) await call((done) => pm2.restart(name, done));
        return await printStatus(pm2, names, options.print);
      case 'status':
        return await printStatus(pm2, names, options.print);
      case 'logs':
        printLogs(running, options.print);
        return 0;
    }
  } finally {
    // Every branch above awaits its pm2 calls: a returned, un-awaited promise would disconnect mid-call.
    pm2.disconnect();
  }
}

/** The built-in setup: this very entry point, in cluster mode, one instance per core, same --config. */
function defaultApp(options: ClusterOptions): StartOptions {
  const args: string[] = [];
  if (options.configExplicit || existsSync(options.configPath)) args.push('--config', options.configPath);
  const env: Record<string, string> = {};
  for (const name of ['NODE_ENV', 'PORT', 'STATIC_BIND']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  // Workers run the entry point this process was started with: main.ts (under tsx), the bin shim, or a
  // bundle of main.ts. Only a bare .ts entry needs pm2 to load tsx (by absolute URL) into the workers.
  const script = realpathSync(process.argv[1] ?? '');
  return {
    name: APP_NAME,
    script,
    args,
    cwd: options.cwd,
    instances: 'max' as unknown as number,
    exec_mode: 'cluster',
    interpreter: process.execPath,
    node_args: script.endsWith('.ts') ? [`--import=${import.meta.resolve('tsx')}`] : [],
    env,
  } as StartOptions;
}

function readEcosystem(path: string): { path: string; names: string[]; apps: Record<string, unknown>[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError('--cluster-config', code ? `cannot read ${path} (${code})` : `invalid JSON in ${path}`);
  }
  const apps = isPlainObject(parsed) ? parsed.apps : parsed;
  if (!Array.isArray(apps) || apps.length === 0) {
    throw new ConfigError('--cluster-config', `${path} must hold an "apps" array with at least one app`);
  }
  const names = apps.map((app, i) => {
    if (!isPlainObject(app) || typeof app.name !== 'string' || app.name === '') {
      throw new ConfigError(`--cluster-config`, `apps[${i}].name is required (a string) in ${path}`);
    }
    return app.name;
  });
  return { path, names, apps: apps as Record<string, unknown>[] };
}

async function printStatus(pm2: Pm2, names: string[], print: (line: string) => void): Promise<number> {
  const list = (await call<ProcessDescription[]>((done) => pm2.list(done))).filter((p) => names.includes(p.name ?? ''));
  if (list.length === 0) {
    print(`${names.join(', ')} is not running`);
    return 0;
  }
  const rows = [['name', 'id', 'mode', 'pid', 'status', 'restarts', 'cpu', 'memory']];
  for (const p of list) {
    const env = (p.pm2_env ?? {}) as Record<string, unknown>;
    rows.push([
      p.name ?? '',
      String(p.pm_id ?? ''),
      String(env.exec_mode ?? '').replace('_mode', ''),
      String(p.pid ?? ''),
      String(env.status ?? ''),
      String(env.restart_time ?? 0),
      `${p.monit?.cpu ?? 0}%`,
      `${((p.monit?.memory ?? 0) / 1048576).toFixed(1)} MB`,
    ]);
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows) print(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd());
  return 0;
}

/** Prints the tail of each instance's out and err log files (pm2 keeps one pair per instance). */
function printLogs(running: ProcessDescription[], print: (line: string) => void): void {
  const files = new Set<string>();
  for (const p of running) {
    for (const path of [p.pm2_env?.pm_out_log_path, p.pm2_env?.pm_err_log_path]) if (path) files.add(path);
  }
  if (files.size === 0) print('no logs: the cluster is not running');
  for (const file of files) {
    print(`==> ${file} <==`);
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      // a worker that never wrote has no file yet
    }
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    for (const line of lines.slice(-LOG_TAIL_LINES)) print(line);
  }
}

/** pm2's own terminal monitor; it needs the terminal, so it runs as a child with inherited stdio. */
function monitor(): Promise<number> {
  const pm2Bin = join(dirname(createRequire(import.meta.url).resolve('pm2/package.json')), 'bin', 'pm2');
  return new Promise((resolveExit) => {
    const child = spawn(process.execPath, [pm2Bin, 'monit'], { stdio: 'inherit' });
    // A signal sent to this process alone (not the terminal's group) must not orphan the monitor.
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
    child.on('error', () => resolveExit(1));
    child.on('exit', (code) => resolveExit(code ?? 0));
  });
}

function call<T>(run: (done: (error: unknown, result?: T) => void) => void): Promise<T> {
  return new Promise((resolveCall, reject) => {
    run((error, result) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolveCall(result as T)));
  });
}
