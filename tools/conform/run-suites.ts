// Runs the selected suites against their targets in one ava run (its workers shared by every surface, so one
// surface's waits overlap another's work) and turns the reports into case results per surface, each one
// also handed to `onCase` as its case ends. Everything the run starts carries its mark (sweep.ts) and every
// temporary folder of its cases (targets' folders among them) is under a folder of its own (the workers'
// TMPDIR): after ava, and at once when the run is interrupted, what is still marked is killed and the folder
// removed.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STOP_GRACE_MS, TARGET_TMPDIR } from '../../conformance/harness/launch.ts';
import { ENV, type TargetSpec } from '../../conformance/harness/run-env.ts';
import { killMarked, marked, RUN_MARK, signalMarked } from '../../conformance/harness/sweep.ts';
import type { Catalog } from '../spec/catalog.ts';
import { COMPILED_CONFIG, compileSuites } from './compile-suites.ts';
import { EventLog } from './event-log.ts';
import { recordWorkerTimes, workerGroups } from './file-times.ts';
import type { Interruption } from './interrupt.ts';
import type { KnownFailing } from './known-failing.ts';
import type { CaseResult } from './outcomes.ts';
import { runAva } from './run-ava.ts';
import { RunState } from './run-state.ts';
import type { Suite } from './suites.ts';

export interface SurfaceRun {
  results: CaseResult[];
  /** Faults of the harness or the suite itself (a file that does not load, a duplicate ID). */
  harnessErrors: string[];
  /** Set when the target never started for any case: its stderr. */
  targetError: string | undefined;
}

export interface RunSettings {
  only: string[];
  skip: string[];
  list: boolean;
  known: KnownFailing;
  /** Per surface, the options that select it and its target (for replay commands). */
  replayArgs?: Record<string, string>;
  /** Where the cases write the files their reproducers refer to. */
  artifactsDir?: string;
  /** Stops the run when its signal aborts. */
  interruption?: Interruption;
}

export interface RunOutcome {
  surfaces: Map<string, SurfaceRun>;
  /** Every case ID each suite registered (filtered out or not); empty for a run that never got going. */
  caseIds: Map<string, string[]>;
  /** When the last case ended (ms since the epoch), if any did. */
  lastCaseEndedAt: number | undefined;
  /** Processes of the run still alive after ava ended (killed): a case that did not clean up after itself. */
  leftovers: number;
  /** Temporary folders of cases still there after ava ended (removed with the run's): the same, for files. */
  leftFolders: string[];
  /** The run was interrupted: cases that had not ended are `skipped` (run-state.ts). */
  interrupted: boolean;
}

/** Sweeps of the run's mark after ava: a process caught while forking may leave a child the first misses. */
const SWEEPS = 3;


/** Asks every process marked as the run's to end (SIGTERM: a target removing its own temporary files, a
 * browser closing), and waits for them as long as a case's stop would (STOP_GRACE_MS). */
