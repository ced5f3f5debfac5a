// A mutation run stopped by SIGINT, SIGTERM or SIGHUP leaves nothing behind: every process it started carries
// MUTATE_RUN=<mark> in its environment (Stryker's workers, the conformance runs, their targets); the
// conformance runs are asked to stop first (each ends its own targets and removes its folders), then what is
// left is killed, the run's folders removed, and the run exits with 128 + the signal's number.
import { constants } from 'node:os';
import { alive, commandLine, killMarked, marked } from '../../conformance/harness/sweep.ts';

export const MUTATE_MARK = 'MUTATE_RUN';
/** How long the conformance runs get to stop their targets. */
const RUNS_STOP_MS = 20_000;

let stopping = false;

/** Whether a signal is being handled: the run's own ending waits for it (the handler exits). */
export async function unlessInterrupted(): Promise<void> {
  if (stopping) await new Promise(() => {});
}

/** Marks this process's children with `mark` and stops everything so marked on a signal; `cleanup` removes
 * the run's folders. */
export function stopOnSignals(mark: string, cleanup: () => void): void {
  process.env[MUTATE_MARK] = mark;
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) return;
    stopping = true;
    console.error(`\ninterrupted (${signal}): stopping the conformance runs and their targets, then removing the run's folders`);
    const runs = marked(MUTATE_MARK, mark).filter((pid) => commandLine(pid).includes('tools/conform/main.ts'));
    for (const pid of runs) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // Ended meanwhile.
      }
    }
    const until = Date.now() + RUNS_STOP_MS;
    while (runs.some(alive) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
    killMarked(MUTATE_MARK, mark);
    cleanup();
    process.exit(128 + constants.signals[signal]);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, (s) => void stop(s));
}
