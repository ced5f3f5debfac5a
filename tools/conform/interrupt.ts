// Ctrl-C, SIGTERM and SIGHUP during a run. The first one aborts `signal`: the run stops ava and every process
// it started, removes its folders, and still writes the reports of what ran (marked interrupted), then exits
// with 128 + the signal's number. A second one does the stopping and removing at once, in this handler
// (the `now` steps registered by whatever started something), and exits without reports.
import { constants } from 'node:os';

export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** A repeat of the first signal within this time is the same one delivered twice (below). */
const SAME_SIGNAL_ECHO_MS = 500;

export interface Interrupted {
  signal: StopSignal;
  /** When the first signal came (ISO 8601). */
  at: string;
}

export class Interruption {
  readonly #controller = new AbortController();
  #first: Interrupted | undefined;
  #firstAt = 0;
  readonly #now = new Set<() => void>();
  readonly #handlers = new Map<StopSignal, () => void>();

  /** Aborted by the first signal. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get interrupted(): Interrupted | undefined {
    return this.#first;
  }

  /** 128 + the signal's number, as a shell reports a process ended by it (130 for SIGINT, 143 for SIGTERM). */
  get exitCode(): number {
    return this.#first ? 128 + constants.signals[this.#first.signal] : 0;
  }

  /** A step that stops or removes something at once (synchronously), for a second signal; the function
   * returned takes it back once done the ordinary way. */
  onSecondSignal(step: () => void): () => void {
    this.#now.add(step);
    return () => this.#now.delete(step);
  }

  install(): void {
    for (const name of STOP_SIGNALS) {
      const handler = (): void => this.#received(name);
      this.#handlers.set(name, handler);
      process.on(name, handler);
    }
  }

  uninstall(): void {
    for (const [name, handler] of this.#handlers) process.off(name, handler);
    this.#handlers.clear();
  }

  #received(name: StopSignal): void {
    if (this.#first === undefined) {
      this.#firstAt = Date.now();
      this.#first = { signal: name, at: new Date().toISOString() };
      process.stderr.write(`\ninterrupted (${name}): stopping every process of the run, then writing the reports of what ran (${name} again to stop at once)\n`);
      this.#controller.abort();
      return;
    }
    // The same signal again at once is one Ctrl-C delivered twice: by the terminal to its whole foreground
    // process group and forwarded by a parent (npm forwards SIGINT and SIGTERM to its script), not a second
    // press.
    if (name === this.#first.signal && Date.now() - this.#firstAt < SAME_SIGNAL_ECHO_MS) return;
    process.stderr.write(`\nsecond signal (${name}): stopping at once, no reports\n`);
    for (const step of this.#now) {
      try {
        step();
      } catch {
        // the others still run
      }
    }
    process.exit(this.exitCode);
  }
}
