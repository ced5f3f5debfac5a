// Runs the selected suites against their targets in one ava run (its workers shared by every surface, so one
// surface's waits overlap another's work) and turns the reports into case results per surface.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HarnessEvent } from '../../conformance/harness/events.ts';
import { ENV, type TargetSpec } from '../../conformance/harness/run-env.ts';
import { killMarked, RUN_MARK } from '../../conformance/harness/sweep.ts';
import type { Catalog } from '../spec/catalog.ts';
import type { KnownFailing } from './known-failing.ts';
import { type CaseNotes, type CaseResult, caseOutcome } from './outcomes.ts';
import { COMPILED_CONFIG, compileSuites } from './compile-suites.ts';
import { recordWorkerTimes, workerGroups } from './file-times.ts';
import { runAva } from './run-ava.ts';
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
}

export interface RunOutcome {
  surfaces: Map<string, SurfaceRun>;
  /** When the last case ended (ms since the epoch), if any did. */
  lastCaseEndedAt: number | undefined;
  /** Processes of the run still alive after ava ended (killed): a case that did not clean up after itself. */
  leftovers: number;
}

function readEvents(file: string): HarnessEvent[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as HarnessEvent);
}

export async function runSuites(
  suites: Suite[],
  targets: Record<string, TargetSpec>,
  catalog: Catalog,
  settings: RunSettings,
  onCase: (id: string, ok: boolean) => void,
): Promise<RunOutcome> {
  const runMark = `run-${process.pid}-${Date.now().toString(36)}`;
  // The suites first: a suite that does not build leaves nothing behind.
  const compiled = compileSuites(workerGroups(suites.flatMap((s) => s.files)));
  const scratch = mkdtempSync(join(tmpdir(), 'conform-run-'));
  const eventsFile = join(scratch, 'events.jsonl');
  const clauseIndex = join(scratch, 'clauses.json');
  try {
    writeFileSync(clauseIndex, JSON.stringify(Object.fromEntries(catalog.clauses.map((c) => [c.id, c.surface]))));
    const ava = await runAva(
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
      },
      onCase,
    );
    // Every process a case started ends with the case; whatever is still marked as the run's did not.
    const leftovers = killMarked(RUN_MARK, runMark);
    const events = readEvents(eventsFile);
    const runs = new Map<string, SurfaceRun & { launches: number; targetErrors: string[] }>(
      suites.map((s) => [s.surface, { results: [], harnessErrors: [], targetError: undefined, launches: 0, targetErrors: [] }]),
    );
    // Faults of the run as a whole (a file that does not load) are reported with the first surface.
    runs.values().next().value?.harnessErrors.push(...ava.harnessErrors);
    const cases = new Map<string, Extract<HarnessEvent, { type: 'case' }>>();
    const workerTimes: { files: string[]; ms: number }[] = [];
    const repro = new Map<string, string[]>();
    const notes = new Map<string, CaseNotes>();
    const notesOf = (id: string): CaseNotes => {
      const n = notes.get(id) ?? { failedChecks: [], inconclusive: undefined };
      notes.set(id, n);
      return n;
    };
    let lastCaseEndedAt = 0;
    const surfaceOf = (id: string) => runs.get(cases.get(id)?.surface ?? '');
    for (const e of events) {
      if (e.type === 'case') {
        if (cases.has(e.id)) runs.get(e.surface)?.harnessErrors.push(`duplicate case ID ${e.id}`);
        cases.set(e.id, e);
      } else if (e.type === 'not-applicable') {
        const registered = cases.get(e.id);
        if (registered) cases.set(e.id, { ...registered, status: 'not-applicable', reason: e.reason });
      } else if (e.type === 'repro') {
        repro.set(e.id, e.lines);
        lastCaseEndedAt = Math.max(lastCaseEndedAt, e.endedAt);
      } else if (e.type === 'check-failed') notesOf(e.id).failedChecks.push(e.message);
      else if (e.type === 'inconclusive') notesOf(e.id).inconclusive = e.cause;
      else if (e.type === 'launched') {
        const run = surfaceOf(e.id);
        if (run) run.launches++;
      } else if (e.type === 'file-time') workerTimes.push({ files: compiled.sourcesOf(e.file), ms: e.ms });
      else surfaceOf(e.id)?.targetErrors.push(e.message);
    }
    // Only a full run's times: a filtered one says little of how long a file takes.
    if (settings.only.length === 0 && settings.skip.length === 0 && !settings.list) recordWorkerTimes(workerTimes);
    for (const e of cases.values()) {
      const clause = catalog.byId.get(e.clause)!;
      const { outcome, message } = caseOutcome(e, clause, ava.tap.get(e.id), notesOf(e.id), settings.known);
      runs
        .get(e.surface)
        ?.results.push({ id: e.id, clause: e.clause, surface: clause.surface, level: clause.level, outcome, message, reproducer: repro.get(e.id) ?? [] });
    }
    const done = new Map<string, SurfaceRun>();
    for (const [surface, run] of runs) {
      if (run.results.length === 0 && run.harnessErrors.length === 0) {
        run.harnessErrors.push(`ava reported no cases for ${surface}${ava.stderr ? `\n${ava.stderr.trim()}` : ''}`);
      }
      done.set(surface, {
        results: run.results.sort((a, b) => a.id.localeCompare(b.id)),
        harnessErrors: run.harnessErrors,
        targetError: run.launches === 0 ? run.targetErrors[0] : undefined,
      });
    }
    return { surfaces: done, lastCaseEndedAt: lastCaseEndedAt || undefined, leftovers };
  } finally {
    compiled.remove();
    rmSync(scratch, { recursive: true, force: true });
  }
}
