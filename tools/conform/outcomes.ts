// Turns what ava and the harness reported into one outcome per case. The rules:
//   filtered out => skipped; target lacks a capability => not-applicable;
//   failed + listed in --known-failing => expected-fail; passed + listed => fail (the list is stale);
//   failed on a should/unspecified clause => informational; otherwise pass or fail.
import type { Clause, Surface } from '../spec/catalog.ts';
import type { HarnessEvent } from '../../conformance/harness/events.ts';
import type { KnownFailing } from './known-failing.ts';
import type { TapOutcome } from './run-ava.ts';

export const OUTCOMES = ['pass', 'fail', 'skipped', 'not-applicable', 'informational', 'expected-fail'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface CaseResult {
  id: string;
  clause: string;
  surface: Surface;
  outcome: Outcome;
  message: string;
  reproducer: string[];
}

type CaseEvent = Extract<HarnessEvent, { type: 'case' }>;

export function caseOutcome(
  event: CaseEvent,
  clause: Clause,
  tap: TapOutcome | undefined,
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
    return { outcome: 'fail', message: 'the case never reported a result (its worker crashed or was stopped)' };
  }
  if (tap.ok) {
    if (knownReason !== undefined) {
      return { outcome: 'fail', message: `passes but is listed as known-failing (${knownReason}): the list is stale` };
    }
    return { outcome: 'pass', message: '' };
  }
  if (knownReason !== undefined) return { outcome: 'expected-fail', message: `${knownReason}\n${tap.detail}` };
  if (clause.level !== 'must') return { outcome: 'informational', message: tap.detail };
  return { outcome: 'fail', message: tap.detail };
}
