// One answer per identical speech request in a test file: recognition costs seconds of CPU, and several
// cases check different sides of the same answer. The first case to ask makes the call; the others note
// that they reuse its answer (its reproducer is in the first case's notes).
import type { CaseContext } from '../harness/case-context.ts';

const answers = new Map<string, Promise<unknown>>();

export function sharedAnswer<T>(c: CaseContext, request: object, call: () => Promise<T>): Promise<T> {
  const key = JSON.stringify(request, (_k, v: unknown) => (v instanceof Uint8Array ? `${v.length} bytes` : v));
  let answer = answers.get(key);
  if (answer) c.note(`# answer shared with an identical earlier request: ${key}`);
  else {
    answer = call();
    answers.set(key, answer);
  }
  return answer as Promise<T>;
}
