// Test support: runs `gateway …` as a user would, a separate process (`node --import tsx main.ts`), either
// to its end or, for `gateway run`, until its ready line.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));
export const BIN = fileURLToPath(new URL('../bin/gateway.js', import.meta.url));
/** tsx by location, so the process may start in any folder. */
const TSX = import.meta.resolve('tsx');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Added to this process's environment, from which the admin variables are removed. */
  env?: Record<string, string>;
  cwd?: string;
  /** Through bin/gateway.js instead of main.ts. */
  bin?: boolean;
}

function start(args: string[], options: CliOptions): { child: ChildProcess; output: CliRun; closed: Promise<CliRun> } {
  const { GATEWAY_ADMIN: _a, GATEWAY_ADMIN_TOKEN: _t, ...inherited } = process.env;
  const argv = options.bin ? [BIN, ...args] : ['--import', TSX, MAIN, ...args];
  const child = spawn(process.execPath, argv, {
    cwd: options.cwd ?? process.cwd(),
    env: { ...inherited, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: CliRun = { code: null, stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk: Buffer) => {
    output.stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output.stderr += chunk.toString();
  });
  const closed = new Promise<CliRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      output.code = code;
      resolve(output);
    });
  });
  return { child, output, closed };
}

/** Runs the command to its end. */
export function gatewayCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  return start(args, options).closed;
}

export interface ServingGateway {
  child: ChildProcess;
  /** What the process wrote so far (and its exit code once it ended). */
  output: CliRun;
  /** The ready line, or rejects with the output when the process ends or is silent for 20 s. */
  ready: Promise<string>;
  closed: Promise<CliRun>;
  /** SIGKILL when still running; waits for the end. */
  kill(): Promise<void>;
}

/** `gateway run …` in the background. */
export function serveGateway(args: string[], options: CliOptions = {}): ServingGateway {
  const { child, output, closed } = start(['run', ...args], options);
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line within 20 s: ${JSON.stringify(output)}`)), 20_000);
    child.stdout?.on('data', () => {
      const line = output.stdout.split('\n').find((text) => text.startsWith('gateway listening on'));
      if (line !== undefined) {
        clearTimeout(timer);
        resolve(line);
      }
    });
    void closed.then((end) => {
      clearTimeout(timer);
      reject(new Error(`gateway run ended before its ready line: ${JSON.stringify(end)}`));
    });
  });
  ready.catch(() => {});
  return {
    child,
    output,
    ready,
    closed,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await closed;
    },
  };
}
