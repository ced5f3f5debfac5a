// report.json: the whole run as data, what every reporter and every later reading of a run works from.
// Schema version 3 (2 and the fields it added: outcome `error`, each result's clause level and target,
// per-surface standings and clause statuses, the run's timing): each result's `durationMs`, `interrupted`
// (the signal that stopped the run, else null), the `verdict` (exit code and the reasons for it),
// `staleKnownFailing`, and per surface `mustJudged`. Version 4 adds `run` (run-record.ts): the harness,
// catalog and document versions, Node, each target with its description, the options that chose the cases,
// and the shard a report is of (or the shards a merged one joined).
import type { ClauseState, SurfaceStanding } from './clause-status.ts';
import type { Interrupted } from './interrupt.ts';
import type { KnownFailingEntry } from './known-failing.ts';
import type { CaseResult, Outcome } from './outcomes.ts';
import type { RunRecord } from './run-record.ts';

export const REPORT_SCHEMA_VERSION = 4;

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

/** The run's exit code and why it is not 0, one line per reason (verdict.ts). */
export interface Verdict {
  exitCode: number;
  reasons: string[];
}

export type ReportResult = Omit<CaseResult, 'surface'> & { surface: string; target: string };

export interface JsonReport {
  schemaVersion: number;
  generatedAt: string;
  run: RunRecord;
  timing: RunTiming;
  /** The signal that stopped the run before its end, or null: then the results are what ran before it, the
   * cases it did not see to their end `skipped`. */
  interrupted: Interrupted | null;
  verdict: Verdict;
  targets: Record<string, string>;
  summary: Summary;
  surfaces: SurfaceStanding[];
  clauses: { id: string; surface: string; level: string; status: string }[];
  /** --known-failing entries that match no case of the suites they name. */
  staleKnownFailing: KnownFailingEntry[];
  results: ReportResult[];
}

export interface ReportParts {
  run: RunRecord;
  results: CaseResult[];
  states: ClauseState[];
  surfaces: SurfaceStanding[];
  targets: Record<string, string>;
  timing: RunTiming;
  interrupted: Interrupted | undefined;
  verdict: Verdict;
  staleKnownFailing: KnownFailingEntry[];
}

export function jsonReport(parts: ReportParts): JsonReport {
  const { results, states, surfaces, targets, timing } = parts;
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    generatedAt: new Date().toISOString(),
    run: parts.run,
    timing,
    interrupted: parts.interrupted ?? null,
    verdict: parts.verdict,
    targets,
    summary: summarize(results),
    surfaces,
    clauses: states.map((s) => ({ id: s.clause.id, surface: s.clause.surface, level: s.clause.level, status: s.status })),
    staleKnownFailing: parts.staleKnownFailing,
    results: results.map(({ id, clause, surface, level, outcome, message, durationMs, reproducer }) => ({
      id,
      clause,
      surface,
      level,
      outcome,
      message,
      durationMs,
      reproducer,
      target: targets[surface] ?? '',
    })),
  };
}
