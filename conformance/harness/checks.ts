// Every check of a case is reported, not only the first. ava stops a test at its first failed assertion (it
// throws); the case's `t` is wrapped so that a failed assertion is recorded and the case goes on to its
// next check. ava still marks the case failed (it keeps the first failure, with its diff); the others reach
// the runner as `check-failed` events, described here. A case whose later steps depend on a failed one may
// then stumble: the runner shows what it ran into after the first failure, and check.ts stops the case a
// short while after it (CHECKS_GRACE_MS).
import { inspect } from 'node:util';
import type { ExecutionContext } from 'ava';

/** ava's assertions that pass or fail a value (not t.plan, t.log, t.teardown, t.try…). */
const SYNC = new Set(['is', 'not', 'deepEqual', 'notDeepEqual', 'like', 'regex', 'notRegex', 'true', 'false', 'truthy', 'falsy', 'assert', 'fail', 'throws', 'notThrows']);
const ASYNC = new Set(['throwsAsync', 'notThrowsAsync']);
/** How many arguments of each assertion are values to show (the rest is the message). */
const VALUES: Record<string, number> = { is: 2, not: 2, deepEqual: 2, notDeepEqual: 2, like: 2, regex: 2, notRegex: 2, fail: 0, throws: 0, notThrows: 0, throwsAsync: 0, notThrowsAsync: 0 };
const SHOWN_CHARS = 1500;

function show(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : inspect(value, { depth: 4, breakLength: 120, maxArrayLength: 30, maxStringLength: 600 });
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)} … (${text.length} characters)` : text;
}

/** One failed check as text: `t.is(): <message>` then the values it was given. */
export function describeCheck(assertion: string, args: unknown[]): string {
  const values = VALUES[assertion] ?? 1;
  const message = args[values];
  const head = `t.${assertion}()${typeof message === 'string' && message !== '' ? `: ${message}` : ''}`;
  if (values === 0) return head;
  const labels = values === 2 ? ['actual', assertion.startsWith('not') ? 'not expected' : 'expected'] : ['value'];
  return [head, ...args.slice(0, values).map((v, i) => `  ${labels[i]}: ${show(v)}`)].join('\n');
}

/** `t`, with failed assertions recorded through `onFail` and returning false instead of throwing. */
export function recordingChecks(t: ExecutionContext, onFail: (description: string) => void): ExecutionContext {
  return new Proxy(t, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof prop !== 'string' || typeof value !== 'function') return value;
      if (SYNC.has(prop)) {
        return (...args: unknown[]) => {
          try {
            return value.apply(target, args);
          } catch {
            // ava has recorded the failure (the case is failed); what it threw carries no detail.
            onFail(describeCheck(prop, args));
            return prop.startsWith('throws') ? undefined : false;
          }
        };
      }
      if (ASYNC.has(prop)) {
        return (...args: unknown[]) =>
          (value.apply(target, args) as Promise<unknown>).catch(() => {
            onFail(describeCheck(prop, args));
            return undefined;
          });
      }
      return value;
    },
  });
}
