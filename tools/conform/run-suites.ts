// Runs one surface's suite against its target and turns the reports into case results.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HarnessEvent } from '../../conformance/harness/events.ts';
import { ENV, type TargetSpec } from '../../conformance/harness/run-env.ts';
import type { Catalog } from '../spec/catalog.ts';
import type { KnownFailing } from './known-failing.ts';
import { type CaseResult, caseOutcome } from './outcomes.ts';
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

export async function runSurface(
  suite: Suite,
  target: TargetSpec,
  catalog: Catalog,
  settings: RunSettings,
  onCase: (id: string, ok: boolean) => void,
): Promise<SurfaceRun> {
  const scratch = mkdtempSync(join(tmpdir(), 'conform-run-'));
  const eventsFile = join(scratch, 'events.jsonl');
  const clauseIndex = join(scratch, 'clauses.json');
  writeFileSync(clauseIndex, JSON.stringify(Object.fromEntries(catalog.clauses.map((c) => [c.id, c.surface]))));
  try {
    const ava = await runAva(
      suite.files,
      {
        [ENV.targets]: JSON.stringify({ [suite.surface]: target }),
        [ENV.events]: eventsFile,
        [ENV.clauseIndex]: clauseIndex,
        [ENV.only]: JSON.stringify(settings.only),
        [ENV.skip]: JSON.stringify(settings.skip),
        [ENV.list]: settings.list ? '1' : '',
      },
      onCase,
    );
    const events = readEvents(eventsFile);
    const harnessErrors = [...ava.harnessErrors];
    const cases = new Map<string, Extract<HarnessEvent, { type: 'case' }>>();
    const repro = new Map<string, string[]>();
    const targetErrors = new Map<string, string>();
    let launches = 0;
    for (const e of events) {
      if (e.type === 'case') {
        if (cases.has(e.id)) harnessErrors.push(`duplicate case ID ${e.id}`);
        cases.set(e.id, e);
      } else if (e.type === 'not-applicable') {
        const registered = cases.get(e.id);
        if (registered) cases.set(e.id, { ...registered, status: 'not-applicable', reason: e.reason });
      } else if (e.type === 'repro') repro.set(e.id, e.lines);
      else if (e.type === 'launched') launches++;
      else targetErrors.set(e.id, e.message);
    }
    if (cases.size === 0 && harnessErrors.length === 0) {
      harnessErrors.push(`ava reported no cases for ${suite.surface}${ava.stderr ? `\n${ava.stderr.trim()}` : ''}`);
    }
    const results: CaseResult[] = [];
    for (const e of cases.values()) {
      const clause = catalog.byId.get(e.clause)!;
      const { outcome, message } = caseOutcome(e, clause, ava.tap.get(e.id), settings.known);
      results.push({ id: e.id, clause: e.clause, surface: suite.surface, outcome, message, reproducer: repro.get(e.id) ?? [] });
    }
    return {
      results: results.sort((a, b) => a.id.localeCompare(b.id)),
      harnessErrors,
      targetError: launches === 0 ? [...targetErrors.values()][0] : undefined,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
