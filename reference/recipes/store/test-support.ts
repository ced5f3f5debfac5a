// The store's tests start its writer process bundled (a bundle starts in a fraction of the time tsx needs, and
// the crash test starts it often).
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

/** Bundles store-writer.ts into `folder` (lowdb included); returns the bundle's path. */
export function buildWriter(folder: string): string {
  const outfile = join(folder, 'store-writer.mjs');
  buildSync({
    entryPoints: [fileURLToPath(new URL('./store-writer.ts', import.meta.url))],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
  });
  return outfile;
}

export interface Writer {
  child: ChildProcess;
  /** Resolves with `ready` once the writer printed it, or with its exit code and stderr if it ended first. */
  started: Promise<{ ready: true } | { ready: false; code: number | null; stderr: string }>;
  /** Resolves when the process has ended. */
  ended: Promise<void>;
}

export function startWriter(bundle: string, dbFile: string, args: string[]): Writer {
  const child = spawn(process.execPath, [bundle, ...args], {
    env: { ...process.env, RECIPES_DB_FILE: dbFile },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const ended = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const started = new Promise<Awaited<Writer['started']>>((resolve) => {
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk;
      if (stdout.includes('ready\n')) resolve({ ready: true });
    });
    child.once('close', (code) => resolve({ ready: false, code, stderr }));
  });
  return { child, started, ended };
}
