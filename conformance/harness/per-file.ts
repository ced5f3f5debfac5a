// Things a test file starts once and shares between its cases (a service, a stub, a server of the target, a
// browser), each under a name, stopped when the file's cases are done. The hook that stops them is declared
// with the file's first case (check.ts), not when a module calls perFile: a module evaluated before the
// harness's own start-up (which awaits, on a direct run, the reference targets and the catalog) would declare
// it early, ava would then start the file on the next tick, and the cases declared after the wait be refused.
import test from 'ava';

const stops: (() => Promise<unknown>)[] = [];
let declared = false;

/** Declares the one hook that stops what perFile started; called with the file's first case. */
export function declarePerFileStops(): void {
  if (declared) return;
  declared = true;
  test.after.always(() => Promise.all(stops.map((stopAll) => stopAll())));
}

/** A starter of named shared things; `stop` ends one (call once per kind, at module level). */
export function perFile<T>(stop: (value: T) => unknown): (name: string, start: () => Promise<T>) => Promise<T> {
  const started = new Map<string, Promise<T>>();
  stops.push(() =>
    Promise.all(
      [...started.values()].map(async (p) => {
        const value = await p.catch(() => undefined);
        if (value !== undefined) await stop(value);
      }),
    ),
  );
  return (name, start) => {
    let value = started.get(name);
    if (!value) {
      value = start();
      started.set(name, value);
    }
    return value;
  };
}
