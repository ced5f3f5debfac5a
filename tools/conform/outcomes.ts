// Turns what ava and the harness reported into one outcome per case. The rules:
//   filtered out (or not run to its end in an interrupted run: run-state.ts) => skipped; target lacks a capability => not-applicable;
//   the case could not judge its clause (setup refused, answer unreadable, did not finish) => error;
//   failed + listed in --known-failing => expected-fail; passed + listed => fail (the list is stale);
//   failed on a should/unspecified clause => informational; otherwise pass or fail.
// A check that failed before the case got stuck makes it a failure, not an error: it was judged.
import type { Clause, Surface } from '../spec/catalog.ts';
import type { HarnessEvent } from '../../conformance/harness/events.ts';
import type { KnownFailing } from './known-failing.ts';
import type { TapOutcome } from './run-ava.ts';

export const OUTCOMES = ['pass', 'fail', 'error', 'skipped', 'not-applicable', 'informational', 'expected-fail'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface CaseResult {
  id: string;
  clause: string;
  surface: Surface;
  /** The clause's level: an `error` fails the run only on a must-clause. */
  level: Clause['level'];
  outcome: Outcome;
  message: string;
  /** From the case's start to the end of its teardown (targets stopped); 0 for a case that did not run. */
  durationMs: number;
  reproducer: string[];
}

type CaseEvent = Extract<HarnessEvent, { type: 'case' }>;

/** What the harness said of a case while it ran, beyond pass or fail. */
export interface CaseNotes {
  /** Every check that failed, in order (ava's TAP detail covers only the first). */
  failedChecks: string[];
  /** Why the case could not judge its clause. */
  inconclusive: string | undefined;
}

/** The failure text: ava's detail of the first failed check (with its diff), then every further one. */
function failureText(tap: TapOutcome, notes: CaseNotes): string {
  const further = notes.failedChecks.slice(1);
  if (further.length === 0) return tap.detail;
  return `${tap.detail}\n\n${further.length} more failed check${further.length === 1 ? '' : 's'}:\n${further.map((f) => `- ${f.replace(/\n/g, '\n  ')}`).join('\n')}`;
}

export function caseOutcome(
  event: CaseEvent,
  clause: Clause,
  tap: TapOutcome | undefined,
  notes: CaseNotes,
  known: KnownFailing,
): { outcome: Outcome; message: string } {
  switch (event.status) {
    case 'skipped':
      return { outcome: 'skipped', message: event.reason ?? '' };
    case 'not-applicable':
      return { outcome: 'not-applicable', message: event.reason ?? '' };
    case 'run':
      break;
  }
  const knownReason = known.reasonFor(event.id);
  if (tap === undefined) {
    return { outcome: 'error', message: 'the case never reported a result (its worker crashed or was stopped)' };
  }
  if (tap.ok) {
    if (knownReason !== undefined) {
      return { outcome: 'fail', message: `passes but is listed as known-failing (${knownReason}): the list is stale` };
    }
    return { outcome: 'pass', message: '' };
  }
  const judged = notes.failedChecks.length > 0 || notes.inconclusive === undefined;
  const message = judged ? failureText(tap, notes) : `could not judge the clause: ${notes.inconclusive}`;
  if (knownReason !== undefined) return { outcome: 'expected-fail', message: `${knownReason}\n${message}` };
  if (!judged) return { outcome: 'error', message };
  if (clause.level !== 'must') return { outcome: 'informational', message };
  return { outcome: 'fail', message };
}

/** The reason given for a case --only/--skip left out (check.ts). */
export const FILTERED_OUT = 'filtered out by --only/--skip';

/** Whether the filters left the case out (rather than an interrupt stopping the run before it ended). */
export function isFilteredOut(r: Pick<CaseResult, 'outcome' | 'message'>): boolean {
  return r.outcome === 'skipped' && r.message === FILTERED_OUT;
}

/** Whether the result fails the run: a failure, or an error on a must-clause (nothing can be claimed of it). */
export function failsRun(r: Pick<CaseResult, 'outcome' | 'level'>): boolean {
  return r.outcome === 'fail' || (r.outcome === 'error' && r.level === 'must');
}

/** A message in one line: its first lines run together (an assertion's label alone, such as "Difference
 * (- actual, + expected):", says little without the values under it). */
export function headline(message: string, max = 200): string {
  const text = message
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, 4)
    .join(' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
