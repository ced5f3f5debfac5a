// `check(id, fn)` registers one conformance case with ava. The ID is `<clause-id>/<behaviour>`; the clause
// must exist in the catalog. Filtering (--only/--skip) and capabilities are decided here, at registration,
// and reported to the runner as events.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import test, { type ExecutionContext } from 'ava';
import picomatch from 'picomatch';
import { FILTERED_OUT } from '../../tools/conform/outcomes.ts';
import { clauseIdOf } from '../../tools/spec/clause-id.ts';
import { CaseContext } from './case-context.ts';
import { recordingChecks } from './checks.ts';
import { isHarnessTool, missingHarnessTools } from './environment.ts';
import { type CaseStatus, emit } from './events.ts';
import { CaseTimeout, Inconclusive, isInconclusive, NotApplicable } from './inconclusive.ts';
import { watchSlotWaits } from './launch.ts';
import { directRunOnly, runEnv, type TargetSpec } from './run-env.ts';
import { declarePerFileStops } from './per-file.ts';
import { stalledMsSince } from './stalls.ts';

export interface CaseOptions {
  /** Capabilities the target must offer, for example `launch` (a `cmd:` target the harness can configure). */
  needs?: string[];
  /** Time limit of the case; default CONFORM_CASE_TIMEOUT_MS or 60 s. */
  timeoutMs?: number;
  /** Asked when the case is about to run, for what only the target can tell (what it reports about itself):
   * a reason makes the case not-applicable. */
  applicable?: (c: CaseContext) => Promise<string | undefined>;
}

export type CaseFn = (t: ExecutionContext, c: CaseContext) => Promise<void> | void;

/** Clause ID -> surface: from the runner's index when there is one (loading the YAML catalog with its
 * schema in every worker costs about half a second), else from the catalog itself. */
const clauseSurfaces: Map<string, string> = runEnv.clauseIndex
  ? new Map(Object.entries(JSON.parse(readFileSync(runEnv.clauseIndex, 'utf8')) as Record<string, string>))
  : new Map(
      (await directRunOnly<typeof import('../../tools/spec/catalog.ts')>('../../tools/spec/catalog.ts')).loadCatalog().clauses.map((c) => [c.id, c.surface]),
    );
const isOnly = runEnv.only.length > 0 ? picomatch(runEnv.only) : () => true;
const isSkipped = runEnv.skip.length > 0 ? picomatch(runEnv.skip) : () => false;

function decide(id: string, needs: string[], capabilities: string[]): { status: CaseStatus; reason?: string } {
  if (!isOnly(id) || isSkipped(id)) return { status: 'skipped', reason: FILTERED_OUT };
  // Tools of the harness are not the target's to offer: runCase ends such a case as `error` when one is missing.
  const missing = needs.filter((n) => !isHarnessTool(n) && !capabilities.includes(n));
  if (missing.length > 0) return { status: 'not-applicable', reason: `target lacks capability: ${missing.join(', ')}` };
  return { status: 'run' };
}

/** After a failed check, how long the case may go on to its other checks before it is stopped (its later
 * steps may wait for what the failed one should have brought). */
const CHECKS_GRACE_MS = 10_000;

/** A settable deadline: `limit` rejects with `CaseTimeout` when it passes; `shorten` brings it forward;
 * between `pause` and `resume` (which nest) its time does not run. Time the worker's event loop stalled
 * meanwhile is given back when it passes (up to the limit once more): the case could not run then. */
class Deadline {
  readonly limit: Promise<never>;
  #timer: NodeJS.Timeout | undefined;
  #at: number;
  #reject: (err: Error) => void = () => {};
  readonly #why: () => string;
  #pauses = 0;
  /** While paused: the time that was left. */
  #left = 0;
  #pausedAt = 0;
  #cleared = false;
  #pausedMs = 0;
  readonly #startedAt = Date.now();
  readonly #ms: number;
  #stalledMs = 0;

  constructor(ms: number, why: () => string) {
    this.#at = Date.now() + ms;
    this.#ms = ms;
    this.#why = why;
    this.limit = new Promise<never>((_, reject) => {
      this.#reject = reject;
    });
    this.limit.catch(() => undefined);
    this.#arm();
  }

