// Where each clause of a run stands, from the outcomes of its cases, and per surface the conformance
// figure: must-clauses passed out of must-clauses. A clause passes when at least one of its cases ran and
// every case that ran passed.
import type { Catalog, Clause, Surface } from '../spec/catalog.ts';
import type { CaseResult } from './outcomes.ts';

/** Worst first: a clause takes the first status any of its cases gives it. */
export const CLAUSE_STATUSES = ['failed', 'error', 'expected-fail', 'informational', 'passed', 'not-judged', 'no-case'] as const;
export type ClauseStatus = (typeof CLAUSE_STATUSES)[number];

const STATUS_OF: Record<CaseResult['outcome'], ClauseStatus> = {
  fail: 'failed',
  error: 'error',
  'expected-fail': 'expected-fail',
  informational: 'informational',
  pass: 'passed',
  'not-applicable': 'not-judged',
  skipped: 'not-judged',
};

export function clauseStatus(cases: CaseResult[]): ClauseStatus {
  if (cases.length === 0) return 'no-case';
  const statuses = new Set(cases.map((c) => STATUS_OF[c.outcome]));
  return CLAUSE_STATUSES.find((s) => statuses.has(s))!;
}

export interface ClauseState {
  clause: Clause;
  status: ClauseStatus;
  cases: CaseResult[];
}

export interface SurfaceStanding {
  surface: Surface;
  target: string;
  clauses: number;
  must: number;
  /** Must-clauses with at least one case in the suite (whether or not it ran this time). */
  mustCovered: number;
  mustPassed: number;
  mustFailed: number;
  mustErrored: number;
  /** Must-clauses none of whose cases ran (not-applicable, skipped) or that have no case. */
  mustNotJudged: number;
  /** Must-clauses a case judged: passed, failed or known failing (an `error` judged nothing). A gate that
   * judged none of a surface's must-clauses has checked nothing of it (verdict.ts). */
  mustJudged: number;
}

/** Every clause of the surfaces that ran, with its cases and status, in catalog order. */
export function clauseStates(catalog: Catalog, results: CaseResult[]): ClauseState[] {
  const byClause = new Map<string, CaseResult[]>();
  for (const r of results) byClause.set(r.clause, [...(byClause.get(r.clause) ?? []), r]);
  const surfaces = new Set(results.map((r) => r.surface));
  return catalog.clauses
    .filter((c) => surfaces.has(c.surface))
    .map((clause) => {
      const cases = byClause.get(clause.id) ?? [];
      return { clause, status: clauseStatus(cases), cases };
    });
}

/** The standing of each surface that ran, in the order of `targets`. */
export function standings(states: ClauseState[], targets: Record<string, string>): SurfaceStanding[] {
  return Object.entries(targets).map(([surface, target]) => {
    const mine = states.filter((s) => s.clause.surface === surface);
    const must = mine.filter((s) => s.clause.level === 'must');
    const count = (...statuses: ClauseStatus[]) => must.filter((s) => statuses.includes(s.status)).length;
    return {
      surface: surface as Surface,
      target,
      clauses: mine.length,
      must: must.length,
      mustCovered: must.length - count('no-case'),
      mustPassed: count('passed'),
      mustFailed: count('failed', 'expected-fail'),
      mustErrored: count('error'),
      mustNotJudged: count('not-judged', 'no-case'),
      mustJudged: count('passed', 'failed', 'expected-fail'),
    };
  });
}

/** The conformance figure as a whole percentage: must-clauses passed of must-clauses (100 with none). */
export function mustPercent(s: Pick<SurfaceStanding, 'must' | 'mustPassed'>): number {
  return s.must === 0 ? 100 : Math.floor((100 * s.mustPassed) / s.must);
}
