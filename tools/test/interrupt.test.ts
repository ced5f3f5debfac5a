// An interrupted run ends cleanly: SIGINT, SIGTERM and SIGHUP sent to the runner at several moments of a real
// run (a target still starting, cases under way, a property run, a pm2 cluster up) end it within 10 s with
// 128 + the signal's number; no process of the run is left (each carries a tag in its environment that the
// test set), no folder either (the runner's temporary folder is the test's own), and the reports are written
// and marked interrupted. The same signal twice at once (a terminal's Ctrl-C, forwarded by npm as well) is
// one; a second signal ends the run at once, still with nothing left behind.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import { commandLine, marked } from '../../conformance/harness/sweep.ts';
import type { StopSignal } from '../conform/interrupt.ts';
import type { JsonReport } from '../conform/report-json.ts';
import { tempDir } from './run-cli.ts';

const TAG = 'INTERRUPT_TEST_TAG';
/** How long the runner may take from the signal to its exit. */
const EXIT_WITHIN_MS = 10_000;
/** How long a moment may take to come. */
const MOMENT_WITHIN_MS = 90_000;

interface Interrupted {
  code: number | null;
  exitMs: number;
  /** Tagged processes at the runner's exit, and a second later (one started late). */
  leftAtExit: string[];
  leftAfter: string[];
  /** What is left in the run's temporary folder. */
  folders: string[];
  /** The runner's bundles of the suites (.cache/conformance/run-<pid>). */
  bundlesLeft: boolean;
  reports: string;
  stdout: string;
  stderr: string;
}

/** The command lines of the processes carrying `tag`, but for `runner`. */
function tagged(tag: string, runner?: number): string[] {
  return marked(TAG, tag, new Set(runner === undefined ? [] : [runner])).map((pid) => `${pid} ${commandLine(pid) || '(gone)'}`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the runner with `args`, waits for the moment `when` finds among the run's processes, sends
 * `signals` (the second after `gapMs`), and tells how it ended. */
async function interrupt(args: string[], when: (procs: string[]) => boolean, signals: NodeJS.Signals[], gapMs = 300): Promise<Interrupted> {
  const tag = randomUUID();
  const tmp = tempDir();
  const reports = tempDir();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'tools/conform/main.ts'), ...args, '--report-dir', reports], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, TMPDIR: tmp, [TAG]: tag },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  let exitedAt = 0;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      exitedAt = Date.now();
      resolve(code);
    }),
  );
  const until = Date.now() + MOMENT_WITHIN_MS;
  while (!when(tagged(tag, child.pid))) {
    if (Date.now() > until || child.exitCode !== null) {
      child.kill('SIGKILL');
      for (const line of tagged(tag)) process.kill(Number(line.split(' ')[0]), 'SIGKILL');
      throw new Error(`the moment never came (runner ${child.exitCode === null ? 'still running' : `exited ${child.exitCode}`}):\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`);
    }
    await sleep(100);
  }
  const sentAt = Date.now();
  child.kill(signals[0]);
  if (signals[1]) {
    if (gapMs > 0) await sleep(gapMs);
    child.kill(signals[1]);
  }
  const deadline = setTimeout(() => child.kill('SIGKILL'), EXIT_WITHIN_MS * 3);
  const code = await exited;
  clearTimeout(deadline);
  const leftAtExit = tagged(tag);
  await sleep(1000);
  const leftAfter = tagged(tag);
  // Whatever the runner left is the test's to end (the assertions have their figures already).
  for (const line of leftAfter) process.kill(Number(line.split(' ')[0]), 'SIGKILL');
  return {
    code,
    exitMs: exitedAt - sentAt,
    leftAtExit,
    leftAfter,
    // The run's folders are conform-* (every case folder is inside the run's own); what else is there is the
    // targets' (they keep the user's TMPDIR: ONNX Runtime's session files, tsx's cache).
    folders: readdirSync(tmp).filter((name) => name.startsWith('conform-')),
    bundlesLeft: existsSync(join(PROJECT_ROOT, '.cache', 'conformance', `run-${child.pid}`)),
    reports,
    stdout,
    stderr,
  };
}

/** What every interrupted run shows: its exit, nothing left, the reports marked. */
function assertCleanEnd(t: ExecutionContext, run: Interrupted, signal: StopSignal, code: number): JsonReport {
  const context = `stdout:\n${run.stdout.slice(-2500)}\nstderr:\n${run.stderr.slice(-1500)}`;
  t.is(run.code, code, context);
  t.true(run.exitMs < EXIT_WITHIN_MS, `exited ${run.exitMs} ms after the signal`);
  t.deepEqual(run.leftAtExit, [], 'processes of the run alive when the runner exited');
  t.deepEqual(run.leftAfter, [], 'processes of the run alive a second later');
  t.deepEqual(run.folders, [], 'left in the run\'s temporary folder');
  t.false(run.bundlesLeft, 'the bundles of the suites are left');
  const report = JSON.parse(readFileSync(join(run.reports, 'report.json'), 'utf8')) as JsonReport;
  t.is(report.interrupted?.signal, signal);
  t.is(report.verdict.exitCode, code);
  t.regex(readFileSync(join(run.reports, 'junit.xml'), 'utf8'), new RegExp(`<testsuites name="conformance \\(interrupted by ${signal}\\)"`));
  t.regex(readFileSync(join(run.reports, 'report.html'), 'utf8'), new RegExp(`Interrupted by ${signal}`));
  t.regex(run.stdout, new RegExp(`^INTERRUPTED by ${signal} at `, 'm'));
  return report;
}

