// The processes of the translation benchmarks: the reference server pinned to core 0 (an Apertium
// pipeline it starts inherits that core), and a client process pinned to core 1 that makes the calls and
// times them (like autocannon for the static benchmarks), so the client's work does not share the
// server's core. Every process here is started and stopped by its own PID.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../../conformance/harness/launch.ts';
import { HAS_TASKSET } from '../peers.ts';

const SERVER_START_MS = 60_000;
export const TMP = join(PROJECT_ROOT, '.tmp', 'bench-translate');

export const pinned = (core: string, argv: string[]): string[] => (HAS_TASKSET ? ['taskset', '-c', core, ...argv] : argv);

export interface Server {
  port: number;
  stop(): Promise<void>;
}

/** Starts reference/translate under tsx on a free port (`--port 0`), pinned to core 0. */
export function startServer(): Promise<Server> {
  const argv = pinned('0', [process.execPath, '--import', 'tsx', join(PROJECT_ROOT, 'reference/translate/main.ts'), '--port', '0']);
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, TRANSLATE_BIND: '127.0.0.1' },
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`translate server did not listen within ${SERVER_START_MS / 1000} s`));
    }, SERVER_START_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`translate server ended before listening (${signal ?? `exit ${code}`})`));
    });
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      out += chunk;
      const match = /listening on 127\.0\.0\.1:(\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        child.stdout!.removeAllListeners('data');
        child.stdout!.resume();
        resolve({ port: Number(match[1]), stop });
      }
    });
  });
}

/** Runs client.ts pinned to core 1 with `args`; resolves to the JSON it prints. */
export function runClient<T>(args: object): Promise<T> {
  const argv = pinned('1', [process.execPath, '--import', 'tsx', join(PROJECT_ROOT, 'tools/bench/translate/client.ts'), JSON.stringify(args)]);
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.on('close', (code) => {
      try {
        if (code !== 0) throw new Error(`benchmark client exited with ${code}`);
        resolve(JSON.parse(out) as T);
      } catch (err) {
        reject(err);
      }
    });
  });
}

/** Runs a command pinned to core 0 with stdin from `input` and stdout to `output`; wall milliseconds,
 * start-up included. */
export function timeCommand(command: string[], input: number, output: number): Promise<number> {
  const argv = pinned('0', command);
  const start = performance.now();
  const child: ChildProcess = spawn(argv[0]!, argv.slice(1), { stdio: [input, output, 'pipe'] });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => {
    err += c.toString();
  });
  return new Promise((resolve, reject) => {
    child.on('close', (code) => {
      const ms = performance.now() - start;
      if (code === 0) resolve(ms);
      else reject(new Error(`${command.join(' ')} exited with ${code}: ${err.trim()}`));
    });
  });
}
