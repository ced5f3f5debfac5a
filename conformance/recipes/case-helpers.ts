// Small pieces the recipe cases share: data made once per recipe manager (a test file's cases reuse the
// accounts and recipes of its shared instance), properties whose prerequisite steps end the case as `error`
// rather than as a failed property, and the suite's two verdicts on a status where the document gives none.
import type fc from 'fast-check';
import type { CaseContext } from '../harness/case-context.ts';
import type { HttpResponse } from '../harness/http-client.ts';
import { Inconclusive } from '../harness/inconclusive.ts';
import type { Instance } from './target.ts';

/** A refusal: any 4xx (the document gives no status for most refusals: 401, 403 and 404 are all fine). */
export const refused = (res: HttpResponse): boolean => res.status >= 400 && res.status < 500;

const made = new Map<string, Promise<unknown>>();

/** What `make` makes, once per recipe manager start and `name` (a later case of the file reuses it). A make
 * that fails is tried again by the next case asking (its cause goes to the case that ran it). */
export function once<T>(inst: Instance, name: string, make: () => Promise<T>): Promise<T> {
  const key = `${inst.api.key}\n${name}`;
  let value = made.get(key) as Promise<T> | undefined;
  if (!value) {
    value = make();
    made.set(key, value);
    value.catch(() => made.delete(key));
  }
  return value;
}

/**
 * c.property for runs that take prerequisite steps (create a recipe, read an answer): a step that cannot be
 * taken ends the case as `error` with its cause, after the property, instead of counting as a counterexample
 * (fast-check would shrink it and report a failure of the clause).
 */
export async function guardedProperty<T>(
  c: CaseContext,
  arb: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  numRuns: number,
): Promise<void> {
  let stopped: Inconclusive | undefined;
  await c.property(
    arb,
    async (value) => {
      if (stopped) return;
      try {
        await predicate(value);
      } catch (err) {
        if (!(err instanceof Inconclusive)) throw err;
        stopped = err;
      }
    },
    { numRuns },
  );
  if (stopped) throw stopped;
}

/** Letters only, so any reasonable text search, tokenizer or tag rule keeps it whole: a word no other text of
 * the suite contains. */
export function uniqueWord(prefix = 'zq'): string {
  let word = prefix;
  for (let i = 0; i < 10; i++) word += String.fromCharCode(97 + Math.floor(Math.random() * 26));
  return word;
}
