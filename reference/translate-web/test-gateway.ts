// For the gateway's own tests: the gateway from source on a free loopback port with the given environment,
// or run to its exit (start-up failures), plus small HTTP helpers.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));

/** The variables the gateway reads, cleared so the caller's shell cannot leak into a test. */
const CLEARED = ['PORT', 'WEB_BIND', 'TRANSLATE_GRPC_URL', 'TRANSLATE_TIMEOUT_MS', 'LOCALIZE_TIMEOUT_MS', 'TRANSCRIBE_TIMEOUT_MS'];

function spawnGateway(env: Record<string, string>, args: string[] = []): ChildProcess {
  const base = { ...process.env };
  for (const name of CLEARED) delete base[name];
  return spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    env: { ...base, PORT: '0', WEB_BIND: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export interface TestGateway {
  url: string;
  stdout(): string;
  stderr(): string;
  stop(): Promise<void>;
}

export async function startGateway(env: Record<string, string>): Promise<TestGateway> {
  const child = spawnGateway(env);
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  const exited = once(child, 'exit');
  while (!/listening on http:\/\/\S+:\d+\n/.test(stdout)) {
    await Promise.race([once(child.stdout!, 'data'), exited]);
    if (child.exitCode !== null) throw new Error(`the gateway exited with ${child.exitCode}: ${stderr}`);
  }
  const [, host, port] = /listening on http:\/\/(\S+):(\d+)\n/.exec(stdout)!;
  return {
    url: `http://${host}:${port}`,
    stdout: () => stdout,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill();
      await exited;
    },
  };
}

/** Runs the gateway until it exits (for start-up failures and --help), killed after `timeoutMs`. */
export async function runGateway(env: Record<string, string>, args: string[] = [], timeoutMs = 10_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnGateway(env, args);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill(), timeoutMs);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

export function postJson(url: string, body: unknown, init: RequestInit = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), ...init });
}
