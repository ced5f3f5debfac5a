// A Stryker test runner whose tests are the conformance suite files of one surface, run over the wire by
// `conform` against the reference built from Stryker's sandbox (its sources instrumented: every mutant is in
// the bundle, the one named by __STRYKER_ACTIVE_MUTANT__ in the target's environment, set with --target-env,
// is the one that acts).
// The dry run runs each file alone with every target loading coverage-dump.mjs, which gives what each file
// reaches: Stryker then judges a mutant with the files that reach it, and one that none reaches is
// "no coverage" (with --check-reach, a survivor is run against the whole suite as well, which checks that
// reach). A mutant is killed when a case of the run failed (a should-clause's too: the suite noticed),
// or could not judge (the mutated target did not start, answered nothing readable, did not end in time).
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { commonTokens, declareClassPlugin, PluginKind, tokens } from '@stryker-mutator/api/plugin';
import type { StrykerOptions } from '@stryker-mutator/api/core';
import {
  type DryRunOptions,
  type DryRunResult,
  DryRunStatus,
  type MutantRunOptions,
  type MutantRunResult,
  MutantRunStatus,
  type TestResult,
  type TestRunner,
  TestStatus,
} from '@stryker-mutator/api/test-runner';
import { discoverSuites } from '../conform/suites.ts';

/** What main.ts passes in Stryker's options, under `conformance`. */
export interface RunnerSettings {
  surface: string;
  /** Where each run's report folder goes (a fresh one per run, removed after it is read). */
  workDir: string;
  /** Run each survivor of the files that reach it against the whole suite too (--check-reach). */
  checkReach: boolean;
}

interface CaseLine {
  id: string;
  outcome: string;
  message?: string;
}

interface ConformRun {
  code: number | null;
  timedOut: boolean;
  ms: number;
  /** The cases that turned the run red (fail, error), from its report.json. */
  red: CaseLine[];
  /** The must-clauses the run judged (a case passed or failed). */
  mustJudged: string[];
  output: string;
}

const RED = new Set(['fail', 'error']);
/** In the work folder: one JSON line per survivor of its reach that the whole suite killed. */
export const REACH_MISSES = 'reach-misses.jsonl';
/** In the work folder: the reach the dry run measured (Reach). */
export const REACH = 'reach.json';

export interface Reach {
  /** Reference module → the suite files that reach one of its mutants (of those this run made). */
  modules: Record<string, string[]>;
  /** Suite file → the must-clauses its cases judged against the unmutated reference. */
  files: Record<string, string[]>;
}
/** How long the runner gets to stop its targets after SIGTERM before it is killed. */
const STOP_GRACE_MS = 15_000;

export class ConformanceRunner implements TestRunner {
  static inject = tokens(commonTokens.options);
  readonly #settings: RunnerSettings;
  readonly #files: string[];
  #running: ChildProcess | undefined;
  #dryRunMs = 0;

