// Starts a `cmd:` target: writes its files and config into a fresh directory, reserves ports, runs the
// command template in its own process group, waits until every port accepts connections, and stops the
// whole group afterwards.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PROJECT_ROOT } from './project-root.ts';
import { freePorts, releasePorts } from './free-ports.ts';
import { Inconclusive, NotApplicable } from './inconclusive.ts';
import { LAUNCH_MARK, RUN_MARK, runMark, startMark } from './sweep.ts';

export { PROJECT_ROOT } from './project-root.ts';

/** The runner's TMPDIR ('' when it had none), which targets get back (targetEnvironment). */
export const TARGET_TMPDIR = 'CONFORM_TARGET_TMPDIR';

export type FileContent = string | Uint8Array | { content: string | Uint8Array; mode: number };

export interface LaunchSpec {
  /** Files to create, relative to the target directory (sub-folders are created). */
  files?: Record<string, FileContent>;
  /** The config file; `{config}` expands to its path. Given a function, it receives the reserved ports. */
  config?: { name: string; content: string | ((ports: number[]) => string | Promise<string>) };
  /** How many ports to reserve; `{port}` is the first. Default 1. */
  ports?: number;
  /** Extra environment; `undefined` removes a variable (for example PORT, which is set to `{port}`). */
  env?: Record<string, string | undefined>;
  /** `ports` (default): ready when every port in `listen` accepts a connection. `exit`: expect the process to end. */
  wait?: 'ports' | 'exit';
  /** Ports that must accept connections before the target counts as ready; default the reserved ones. */
  listen?: number[];
  /** Extra arguments appended to the command. */
  args?: string[];
  /** Text written to the target's standard input, which is then closed. */
  stdin?: string;
  /** Run in this existing directory (kept afterwards) instead of a fresh one: a second command on the
   * same files, such as stopping what the first one started. */
  dir?: string;
  /** Called with the target's folder when its start fails, before the folder is removed (to keep a copy). */
  onFailedStart?: (dir: string) => void;
}

export interface Launched {
  dir: string;
  ports: number[];
  port: number;
  configPath: string | undefined;
  configText: string | undefined;
  commandLine: string;
  /** The variables the start sets beyond the inherited environment, as `NAME=value` words (`-u NAME` for
   * one removed): with `commandLine`, what a person runs to start it the same way. */
  envLine: string;
  stdout(): string;
  stderr(): string;
  /** Resolves when the process ends. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** How its start ended: listening on every port awaited, exited first, the case ended, or timed out. For a
   * `wait: 'exit'` start, `listening` tells a command that was expected to end (a startup error) that it
   * is serving instead. */
  started: Promise<StartState>;
  /** Sends a signal to the target's process group. */
  kill(signal: NodeJS.Signals): void;
  stop(): Promise<void>;
}

/** The target did not start for a case: the case's setup was refused, so it cannot judge its clause. */
export type StartState = 'listening' | 'exited' | 'aborted' | 'timeout';

/** How a start that failed was made: what a reproducer needs to try it again. */
export interface FailedStart {
  configPath: string | undefined;
  configText: string | undefined;
  commandLine: string;
  envLine: string;
}

export class TargetStartError extends Inconclusive {
  override name = 'TargetStartError';
  readonly start: FailedStart | undefined;

  constructor(message: string, start?: FailedStart) {
    super(message);
    this.start = start;
  }
}

export const READY_TIMEOUT_MS = 30_000;
/** Targets starting at once in one worker: a worker's cases all start together (several files' cases when
 * short files share it), and a slow target (one compiling TypeScript at start, say) would otherwise starve
 * itself past its readiness limit. */
const STARTING_AT_ONCE = 3;
export const STOP_GRACE_MS = 3_000;
const OUTPUT_LIMIT = 64 * 1024;

/** `value` as one shell word. */
export function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{(port|config|dir|root|node)\}/g, (whole, name: string) => {
    const value = values[name];
    return value === undefined ? whole : shellQuote(value);
  });
}

export function writeFiles(dir: string, files: Record<string, FileContent>): void {
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    if (typeof content === 'object' && 'mode' in content) {
      writeFileSync(path, content.content);
      chmodSync(path, content.mode);
    } else {
      writeFileSync(path, content);
    }
  }
}

/** Whether something accepts TCP connections on the loopback port. */
export function portOpen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

function capture(stream: NodeJS.ReadableStream | null): () => string {
  let text = '';
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => {
    text = (text + chunk).slice(-OUTPUT_LIMIT);
  });
  return () => text;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** PATH without the folders of the harness's own package tools (npm puts node_modules/.bin first when it
 * runs a script): a target's commands must resolve to its own, not to the harness's. */
