// `check(id, fn)` registers one conformance case with ava. The ID is `<clause-id>/<behaviour>`; the clause
// must exist in the catalog. Filtering (--only/--skip) and capabilities are decided here, at registration,
// and reported to the runner as events.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import test, { type ExecutionContext } from 'ava';
import picomatch from 'picomatch';
import { clauseIdOf } from '../../tools/spec/clause-id.ts';
import { CaseContext } from './case-context.ts';
import { environmentCapabilities } from './environment.ts';
import { type CaseStatus, emit } from './events.ts';
import { directRunOnly, runEnv } from './run-env.ts';

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
const machineCapabilities = environmentCapabilities();
const isOnly = runEnv.only.length > 0 ? picomatch(runEnv.only) : () => true;
const isSkipped = runEnv.skip.length > 0 ? picomatch(runEnv.skip) : () => false;

function decide(id: string, needs: string[], capabilities: string[]): { status: CaseStatus; reason?: string } {
  if (!isOnly(id) || isSkipped(id)) return { status: 'skipped', reason: 'filtered out by --only/--skip' };
  const missing = needs.filter((n) => !capabilities.includes(n));
  if (missing.length > 0) return { status: 'not-applicable', reason: `target lacks capability: ${missing.join(', ')}` };
  return { status: 'run' };
}

async function withTimeout(work: Promise<void> | void, ms: number, id: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${id}: timed out after ${ms} ms`)), ms);
  });
  try {
    await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}

const loadedAt = Date.now();
let timed = false;

/** Once per test file: its time, reported after its cases. */
function timeFile(): void {
  if (timed) return;
  timed = true;
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
  const { status, reason } = decide(id, options.needs ?? [], [...target.capabilities, ...machineCapabilities]);
  emit({ type: 'case', id, clause, surface, status, ...(reason ? { reason } : {}) });
  timeFile();
  if (status !== 'run' || runEnv.listOnly) {
    test.skip(id, () => {});
    return;
  }
  test(id, async (t) => {
    const c = new CaseContext(t, id, target);
    t.teardown(() => c.close());
    const notApplicable = await options.applicable?.(c);
    if (notApplicable !== undefined) {
      emit({ type: 'not-applicable', id, reason: notApplicable });
      t.pass();
      return;
    }
    await withTimeout(fn(t, c), options.timeoutMs ?? runEnv.caseTimeoutMs, id);
  });
}