  #arm(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#expire(), Math.max(0, this.#at - Date.now()));
  }

  #expire(): void {
    const stalled = Math.min(stalledMsSince(this.#startedAt), this.#ms);
    if (stalled > this.#stalledMs) {
      this.#at = Date.now() + stalled - this.#stalledMs;
      this.#stalledMs = stalled;
      this.#arm();
    } else this.#reject(new CaseTimeout(this.#why()));
  }

  /** The time given back for the worker's stalls, in ms. */
  get stalledMs(): number {
    return this.#stalledMs;
  }

  shorten(ms: number): void {
    if (this.#pauses > 0) {
      this.#left = Math.min(this.#left, ms);
      return;
    }
    if (Date.now() + ms >= this.#at) return;
    this.#at = Date.now() + ms;
    this.#arm();
  }

  pause(): void {
    if (this.#pauses++ > 0 || this.#cleared) return;
    clearTimeout(this.#timer);
    this.#left = Math.max(0, this.#at - Date.now());
    this.#pausedAt = Date.now();
  }

  resume(): void {
    if (--this.#pauses > 0 || this.#cleared) return;
    this.#pausedMs += Date.now() - this.#pausedAt;
    this.#at = Date.now() + this.#left;
    this.#arm();
  }

  /** How long it has been paused, in ms. */
  get pausedMs(): number {
    return this.#pausedMs;
  }

  clear(): void {
    this.#cleared = true;
    clearTimeout(this.#timer);
  }
}

/** Runs a case: its checks recorded, its time bounded, and an inconclusive end (the case could not judge
 * its clause, or did not finish) reported as such with its cause. */
async function runCase(t: ExecutionContext, id: string, surface: string, target: TargetSpec, options: CaseOptions, fn: CaseFn): Promise<void> {
  const timeoutMs = options.timeoutMs ?? runEnv.caseTimeoutMs;
  let failedChecks = 0;
  let over = false;
  const checks = recordingChecks(t, (message) => {
    // A case stopped by its time limit may still run on in the background (its targets stopped under it):
    // what it checks then is not its verdict.
    if (over) return;
    failedChecks++;
    emit({ type: 'check-failed', id, message });
    deadline.shorten(CHECKS_GRACE_MS);
  });
  const c = new CaseContext(checks, id, surface, target);
  const deadline: Deadline = new Deadline(timeoutMs, () =>
    failedChecks > 0
      ? `stopped ${CHECKS_GRACE_MS} ms after a failed check, still waiting on: ${c.lastStep() ?? 'its first step'}`
      : `the case did not finish within ${timeoutMs} ms${deadline.pausedMs > 0 ? ` (and ${deadline.pausedMs} ms more waiting for what other cases held: start slots, fixed ports)` : ''}${deadline.stalledMs > 0 ? ` (and ${deadline.stalledMs} ms more given back for this worker's stalled event loop)` : ''}; its last step: ${c.lastStep() ?? '(none recorded)'}`,
  );
  // Waiting for what other cases hold (start slots, fixed ports) is not this case's time.
  watchSlotWaits(c.signal, (waiting) => (waiting ? deadline.pause() : deadline.resume()));
  t.teardown(() => c.close());
  try {
    const cannotStage = missingHarnessTools(options.needs ?? []);
    if (cannotStage !== undefined) throw new Inconclusive(cannotStage);
    const notApplicable = await Promise.race([options.applicable?.(c), deadline.limit]);
    if (notApplicable !== undefined) {
      emit({ type: 'not-applicable', id, reason: notApplicable });
      t.pass();
      return;
    }
    await Promise.race([fn(checks, c), deadline.limit]);
  } catch (err) {
    // Judged wrong already: what the case ran into afterwards goes with its failed checks.
    if (failedChecks > 0) {
      emit({ type: 'check-failed', id, message: `then: ${errorText(err)}` });
      return;
    }
    if (err instanceof NotApplicable) {
      emit({ type: 'not-applicable', id, reason: err.message });
      t.pass();
      return;
    }
    if (isInconclusive(err)) {
      emit({ type: 'inconclusive', id, cause: err.message });
      t.fail(`inconclusive: ${err.message}`);
      return;
    }
    throw err;
  } finally {
    over = true;
    deadline.clear();
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err);
}

const loadedAt = Date.now();
let timed = false;

/** Once per worker's test file (one bundle, maybe of several files): its time, reported after its cases. */
function timeFile(): void {
  if (timed) return;
  timed = true;
  declarePerFileStops();
  test.after.always(() => emit({ type: 'file-time', file: fileURLToPath(test.meta.file), ms: Date.now() - loadedAt }));
}

export function check(id: string, fn: CaseFn): void;
export function check(id: string, options: CaseOptions, fn: CaseFn): void;
export function check(id: string, optionsOrFn: CaseOptions | CaseFn, maybeFn?: CaseFn): void {
  const options = typeof optionsOrFn === 'function' ? {} : optionsOrFn;
  const fn = typeof optionsOrFn === 'function' ? optionsOrFn : maybeFn!;
  if (!/^[a-z0-9-]+(\/[a-z0-9-]+){3,}$/.test(id)) {
    throw new Error(`case ID "${id}" must be <surface>/<area>/<rule>/<behaviour> in lowercase kebab-case`);
  }
  const clause = clauseIdOf(id);
  const surface = clauseSurfaces.get(clause);
  if (!surface) throw new Error(`case ${id}: no clause ${clause} in spec/`);
  const target = runEnv.targets[surface];
  if (!target) throw new Error(`case ${id}: no target for surface ${surface}`);
  const { status, reason } = decide(id, options.needs ?? [], target.capabilities);
  emit({ type: 'case', id, clause, surface, status, ...(reason ? { reason } : {}) });
  timeFile();
  if (status !== 'run' || runEnv.listOnly) {
    test.skip(id, () => {});
    return;
  }
  test(id, (t) => runCase(t, id, surface, target, options, fn));
}