function ownPath(path: string | undefined): string | undefined {
  return path
    ?.split(':')
    .filter((dir) => !/\/node_modules\/\.bin\/?$/.test(dir) && !dir.includes('/node-gyp-bin'))
    .join(':');
}

/** The environment of a start: the runner's, less what belongs to the harness (npm's script variables, the
 * harness's own settings and tools), plus PORT, the marks of sweep.ts and the layers given. */
export function targetEnvironment(port: number | undefined, mark: string, ...layers: Record<string, string | undefined>[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('npm_') && !name.startsWith('CONFORM_') && name !== 'INIT_CWD' && name !== 'NODE_OPTIONS') env[name] = value;
  }
  env.PATH = ownPath(process.env.PATH);
  // The runner gives the suites a temporary folder of the run's own (removed with it); a target keeps the
  // user's, as it would outside a run (its caches there stay between runs).
  const userTmpdir = process.env[TARGET_TMPDIR];
  if (userTmpdir !== undefined) {
    if (userTmpdir === '') delete env.TMPDIR;
    else env.TMPDIR = userTmpdir;
  }
  if (port !== undefined) env.PORT = String(port);
  env[RUN_MARK] = runMark;
  env[LAUNCH_MARK] = mark;
  for (const layer of layers) {
    for (const [name, value] of Object.entries(layer)) {
      if (value === undefined) delete env[name];
      else env[name] = value;
    }
  }
  return env;
}

/** Environment values may use {port} and {dir} too (not shell-quoted: they are not parsed by a shell). */
function expandEnv(env: Record<string, string | undefined>, values: Record<string, string>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env)) {
    out[name] = value?.replace(/\{(port|dir)\}/g, (_, key: string) => values[key]!);
  }
  return out;
}

let starting = 0;
const waitingToStart: (() => void)[] = [];
/** Per case (the signal it passes to `launch`): told when one of its starts begins and ends waiting for a slot. */
const slotWaitWatchers = new WeakMap<AbortSignal, (waiting: boolean) => void>();

/** Has `watcher` told when a start of the case whose end is `signal` waits for a slot, and when the wait ends:
 * the wait is for other cases' starts, which check.ts leaves out of the case's time limit (the last cases of
 * a file wait for all the others' starts, which on a busy machine took longer than the limit). */
export function watchSlotWaits(signal: AbortSignal, watcher: (waiting: boolean) => void): void {
  slotWaitWatchers.set(signal, watcher);
}

/** `waiting` for what other cases hold (a start slot, a fixed port), left out of the time limit of the case
 * whose end is `signal` (see watchSlotWaits). */
export async function waitingForOthers<T>(signal: AbortSignal | undefined, waiting: Promise<T>): Promise<T> {
  const watcher = signal === undefined ? undefined : slotWaitWatchers.get(signal);
  watcher?.(true);
  try {
    return await waiting;
  } finally {
    watcher?.(false);
  }
}

/** Waits for one of the worker's STARTING_AT_ONCE start slots; the function returned frees it (also for
 * targets started elsewhere, such as stdio servers: mcp-client.ts). A slot is held while a target starts,
 * never while it runs. `signal` gives up the wait. */
export async function startSlot(signal?: AbortSignal): Promise<() => void> {
  if (starting >= STARTING_AT_ONCE) {
    await waitingForOthers(
      signal,
      new Promise<void>((resolve, reject) => {
        const wake = (): void => {
          signal?.removeEventListener('abort', giveUp);
          resolve();
        };
        const giveUp = (): void => {
          const at = waitingToStart.indexOf(wake);
          if (at >= 0) waitingToStart.splice(at, 1);
          reject(new Inconclusive('the case ended while its target waited to start'));
        };
        if (signal?.aborted) return giveUp();
        signal?.addEventListener('abort', giveUp, { once: true });
        waitingToStart.push(wake);
      }),
    );
  }
  starting++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    starting--;
    waitingToStart.shift()?.();
  };
}

/** Starts the target (at most STARTING_AT_ONCE per worker are starting at any moment). `signal` (the case's
 * end) stops a start still under way. */
export async function launch(template: string, baseEnv: Record<string, string>, spec: LaunchSpec, signal?: AbortSignal): Promise<Launched> {
  const release = await startSlot(signal);
  try {
    return await start(template, baseEnv, spec, release, signal);
  } catch (err) {
    release();
    throw err;
  }
}

