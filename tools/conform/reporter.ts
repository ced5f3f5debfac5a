// Reporters are plug-ins over one stream of a run: it began (targets, plan), a case ended (its result, as it
// ends), the run ended (report.json's content, with the catalog and clause states to show it). The terminal,
// the report files and the GitHub annotator each take what they need of it; none reads another's output.
import type { Catalog } from '../spec/catalog.ts';
import type { ClauseState } from './clause-status.ts';
import type { CaseResult } from './outcomes.ts';
import type { JsonReport } from './report-json.ts';

export interface Plan {
  /** How many cases will run (filtered-out ones not counted), when the suites' case index knows. */
  cases: number | undefined;
  /** `cases` counts the suites as they are now; else it is of an earlier state of them (an estimate). */
  exact: boolean;
  /** How long the run should take, from the last whole run's file times (a whole run only). */
  expectedMs: number | undefined;
}

export interface RunBegin {
  /** Surface -> the target, as shown. */
  targets: Record<string, string>;
  plan: Plan;
}

export interface RunEnd {
  report: JsonReport;
  catalog: Catalog;
  states: ClauseState[];
  /** report.json as the user named it (relative paths stay relative). */
  reportFile: string;
}

export interface Reporter {
  begin?(run: RunBegin): void;
  caseEnded?(result: CaseResult): void;
  end?(run: RunEnd): void;
}

/** One reporter that hands every event to each of `reporters`, in order. */
export function allOf(reporters: Reporter[]): Required<Reporter> {
  return {
    begin: (run) => {
      for (const r of reporters) r.begin?.(run);
    },
    caseEnded: (result) => {
      for (const r of reporters) r.caseEnded?.(result);
    },
    end: (run) => {
      for (const r of reporters) r.end?.(run);
    },
  };
}
