// Runs the project's own commands as a user would, for the project tests.
import { spawn } from 'node:child_process';
import { buildSync } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runTool(tool: 'conform' | 'spec', args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runScript(join('tools', tool, 'main.ts'), args, env);
}

/** Runs a TypeScript file of the project (path relative to the root) under tsx. */
export function runScript(script: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    // A group of its own, ended with the test process: a test that times out leaves no run behind.
    const child = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, script), ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    running.add(child.pid!);
    child.once('close', () => running.delete(child.pid!));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const made: string[] = [];
const running = new Set<number>();
// The project's tests leave no runs or folders behind either.
process.once('exit', () => {
  for (const pid of running) {
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder, removed when the test process ends. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'conform-test-'));
  made.push(dir);
  return dir;
}

/** Bundles a test target's entry (project-relative) into `outfile` (project-relative), as the reference is
 * bundled: a suite starts the target for almost every case, and a bundle starts in a fraction of tsx's time. */
export function bundleTarget(entry: string, outfile: string): void {
  buildSync({
    entryPoints: [join(PROJECT_ROOT, entry)],
    outfile: join(PROJECT_ROOT, outfile),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
  });
}