const POLL_MS = 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function start(
  template: string,
  baseEnv: Record<string, string>,
  spec: LaunchSpec,
  release: () => void,
  signal: AbortSignal | undefined,
): Promise<Launched> {
  const ownDir = spec.dir === undefined;
  // Ports first: a folder made before a step that throws would outlive the case.
  const ports = await freePorts(spec.ports ?? 1);
  const port = ports[0]!;
  const dir = spec.dir ?? mkdtempSync(join(tmpdir(), 'conform-'));
  let configPath: string | undefined;
  let configText: string | undefined;
  try {
    writeFiles(dir, spec.files ?? {});
    if (spec.config) {
      configPath = join(dir, spec.config.name);
      configText = typeof spec.config.content === 'function' ? await spec.config.content(ports) : spec.config.content;
      mkdirSync(dirname(configPath), { recursive: true });
      writeFileSync(configPath, configText);
    } else if (/\{config\}/.test(template)) {
      throw new NotApplicable(
        'the command passes {config}, and this case starts the target without a configuration file (leave {config} out: the file is written under its default name in the working directory)',
      );
    }
  } catch (err) {
    if (ownDir) rmSync(dir, { recursive: true, force: true });
    releasePorts(ports);
    throw err;
  }
  const values = { port: String(port), dir, root: PROJECT_ROOT, node: process.execPath, ...(configPath ? { config: configPath } : {}) };
  const commandLine = [expandTemplate(template, values), ...(spec.args ?? []).map(shellQuote)].join(' ');
  const mark = startMark();
  const layers = [expandEnv(baseEnv, { port: String(port), dir }), expandEnv(spec.env ?? {}, { port: String(port), dir })];
  const set: Record<string, string | undefined> = { PORT: String(port), ...layers[0], ...layers[1] };
  const envLine = Object.entries(set)
    .map(([name, value]) => (value === undefined ? `-u ${name}` : `${name}=${shellQuote(value)}`))
    .join(' ');
  // /bin/sh by path: a target's environment may have a PATH that finds nothing (on purpose).
  const child = spawn('/bin/sh', ['-c', `exec ${commandLine}`], {
    cwd: dir,
    detached: true,
    stdio: [spec.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    env: targetEnvironment(port, mark.value, ...layers),
  });
  if (spec.stdin !== undefined) {
    child.stdin?.on('error', () => {}); // the target may exit without reading it
    child.stdin?.end(spec.stdin);
  }
  const stdout = capture(child.stdout);
  const stderr = capture(child.stderr);
  let ended = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    // 'close', not 'exit': it comes after the pipes drained, so stderr is complete.
    child.once('close', (code, sig) => {
      ended = true;
      done({ code, signal: sig });
    });
    child.once('error', () => {
      ended = true;
      done({ code: null, signal: null });
    });
  });
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (!ended) {
        killGroup(child, 'SIGTERM');
        const timer = setTimeout(() => killGroup(child, 'SIGKILL'), STOP_GRACE_MS);
        await exited;
        clearTimeout(timer);
      }
      killGroup(child, 'SIGKILL'); // stragglers of the group
      mark.sweep(); // and those that left it
      if (ownDir) rmSync(dir, { recursive: true, force: true });
      releasePorts(ports);
    })();
    return stopping;
  };
  const kill = (sig: NodeJS.Signals): void => killGroup(child, sig);
  const listen = spec.listen ?? ports;
  const started = watchStart(listen, () => ended, signal);
  // The slot is for starting: given back once the target listens, has ended, or has had its time.
  void started.then(release);
  const launched: Launched = { dir, ports, port, configPath, configText, commandLine, envLine, stdout, stderr, exited, started, kill, stop };
  if (spec.wait === 'exit') return launched;
  const how = await started;
  if (how === 'listening') return launched;
  const why = how === 'exited' ? 'exited before listening' : how === 'aborted' ? 'was still starting when the case ended' : `not listening on ${listen.join(', ')} after ${READY_TIMEOUT_MS} ms`;
  const err = stderr().trim();
  try {
    spec.onFailedStart?.(dir);
  } finally {
    await stop();
  }
  throw new TargetStartError(`target ${why}: ${commandLine}${err ? `\n--- stderr ---\n${err}` : ''}`, { configPath, configText, commandLine, envLine });
}

/** How a start ended: every port in `listen` accepts connections, the process ended, the case ended, or
 * READY_TIMEOUT_MS passed. */
async function watchStart(listen: number[], ended: () => boolean, signal: AbortSignal | undefined): Promise<StartState> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (const p of listen) {
    while (!(await portOpen(p))) {
      if (ended()) return 'exited';
      if (signal?.aborted) return 'aborted';
      if (Date.now() > deadline) return 'timeout';
      await sleep(POLL_MS);
    }
  }
  return 'listening';
}
