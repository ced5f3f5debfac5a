// Runs the suites' ava files as a child process with the harness environment and reads its TAP stream. TAP
// says pass or fail per case; anything TAP reports that is not a case (a file that failed to load, a worker
// that crashed) is a harness error. ava and its workers run in a process group of their own, so a Ctrl-C at
// the terminal reaches the runner alone, which stops the run its own way (interrupt.ts): the group at once,
// then every process the run started (run-suites.ts).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Parser, type Result } from 'tap-parser';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';

export interface TapOutcome {
  ok: boolean;
  skip: boolean;
  /** Failure message and details, flattened to text. */
  detail: string;
}

export interface AvaRun {
  tap: Map<string, TapOutcome>;
  harnessErrors: string[];
  stderr: string;
}

/** A running ava: `done` resolves when it has ended; `kill` ends it and its workers at once. */
export interface AvaProcess {
  done: Promise<AvaRun>;
  kill(): void;
}

/** ava's command line, wherever npm put the package (this package's node_modules, or the user's beside it). */
const AVA_CLI = join(dirname(createRequire(import.meta.url).resolve('ava')), 'cli.mjs');
const STDERR_LIMIT = 32 * 1024;

/** ava prefixes titles with the file (`site › static/...`); the case ID is the part after the last `›`. */
function caseId(name: string): string {
  const parts = name.split(' › ');
  return parts[parts.length - 1]!.trim();
}

function describe(diag: unknown): string {
  if (!diag || typeof diag !== 'object') return '';
  const d = diag as { message?: unknown; details?: Record<string, unknown>; at?: unknown };
  const lines: string[] = [];
  if (typeof d.message === 'string' && d.message) lines.push(d.message);
  for (const [label, value] of Object.entries(d.details ?? {})) lines.push(`${label}\n${String(value)}`);
  if (lines.length === 0 && typeof d.at === 'string') lines.push(`at ${d.at}`);
  return lines.join('\n');
}

export function runAva(config: string, files: string[], env: Record<string, string>, onCase: (id: string, tap: TapOutcome) => void): AvaProcess {
  const child = spawn(process.execPath, [AVA_CLI, '--config', config, '--tap', ...files], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const kill = (): void => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  const done = new Promise<AvaRun>((resolve, reject) => {
    const tap = new Map<string, TapOutcome>();
    const harnessErrors: string[] = [];
    let stderr = '';
    const parser = new Parser();
    parser.on('assert', (res: Result) => {
      const id = caseId(res.name);
      if (!/^[a-z0-9-]+(\/[a-z0-9-]+){3,}$/.test(id)) {
        harnessErrors.push(`${res.name}${res.diag ? `\n${describe(res.diag)}` : ''}`);
        return;
      }
      const outcome = { ok: res.ok, skip: Boolean(res.skip) || Boolean(res.todo), detail: res.ok ? '' : describe(res.diag) };
      tap.set(id, outcome);
      onCase(id, outcome);
    });
    child.stdout.pipe(parser);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_LIMIT);
    });
    child.once('error', reject);
    child.once('close', () => resolve({ tap, harnessErrors, stderr }));
  });
  return { done, kill };
}
