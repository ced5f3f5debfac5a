// report.json: the whole run as data. Schema version 2: outcome `error`, each result's clause level and
// target, per-surface standings (the conformance figure) and clause statuses, the run's timing.
import type { ClauseState, SurfaceStanding } from './clause-status.ts';
import type { CaseResult, Outcome } from './outcomes.ts';

export const REPORT_SCHEMA_VERSION = 2;

export interface Summary {
  passed: number;
  failed: number;
  /** Cases that could not judge their clause; `mustErrors` of them on must-clauses (those fail the run). */
  errors: number;
  mustErrors: number;
  skipped: number;
  notApplicable: number;
  informational: number;
  expectedFail: number;
}

const SUMMARY_KEY: Record<Outcome, keyof Summary> = {
  pass: 'passed',
  fail: 'failed',
  error: 'errors',
  skipped: 'skipped',
  'not-applicable': 'notApplicable',
  informational: 'informational',
  'expected-fail': 'expectedFail',
};

export function summarize(results: CaseResult[]): Summary {
  const summary: Summary = { passed: 0, failed: 0, errors: 0, mustErrors: 0, skipped: 0, notApplicable: 0, informational: 0, expectedFail: 0 };
  for (const r of results) {
    summary[SUMMARY_KEY[r.outcome]]++;
    if (r.outcome === 'error' && r.level === 'must') summary.mustErrors++;
  }
  return summary;
}

export interface RunTiming {
  startedAt: string;
  endedAt: string;
  /** When the last case ended (its targets stopped): the run should end within seconds of it. */
  lastCaseEndedAt: string | undefined;
}

export interface JsonReport {
  schemaVersion: number;
  generatedAt: string;
  timing: RunTiming;
  targets: Record<string, string>;
  summary: Summary;
  surfaces: SurfaceStanding[];
  clauses: { id: string; surface: string; level: string; status: string }[];
  results: (Omit<CaseResult, 'surface'> & { surface: string; target: string })[];
}

export function jsonReport(
  results: CaseResult[],
  states: ClauseState[],
  surfaces: SurfaceStanding[],
  targets: Record<string, string>,
  timing: RunTiming,
): JsonReport {
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    generatedAt: new Date().toISOString(),
    timing,
    targets,
    summary: summarize(results),
    surfaces,
    clauses: states.map((s) => ({ id: s.clause.id, surface: s.clause.surface, level: s.clause.level, status: s.status })),
    results: results.map(({ id, clause, surface, level, outcome, message, reproducer }) => ({
      id,
      clause,
      surface,
      level,
      outcome,
      message,
      reproducer,
      target: targets[surface] ?? '',
    })),
  };
}