/** A target that takes long to start: the signal comes while the case waits for it. */
const SLOW_START = `static=cmd:sh -c 'sleep 40; exec node {root}/.cache/reference/static.mjs'`;
const has = (pattern: RegExp, n = 1) => (procs: string[]) => procs.filter((p) => pattern.test(p)).length >= n;

test.serial('SIGINT while a target is starting: exit 130, nothing left, the case that did not end is skipped', async (t) => {
  const run = await interrupt(['--surface', 'static', '--target', SLOW_START, '--only', 'static/health/default-path/**'], has(/sleep 40/), ['SIGINT']);
  const report = assertCleanEnd(t, run, 'SIGINT', 130);
  const ran = report.results.filter((r) => r.id.startsWith('static/health/default-path/'));
  t.true(ran.length > 0);
  t.true(ran.every((r) => r.outcome === 'skipped' && /interrupted/.test(r.message)), JSON.stringify(ran.map((r) => [r.outcome, r.message])));
});

test.serial('SIGTERM while cases are under way: exit 143, nothing left, the cases that ended are in the reports', async (t) => {
  // The moment: several reference servers up at once, some cases already ended.
  const run = await interrupt(['--surface', 'static'], has(/\.cache\/reference\/static\.mjs/, 3), ['SIGTERM']);
  assertCleanEnd(t, run, 'SIGTERM', 143);
});

test.serial('SIGHUP during a property run: exit 129, nothing left', async (t) => {
  const run = await interrupt(['--surface', 'static', '--only', 'static/redirects/default-status-301/any-valid-rule-set'], has(/\.cache\/reference\/static\.mjs/), ['SIGHUP'], 0);
  const report = assertCleanEnd(t, run, 'SIGHUP', 129);
  t.is(report.results.find((r) => r.id === 'static/redirects/default-status-301/any-valid-rule-set')?.outcome, 'skipped');
});

test.serial('SIGINT with a pm2 cluster up: its daemon and every worker end with the run', async (t) => {
  const run = await interrupt(['--surface', 'static', '--only', 'static/cli/cluster-manager/**'], has(/PM2|pm2/), ['SIGINT']);
  assertCleanEnd(t, run, 'SIGINT', 130);
});

test.serial('the same signal twice at once is one Ctrl-C (npm forwards what the terminal also sent): the ordinary stop', async (t) => {
  const run = await interrupt(['--surface', 'static'], has(/\.cache\/reference\/static\.mjs/, 3), ['SIGINT', 'SIGINT'], 20);
  assertCleanEnd(t, run, 'SIGINT', 130);
  t.notRegex(run.stderr, /second signal/);
});

// The ordinary stop is short, so the second signal comes with the first: another one, since the kernel
// merges two pending signals of one kind and the runner takes a repeat of the first within 500 ms as one.
test.serial('a second signal stops at once, still leaving nothing behind (no reports)', async (t) => {
  const run = await interrupt(['--surface', 'static'], has(/\.cache\/reference\/static\.mjs/, 3), ['SIGINT', 'SIGTERM'], 0);
  // Sent back to back, the two may reach the runner in either order (the kernel hands pending signals to
  // whichever of its threads takes them): the exit code is the first one's, whichever that was.
  const first = /interrupted \((SIG[A-Z]+)\)/.exec(run.stderr)?.[1] as NodeJS.Signals | undefined;
  const second = /second signal \((SIG[A-Z]+)\)/.exec(run.stderr)?.[1];
  t.deepEqual([first, second].sort(), ['SIGINT', 'SIGTERM'], run.stderr.slice(-2000));
  t.is(run.code, 128 + constants.signals[first ?? 'SIGINT'], `${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`);
  t.true(run.exitMs < 3000, `exited ${run.exitMs} ms after the first signal`);
  t.deepEqual(run.leftAtExit, []);
  t.deepEqual(run.leftAfter, []);
  t.deepEqual(run.folders, []);
  t.false(run.bundlesLeft);
  t.regex(run.stderr, /second signal \(SIG[A-Z]+\): stopping at once/);
  t.false(existsSync(join(run.reports, 'report.json')), 'a report was written');
});