  constructor(options: StrykerOptions) {
    this.#settings = (options as StrykerOptions & { conformance: RunnerSettings }).conformance;
    const suite = discoverSuites().find((s) => s.surface === this.#settings.surface);
    if (!suite) throw new Error(`no conformance suite for surface ${this.#settings.surface}`);
    this.#files = suite.files;
    mkdirSync(this.#settings.workDir, { recursive: true });
  }

  capabilities() {
    return { reloadEnvironment: true };
  }

  async dryRun(options: DryRunOptions): Promise<DryRunResult> {
    const tests: TestResult[] = [];
    const perTest: Record<string, Record<string, number>> = {};
    const mustJudged: Record<string, string[]> = {};
    for (const file of this.#files) {
      const coverageDir = mkdtempSync(join(tmpdir(), 'mutate-coverage-'));
      try {
        const run = await this.#conform([file], options.timeout * this.#files.length, [
          '--target-env',
          `${this.#settings.surface}=NODE_OPTIONS=--import=${join(process.cwd(), 'tools/mutate/coverage-dump.mjs')}`,
          '--target-env',
          `${this.#settings.surface}=MUTATE_COVERAGE_DIR=${coverageDir}`,
        ]);
        const base = { id: file, name: file, fileName: file, timeSpentMs: run.ms };
        if (run.code === 0) tests.push({ ...base, status: TestStatus.Success });
        else tests.push({ ...base, status: TestStatus.Failed, failureMessage: describeRed(run) });
        const reached: Record<string, number> = {};
        for (const name of readdirSync(coverageDir)) {
          for (const id of JSON.parse(readFileSync(join(coverageDir, name), 'utf8')) as string[]) reached[id] = 1;
        }
        perTest[file] = reached;
        mustJudged[file] = run.mustJudged;
      } finally {
        rmSync(coverageDir, { recursive: true, force: true });
      }
    }
    this.#dryRunMs = tests.reduce((sum, t) => sum + t.timeSpentMs, 0);
    writeFileSync(join(this.#settings.workDir, REACH), `${JSON.stringify(measuredReach(options.files ?? [], perTest, mustJudged), null, 2)}\n`);
    return { status: DryRunStatus.Complete, tests, mutantCoverage: { static: {}, perTest } };
  }

  async mutantRun(options: MutantRunOptions): Promise<MutantRunResult> {
    // The surface's target gets the mutant by --target-env, as it got the coverage dump: a stdio target
    // inherits nothing of the runner's environment, and a backend beside the target is not the one judged.
    const active = ['--target-env', `${this.#settings.surface}=__STRYKER_ACTIVE_MUTANT__=${options.activeMutant.id}`];
    const files = options.testFilter ?? this.#files;
    const result = judge(await this.#conform(files, options.timeout, active, !options.disableBail), files, options.timeout);
    if (!this.#settings.checkReach || result.status !== MutantRunStatus.Survived || files.length === this.#files.length) return result;
    // The reach measured by the dry run is checked where it matters: a survivor of the files that reach it
    // is run against the whole suite; a file outside its reach that kills it is a fault of the map, told.
    const whole = judge(await this.#conform(this.#files, this.#wholeTimeout(), active, !options.disableBail), this.#files, this.#wholeTimeout());
    if (whole.status !== MutantRunStatus.Survived) {
      appendFileSync(join(this.#settings.workDir, REACH_MISSES), `${JSON.stringify({ mutant: options.activeMutant.id, reach: files, whole: whole.status })}\n`);
    }
    return whole;
  }

  /** The time limit of a run of every file: theirs in the dry run, one and a half times, and a minute. */
  #wholeTimeout(): number {
    return Math.round(this.#dryRunMs * 1.5) + 60_000;
  }

  async dispose(): Promise<void> {
    this.#running?.kill('SIGTERM');
  }

  /** One `conform` run of `files` of the surface, its report read; SIGTERM after `timeoutMs` (the runner
   * stops its targets and writes its report), SIGKILL if it does not end. `bail`: stopped at the first red case. */
  async #conform(files: string[], timeoutMs: number, extra: string[], bail = false): Promise<ConformRun> {
    const reportDir = mkdtempSync(join(this.#settings.workDir, 'run-'));
    const args = ['--import', 'tsx', 'tools/conform/main.ts', '--surface', this.#settings.surface, '--report-dir', reportDir, ...files.flatMap((f) => ['--file', f]), ...extra];
    const started = Date.now();
    const { __STRYKER_ACTIVE_MUTANT__: _, ...env } = process.env;
    const child = spawn(process.execPath, args, { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.#running = child;
    let output = '';
    let bailed = false;
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-20_000);
      // The first red case decides a mutant: the runner is stopped then (it ends its targets and writes its
      // report, the red case in it) instead of running the rest of the files.
      if (bail && !bailed && /^(FAIL|ERROR) \S/m.test(output)) {
        bailed = true;
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    let killer: NodeJS.Timeout | undefined;
    const stopper = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      killer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    }, timeoutMs);
    const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
    clearTimeout(stopper);
    clearTimeout(killer);
    this.#running = undefined;
    const ms = Date.now() - started;
    try {
      const results = reportResults(reportDir);
      const red = results.filter((r) => RED.has(r.outcome)).map(({ id, outcome, message }) => ({ id, outcome, message }));
      const mustJudged = [...new Set(results.filter((r) => r.level === 'must' && (r.outcome === 'pass' || r.outcome === 'fail')).map((r) => r.clause))].sort();
      return { code, timedOut, ms, red, mustJudged, output };
    } finally {
      rmSync(reportDir, { recursive: true, force: true });
    }
  }
}

/** A mutant's verdict from a run of `files`. */
function judge(run: ConformRun, files: string[], timeout: number): MutantRunResult {
  if (run.timedOut) return { status: MutantRunStatus.Timeout, reason: `the conformance run took over ${timeout} ms` };
  if (run.red.length > 0) return { status: MutantRunStatus.Killed, killedBy: files, failureMessage: describeRed(run), nrOfTests: files.length };
  if (run.code === 0) return { status: MutantRunStatus.Survived, nrOfTests: files.length };
  return { status: MutantRunStatus.Error, errorMessage: `conform exited ${run.code} without a red case:\n${run.output.slice(-1500)}` };
}

/** The case results of a run's report.json (none when it wrote none). */
function reportResults(reportDir: string): (CaseLine & { clause: string; level: string })[] {
  try {
    return (JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as { results: (CaseLine & { clause: string; level: string })[] }).results;
  } catch {
    return [];
  }
}

/** Module → the suite files that reach one of its mutants, and suite file → the must-clauses it judges. The
 * mutants' modules are read from the instrumented sources (each mutant's switch names its ID). */
function measuredReach(sandboxFiles: string[], perTest: Record<string, Record<string, number>>, mustJudged: Record<string, string[]>): Reach {
  const modules: Record<string, string[]> = {};
  for (const path of sandboxFiles) {
    const module = relative(process.cwd(), path);
    const ids = new Set([...readFileSync(path, 'utf8').matchAll(/stryMutAct_9fa48\("(\d+)"\)/g)].map((m) => m[1]!));
    modules[module] = Object.keys(perTest).filter((file) => Object.keys(perTest[file]!).some((id) => ids.has(id)));
  }
  return { modules, files: mustJudged };
}

function describeRed(run: ConformRun): string {
  if (run.red.length === 0) return `conform exited ${run.code}:\n${run.output.slice(-1500)}`;
  const lines = run.red.slice(0, 5).map((r) => `${r.outcome} ${r.id}: ${(r.message ?? '').split('\n')[0]?.slice(0, 300)}`);
  return lines.join('\n') + (run.red.length > 5 ? `\n… ${run.red.length - 5} more` : '');
}

export const strykerPlugins = [declareClassPlugin(PluginKind.TestRunner, 'conformance', ConformanceRunner)];
