// Side channel from the suites to the runner: one JSON object per line, appended to CONFORM_EVENTS.
// TAP tells pass or fail; events tell what TAP cannot (case metadata, not-applicable reasons, reproducers).
import { appendFileSync } from 'node:fs';
import { runEnv } from './run-env.ts';

export type CaseStatus = 'run' | 'skipped' | 'not-applicable';

export type HarnessEvent =
  | { type: 'case'; id: string; clause: string; surface: string; status: CaseStatus; reason?: string }
  /** The case ended (its targets stopped): its reproducer, and when it began and ended (ms since the epoch). */
  | { type: 'repro'; id: string; lines: string[]; startedAt: number; endedAt: number }
  /** A check of the case failed (check.ts reports every one; ava only the first). */
  | { type: 'check-failed'; id: string; message: string }
  /** The case could not judge its clause: why (the outcome `error`). */
  | { type: 'inconclusive'; id: string; cause: string }
  /** A case found at run time that the target cannot stage it (CaseOptions.applicable). */
  | { type: 'not-applicable'; id: string; reason: string }
  | { type: 'launched'; id: string }
  | { type: 'target-error'; id: string; message: string }
  /** How long a worker's test file (or the files bundled together for it) took, from loading to its last
   * case (the runner plans its workers from these times next time). */
  | { type: 'file-time'; file: string; ms: number };

export function emit(event: HarnessEvent): void {
  if (!runEnv.eventsFile) return;
  // One write per line: O_APPEND keeps lines from concurrent workers whole.
  appendFileSync(runEnv.eventsFile, `${JSON.stringify(event)}\n`);
}

/** Reports a target start for case `id`: `launched`, or `target-error` with its message (when no case of a
 * surface starts its target, the run ends with that error instead of a page of failures). */
export async function reportStart<T>(id: string, start: Promise<T>): Promise<T> {
  try {
    const value = await start;
    emit({ type: 'launched', id });
    return value;
  } catch (err) {
    emit({ type: 'target-error', id, message: err instanceof Error ? err.message : String(err) });
    throw err;
  }
}
