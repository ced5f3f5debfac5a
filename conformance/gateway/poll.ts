// Waiting for the gateway to report what the case brought about (a probe cycle, an ejection): polls a
// reading until it satisfies a condition or the time is up, and gives the last reading either way.
export interface Polled<T> {
  value: T;
  met: boolean;
  waitedMs: number;
}

export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5000, everyMs = 100): Promise<Polled<T>> {
  const start = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return { value, met: true, waitedMs: Date.now() - start };
    if (Date.now() - start >= timeoutMs) return { value, met: false, waitedMs: Date.now() - start };
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `condition` holds (checked every 20 ms), false after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) return false;
    await sleep(20);
  }
  return true;
}
