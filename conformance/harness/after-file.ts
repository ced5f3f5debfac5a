// Work a test file's modules leave for the end of its cases (stopping what they started). Modules declare it
// here rather than with ava's hooks: a module evaluated before the harness's own start-up (which awaits, on
// a direct run, the reference targets and the catalog) would declare a hook early, ava would then start the
// file on the next tick, and the file's cases, declared after the wait, would be refused.
import test from 'ava';

const pending: (() => unknown)[] = [];
let declared = false;

/** Runs `fn` once the file's cases are done (with the others, concurrently), whatever their outcome. */
export function afterFile(fn: () => unknown): void {
  pending.push(fn);
}

/** Declares the one hook that runs the work left by afterFile; called with the file's first case. */
export function declareAfterFile(): void {
  if (declared) return;
  declared = true;
  test.after.always(async () => {
    await Promise.all(pending.map(async (fn) => fn()));
  });
}
