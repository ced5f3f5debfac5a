// Things a test file starts once and shares between its cases (a service, a stub, a server of the target),
// each under a name, stopped when the file's cases are done.
import { afterFile } from './after-file.ts';

/** A starter of named shared things; `stop` ends one (call once per kind, at module level). */
export function perFile<T>(stop: (value: T) => unknown): (name: string, start: () => Promise<T>) => Promise<T> {
  const started = new Map<string, Promise<T>>();
  afterFile(async () => {
    await Promise.all(
      [...started.values()].map(async (p) => {
        const value = await p.catch(() => undefined);
        if (value !== undefined) await stop(value);
      }),
    );
  });
  return (name, start) => {
    let value = started.get(name);
    if (!value) {
      value = start();
      started.set(name, value);
    }
    return value;
  };
}
