// The run's exit code, and one line for each reason it is not 0. A gate passes only having judged something:
//   128 + signal  the run was interrupted (the report holds what ran before);
//   2             usage error found once the suites were loaded (a filter glob matching no case), the
//                 harness itself failed, or a target never started;
//   1             a case failed, an `error` on a must-clause, a stale --known-failing entry, or a surface of
//                 the run none of whose must-clauses was judged (unless --pass-with-no-cases);
//   0             otherwise.
import type { SurfaceStanding } from './clause-status.ts';
import type { Interrupted } from './interrupt.ts';
import type { KnownFailingEntry } from './known-failing.ts';
import { type CaseResult, failsRun } from './outcomes.ts';
import type { Verdict } from './report-json.ts';

export interface VerdictInput {
  interrupted: Interrupted | undefined;
  /** 128 + the signal's number. */
  interruptedCode: number;
  harnessFault: boolean;
  /** Surfaces whose target never started. */
  neverStarted: string[];
  /** Usage errors found once the cases were known (globErrors' lines). */
  usageErrors: string[];
  results: CaseResult[];
  stale: KnownFailingEntry[];
  /** The standings of the surfaces taking part in the run. */
  standings: SurfaceStanding[];
  passWithNoCases: boolean;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Why a surface counts as judged nothing: how its cases ended. */
function notJudgedLine(s: SurfaceStanding, results: CaseResult[]): string {
  const mine = results.filter((r) => r.surface === s.surface);
  const count = (outcome: CaseResult['outcome']) => mine.filter((r) => r.outcome === outcome).length;
  const how = [
    [count('not-applicable'), 'not-applicable'],
    [count('skipped'), 'skipped'],
    [count('error'), 'error'],
    [count('pass') + count('informational'), 'of should/unspecified clauses'],
  ]
    .filter(([n]) => (n as number) > 0)
    .map(([n, what]) => `${n} ${what}`)
    .join(', ');
  return `${s.surface}: no must-clause was judged (0 of ${s.must}; cases: ${how || 'none'}); --pass-with-no-cases accepts a run that judges nothing`;
}

export function verdict(input: VerdictInput): Verdict {
  const reasons: string[] = [];
  if (input.interrupted) {
    const ended = input.results.filter((r) => r.outcome !== 'skipped').length;
    reasons.push(`interrupted by ${input.interrupted.signal}: the reports hold the ${plural(ended, 'case')} that ended before it, the others are skipped`);
    return { exitCode: input.interruptedCode, reasons };
  }
  reasons.push(...input.usageErrors);
  if (input.harnessFault) reasons.push('the harness itself failed (its errors are above)');
  for (const s of input.neverStarted) reasons.push(`the target for ${s} never started (its stderr is above)`);
  if (reasons.length > 0) return { exitCode: 2, reasons };
  const failed = input.results.filter((r) => r.outcome === 'fail').length;
  const mustErrors = input.results.filter((r) => r.outcome === 'error' && failsRun(r)).length;
  if (failed > 0) reasons.push(`${plural(failed, 'case')} failed`);
  if (mustErrors > 0) reasons.push(`${plural(mustErrors, 'case')} could not judge a must-clause`);
  for (const e of input.stale) reasons.push(`known-failing entry '${e.glob}' (${e.reason}) matches no case: the list is stale`);
  if (!input.passWithNoCases) {
    for (const s of input.standings.filter((x) => x.mustJudged === 0)) reasons.push(notJudgedLine(s, input.results));
  }
  return { exitCode: reasons.length > 0 ? 1 : 0, reasons };
}
