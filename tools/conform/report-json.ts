import type { SurfaceCoverage } from '../spec/coverage.ts';
import type { CaseResult, Outcome } from './outcomes.ts';

export const REPORT_SCHEMA_VERSION = 1;

export interface Summary {
  passed: number;
  failed: number;
  skipped: number;
  notApplicable: number;
  informational: number;
  expectedFail: number;
}

const SUMMARY_KEY: Record<Outcome, keyof Summary> = {
  pass: 'passed',
  fail: 'failed',
  skipped: 'skipped',
  'not-applicable': 'notApplicable',
  informational: 'informational',
  'expected-fail': 'expectedFail',
};

export function summarize(results: CaseResult[]): Summary {
  const summary: Summary = { passed: 0, failed: 0, skipped: 0, notApplicable: 0, informational: 0, expectedFail: 0 };
  for (const r of results) summary[SUMMARY_KEY[r.outcome]]++;
  return summary;
}

export interface JsonReport {
  schemaVersion: number;
  generatedAt: string;
  targets: Record<string, string>;
  summary: Summary;
  coverage: { surface: string; clauses: number; must: number; mustCovered: number }[];
  results: { id: string; clause: string; surface: string; outcome: Outcome; message: string; reproducer: string[] }[];
}

export function jsonReport(results: CaseResult[], cov: SurfaceCoverage[], targets: Record<string, string>): JsonReport {
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    generatedAt: new Date().toISOString(),
    targets,
    summary: summarize(results),
    coverage: cov.map(({ surface, clauses, must, mustCovered }) => ({ surface, clauses, must, mustCovered })),
    results: results.map(({ id, clause, surface, outcome, message, reproducer }) => ({ id, clause, surface, outcome, message, reproducer })),
  };
}
