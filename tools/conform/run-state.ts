// What the runner knows of a run so far, from the harness's events and ava's TAP results: every case
// registered, what was said of it while it ran, and from that its result — as soon as its TAP line comes
// (for the live reporters) and for every case at the end (for the reports). One place decides a result, so
// the live line and the report never disagree.
import type { HarnessEvent } from '../../conformance/harness/events.ts';
import type { Catalog } from '../spec/catalog.ts';
import type { KnownFailing } from './known-failing.ts';
import { clauseIdOf } from '../spec/clause-id.ts';
import { type CaseNotes, type CaseResult, caseOutcome, FILTERED_OUT, type Outcome } from './outcomes.ts';
import type { TapOutcome } from './run-ava.ts';

type CaseEvent = Extract<HarnessEvent, { type: 'case' }>;

/** The message of a case the run did not see to its end. */
export const INTERRUPTED_MESSAGE = 'not run to its end: the run was interrupted';

interface SurfaceState {
  harnessErrors: string[];
  launches: number;
  targetErrors: string[];
}

export class RunState {
  readonly #catalog: Catalog;
  readonly #known: KnownFailing;
  readonly #cases = new Map<string, CaseEvent>();
  readonly #notes = new Map<string, CaseNotes>();
  readonly #ended = new Map<string, { lines: string[]; startedAt: number; endedAt: number }>();
  readonly #surfaces = new Map<string, SurfaceState>();
  /** The test files' times as the workers reported them (compiled file, ms). */
  readonly fileTimes: { file: string; ms: number }[] = [];
  lastCaseEndedAt = 0;

  constructor(catalog: Catalog, known: KnownFailing, surfaces: string[]) {
    this.#catalog = catalog;
    this.#known = known;
    for (const s of surfaces) this.#surfaces.set(s, { harnessErrors: [], launches: 0, targetErrors: [] });
  }

  #notesOf(id: string): CaseNotes {
    const n = this.#notes.get(id) ?? { failedChecks: [], inconclusive: undefined };
    this.#notes.set(id, n);
    return n;
  }

  #surfaceOf(id: string): SurfaceState | undefined {
    return this.#surfaces.get(this.#cases.get(id)?.surface ?? '');
  }

  ingest(events: HarnessEvent[]): void {
    for (const e of events) {
      switch (e.type) {
        case 'case':
          if (this.#cases.has(e.id)) this.#surfaces.get(e.surface)?.harnessErrors.push(`duplicate case ID ${e.id}`);
          this.#cases.set(e.id, e);
          break;
        case 'not-applicable': {
          const registered = this.#cases.get(e.id);
          if (registered) this.#cases.set(e.id, { ...registered, status: 'not-applicable', reason: e.reason });
          break;
        }
        case 'repro':
          this.#ended.set(e.id, { lines: e.lines, startedAt: e.startedAt, endedAt: e.endedAt });
          this.lastCaseEndedAt = Math.max(this.lastCaseEndedAt, e.endedAt);
          break;
        case 'check-failed':
          this.#notesOf(e.id).failedChecks.push(e.message);
          break;
        case 'inconclusive':
          this.#notesOf(e.id).inconclusive = e.cause;
          break;
        case 'launched': {
          const s = this.#surfaceOf(e.id);
          if (s) s.launches++;
          break;
        }
        case 'target-error':
          this.#surfaceOf(e.id)?.targetErrors.push(e.message);
          break;
        case 'file-time':
          this.fileTimes.push({ file: e.file, ms: e.ms });
          break;
      }
    }
  }

  /** Whether the case was filtered out (it takes no part in the run's progress). */
  isFilteredOut(id: string): boolean {
    return this.#cases.get(id)?.status === 'skipped';
  }

  /** The registered case IDs of each surface (filtered out or not). */
  caseIds(): Map<string, string[]> {
    const ids = new Map<string, string[]>([...this.#surfaces.keys()].map((s) => [s, []]));
    for (const e of this.#cases.values()) ids.get(e.surface)?.push(e.id);
    return ids;
  }

  /** The result of case `id` given its TAP outcome (none yet: it never ended, or the run was interrupted
   * before it did). */
  result(id: string, tap: TapOutcome | undefined, interrupted = false): CaseResult | undefined {
    const e = this.#cases.get(id);
    if (!e) return undefined;
    const clause = this.#catalog.byId.get(e.clause)!;
    const ended = this.#ended.get(id);
    const decided: { outcome: Outcome; message: string } =
      interrupted && tap === undefined && e.status === 'run'
        ? { outcome: 'skipped', message: INTERRUPTED_MESSAGE }
        : caseOutcome(e, clause, tap, this.#notesOf(id), this.#known);
    return {
      id,
      clause: e.clause,
      surface: clause.surface,
      level: clause.level,
      ...decided,
      durationMs: ended ? ended.endedAt - ended.startedAt : 0,
      reproducer: ended?.lines ?? [],
    };
  }

  /** Every registered case's result, by surface, sorted by ID. */
  results(tap: Map<string, TapOutcome>, interrupted: boolean): Map<string, CaseResult[]> {
    const bySurface = new Map<string, CaseResult[]>([...this.#surfaces.keys()].map((s) => [s, []]));
    for (const id of this.#cases.keys()) {
      const r = this.result(id, tap.get(id), interrupted)!;
      bySurface.get(this.#cases.get(id)!.surface)?.push(r);
    }
    for (const rs of bySurface.values()) rs.sort((a, b) => a.id.localeCompare(b.id));
    return bySurface;
  }

  surface(name: string): SurfaceState {
    return this.#surfaces.get(name)!;
  }
}

/** The cases an interrupted run never reached, known from the suites' case index: `skipped`, as filtered out
 * or as interrupted, so that the report still lists the whole of the suites. */
export function unreachedResults(catalog: Catalog, ids: string[], reached: ReadonlySet<string>, filteredOut: (id: string) => boolean): CaseResult[] {
  return ids
    .filter((id) => !reached.has(id))
    .flatMap((id) => {
      const clause = catalog.byId.get(clauseIdOf(id));
      if (!clause) return [];
      const message = filteredOut(id) ? FILTERED_OUT : INTERRUPTED_MESSAGE;
      return [{ id, clause: clause.id, surface: clause.surface, level: clause.level, outcome: 'skipped' as const, message, durationMs: 0, reproducer: [] }];
    });
}
