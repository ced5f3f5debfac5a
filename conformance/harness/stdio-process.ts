// Stdio targets: a `cmd:` template started as a child process that speaks on its standard input and output
// (a tool server for AI clients), not on a port. `stdioCommand` prepares one start — a fresh working
// directory `{dir}` with the files a case needs, the expanded command line run as `/bin/sh -c 'exec …'`, and
// the environment an AI client passes on — for the MCP client (mcp-client.ts) or for `spawnStdio`, the raw
// byte-level view used by wire checks.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expandTemplate, type FileContent, PROJECT_ROOT, writeFiles } from './launch.ts';
import { LAUNCH_MARK, RUN_MARK, runMark, startMark } from './sweep.ts';

export interface StdioSpec {
  /** Environment on top of the target's; `undefined` leaves a variable out. */
  env?: Record<string, string | undefined>;
  /** Files to create in the working directory (relative names). */
  files?: Record<string, FileContent>;
}

export interface StdioCommand {
  /** `/bin/sh` by path: a target's environment may have a PATH that finds nothing. */
  command: string;
  args: string[];
  /** The whole environment of the process. */
  env: Record<string, string>;
  /** The working directory, `{dir}`: fresh, removed by `cleanup`. */
  cwd: string;
  /** The expanded command line, for reproducers. */
  commandLine: string;
  /** The variables beyond the inherited minimum, as `NAME=value` words, for reproducers. */
  envLine: string;
  cleanup(): void;
}

const STOP_GRACE_MS = 2_000;

function shellWord(value: string): string {
  return /^[\w@%+=:,./-]*$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * Prepares a start of `template` (placeholders `{root}`, `{node}`, `{dir}`). The environment is what MCP
 * clients give a server they start — the few inherited variables of the SDK's `getDefaultEnvironment()`
 * (HOME, LOGNAME, PATH, SHELL, TERM, USER) — plus the target's `env` and the case's; nothing else of the
 * runner's environment (no credentials, no TRANSLATE_GRPC_URL) reaches the target.
 */
export function stdioCommand(template: string, targetEnv: Record<string, string>, spec: StdioSpec = {}): StdioCommand {
  const cwd = mkdtempSync(join(tmpdir(), 'conform-stdio-'));
  writeFiles(cwd, spec.files ?? {});
  const values = { root: PROJECT_ROOT, node: process.execPath, dir: cwd };
  const expand = (value: string): string => value.replace(/\{(root|dir)\}/g, (_, key: 'root' | 'dir') => values[key]);
  const extra: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries({ ...targetEnv, ...spec.env })) extra[name] = value === undefined ? undefined : expand(value);
  const env: Record<string, string> = { ...getDefaultEnvironment() };
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  // The marks every start carries (sweep.ts): what the server leaves running (a child, a daemon) is stopped
  // with it, and by the run at its end.
  const mark = startMark();
  env[RUN_MARK] = runMark;
  env[LAUNCH_MARK] = mark.value;
  const commandLine = expandTemplate(template, values);
  const envLine = Object.entries(extra)
    .map(([name, value]) => (value === undefined ? `-u ${name}` : `${name}=${shellWord(value)}`))
    .join(' ');
  return {
    command: '/bin/sh',
    args: ['-c', `exec ${commandLine}`],
    env,
    cwd,
    commandLine,
    envLine,
    cleanup: () => {
      mark.sweep();
      rmSync(cwd, { recursive: true, force: true });
    },
  };
}

export interface StdioProcess {
  readonly pid: number | undefined;
  readonly commandLine: string;
  readonly cwd: string;
  /** Writes one line (a newline is appended). */
  writeLine(line: string): void;
  /** Ends standard input. */
  endInput(): void;
  /** Standard output so far, as received. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the first complete stdout line for which `match` is true (rejects after `timeoutMs`). */
  waitForLine(match: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<void>;
}

/** Starts the command with pipes on all three streams, in its own process group (stopped as a whole). */
export function spawnStdio(template: string, targetEnv: Record<string, string>, spec: StdioSpec = {}): StdioProcess {
  const prepared = stdioCommand(template, targetEnv, spec);
  const child = spawn(prepared.command, prepared.args, { cwd: prepared.cwd, env: prepared.env, detached: true, stdio: 'pipe' });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    out += chunk;
    for (const wake of waiters) wake();
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    err += chunk;
  });
  child.stdin.on('error', () => {}); // the target may exit without reading
  let ended = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.once('close', (code, signal) => {
      ended = true;
      for (const wake of waiters) wake();
      done({ code, signal });
    });
    child.once('error', () => {
      ended = true;
      done({ code: null, signal: null });
    });
  });
  const killGroup = (signal: NodeJS.Signals): void => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  const waitForLine = (match: (line: string) => boolean, timeoutMs = 15_000): Promise<string> =>
    new Promise((resolve, reject) => {
      const look = (): boolean => {
        const found = out.split('\n').slice(0, -1).find(match);
        if (found !== undefined) resolve(found);
        else if (ended) reject(new Error(`the target exited before writing the line awaited; stdout: ${out.slice(-500)}; stderr: ${err.slice(-500)}`));
        else return false;
        return true;
      };
      if (look()) return;
      const timer = setTimeout(() => {
        waiters.delete(wake);
        reject(new Error(`no such line on stdout after ${timeoutMs} ms; stdout: ${out.slice(-500)}`));
      }, timeoutMs);
      const wake = (): void => {
        if (!look()) return;
        clearTimeout(timer);
        waiters.delete(wake);
      };
      waiters.add(wake);
    });
  return {
    pid: child.pid,
    commandLine: prepared.commandLine,
    cwd: prepared.cwd,
    writeLine: (line) => {
      child.stdin.write(`${line}\n`);
    },
    endInput: () => child.stdin.end(),
    stdout: () => out,
    stderr: () => err,
    waitForLine,
    exited,
    stop: async () => {
      if (!ended) {
        child.stdin.end();
        killGroup('SIGTERM');
        const timer = setTimeout(() => killGroup('SIGKILL'), STOP_GRACE_MS);
        await exited;
        clearTimeout(timer);
      }
      killGroup('SIGKILL'); // stragglers of the group
      prepared.cleanup();
    },
  };
}