async function askRunToEnd(runMark: string): Promise<void> {
  if (signalMarked(RUN_MARK, runMark, 'SIGTERM') === 0) return;
  for (const until = Date.now() + STOP_GRACE_MS; Date.now() < until && marked(RUN_MARK, runMark).length > 0; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Kills every process marked as the run's; how many there were. */
function sweepRun(runMark: string): number {
  let killed = 0;
  for (let i = 0; i < SWEEPS; i++) {
    const n = killMarked(RUN_MARK, runMark);
    killed += n;
    if (n === 0) break;
  }
  return killed;
}

export async function runSuites(
  suites: Suite[],
  targets: Record<string, TargetSpec>,
  catalog: Catalog,
  settings: RunSettings,
  onCase: (result: CaseResult) => void,
): Promise<RunOutcome> {
  const surfaces = suites.map((s) => s.surface);
  const interruption = settings.interruption;
  const state = new RunState(catalog, settings.known, surfaces);
  if (interruption?.signal.aborted) {
    const empty = new Map(surfaces.map((s) => [s, { results: [], harnessErrors: [], targetError: undefined }]));
    return { surfaces: empty, caseIds: new Map(), lastCaseEndedAt: undefined, leftovers: 0, leftFolders: [], interrupted: true };
  }
  const runMark = `run-${process.pid}-${Date.now().toString(36)}`;
  // The suites first: a suite that does not build leaves nothing behind.
  const compiled = compileSuites(workerGroups(suites.flatMap((s) => s.files)));
  const scratch = mkdtempSync(join(tmpdir(), 'conform-run-'));
  const caseTmp = join(scratch, 'tmp');
  mkdirSync(caseTmp);
  const eventsFile = join(scratch, 'events.jsonl');
  const clauseIndex = join(scratch, 'clauses.json');
  const removeFolders = (): void => {
    compiled.remove();
    rmSync(scratch, { recursive: true, force: true });
  };
  let stopAva = (): void => {};
  const dropSecondSignalStep = interruption?.onSecondSignal(() => {
    stopAva();
    sweepRun(runMark);
    removeFolders();
  });
  const onAbort = (): void => stopAva();
  try {
    writeFileSync(clauseIndex, JSON.stringify(Object.fromEntries(catalog.clauses.map((c) => [c.id, c.surface]))));
    const log = new EventLog(eventsFile);
    const ava = runAva(
      COMPILED_CONFIG,
      compiled.files,
      {
        [ENV.targets]: JSON.stringify(Object.fromEntries(suites.map((s) => [s.surface, targets[s.surface]]))),
        [ENV.events]: eventsFile,
        [ENV.clauseIndex]: clauseIndex,
        [ENV.only]: JSON.stringify(settings.only),
        [ENV.skip]: JSON.stringify(settings.skip),
        [ENV.list]: settings.list ? '1' : '',
        [ENV.replayArgs]: JSON.stringify(settings.replayArgs ?? {}),
        ...(settings.artifactsDir ? { [ENV.artifacts]: settings.artifactsDir } : {}),
        [RUN_MARK]: runMark,
        // Every folder a case or a browser makes in the temporary folder is the run's to remove; targets keep
        // the user's (launch.ts).
        TMPDIR: caseTmp,
        [TARGET_TMPDIR]: process.env.TMPDIR ?? '',
      },
      (id, tap) => {
        if (settings.list) return;
        // The case's events were written before ava reported it: read what has come since the last case.
        state.ingest(log.readNew());
        if (state.isFilteredOut(id)) return;
        const result = state.result(id, tap);
        if (result) onCase(result);
      },
    );
    stopAva = ava.kill;
    interruption?.signal.addEventListener('abort', onAbort, { once: true });
    if (interruption?.signal.aborted) ava.kill();
    const run = await ava.done;
    // Interrupted: the cases' processes are asked to end first, as their cases would have.
    if (interruption?.signal.aborted) await askRunToEnd(runMark);
    // Every process a case started ends with the case; whatever is still marked as the run's did not (or
    // the run was interrupted).
    const leftovers = sweepRun(runMark);
    const leftFolders = readdirSync(caseTmp);
    const interrupted = interruption?.signal.aborted ?? false;
    state.ingest(log.readNew());
    // Faults of the run as a whole (a file that does not load) are reported with the first surface.
    if (!interrupted) state.surface(surfaces[0]!).harnessErrors.push(...run.harnessErrors);
    // Only a whole run's times: a filtered or interrupted one says little of how long a file takes.
    if (settings.only.length === 0 && settings.skip.length === 0 && !settings.list && !interrupted) {
      recordWorkerTimes(state.fileTimes.map((t) => ({ files: compiled.sourcesOf(t.file), ms: t.ms })));
    }
    const bySurface = state.results(run.tap, interrupted);
    const done = new Map<string, SurfaceRun>();
    for (const surface of surfaces) {
      const s = state.surface(surface);
      const results = bySurface.get(surface) ?? [];
      if (results.length === 0 && s.harnessErrors.length === 0 && !interrupted) {
        s.harnessErrors.push(`ava reported no cases for ${surface}${run.stderr ? `\n${run.stderr.trim()}` : ''}`);
      }
      done.set(surface, { results, harnessErrors: s.harnessErrors, targetError: s.launches === 0 && !interrupted ? s.targetErrors[0] : undefined });
    }
    return { surfaces: done, caseIds: interrupted ? new Map() : state.caseIds(), lastCaseEndedAt: state.lastCaseEndedAt || undefined, leftovers, leftFolders, interrupted };
  } finally {
    interruption?.signal.removeEventListener('abort', onAbort);
    removeFolders();
    dropSecondSignalStep?.();
  }
}
