// One run of the conformance tool, as the suite-time benchmarks time it: its wall time, the CPU time it and
// every process under it used (what the machine's cores had to do: the run's floor is that over the cores),
// and its summary.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';

export interface ConformRun {
  code: number | null;
  ms: number;
  /** User and system CPU of the run and everything under it, in ms (NaN without /proc). */
  cpuMs: number;
  passed: number;
  failed: number;
  errors: number;
  notApplicable: number;
}

/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux). */
const TICK_MS = 10;

/** CPU time of the children this process has waited for (and theirs), from /proc/self/stat. */
function childrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * TICK_MS;
  } catch {
    return Number.NaN;
  }
}

/** `conform` of the checkout at `root` with `args` (its own report folder, removed after), its stdout
 * discarded. */
export async function runConform(args: string[], root = PROJECT_ROOT): Promise<ConformRun> {
  const reports = mkdtempSync(join(tmpdir(), 'bench-conform-'));
  try {
    const cpuBefore = childrenCpuMs();
    const started = Date.now();
    const argv = ['--import', 'tsx', join(root, 'tools/conform/main.ts'), '--report-dir', reports, ...args];
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, argv, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
      child.once('error', reject);
      child.once('close', resolve);
    });
    const ms = Date.now() - started;
    const { summary: s } = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as { summary: Omit<ConformRun, 'code' | 'ms' | 'cpuMs'> };
    return { code, ms, cpuMs: childrenCpuMs() - cpuBefore, passed: s.passed, failed: s.failed, errors: s.errors, notApplicable: s.notApplicable };
  } finally {
    rmSync(reports, { recursive: true, force: true });
  }
}

export const outcome = (r: ConformRun) =>
  `${r.passed} passed, ${r.failed} failed, ${r.errors} errors, ${r.notApplicable} not applicable${r.code === 0 ? '' : ` (exit ${r.code})`}`;
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
