// Every process the harness starts carries two marks in its environment, which its children inherit even when
// they leave its process group (a daemon, a cluster manager, `setsid`): the run's (CONFORM_RUN) and its own
// start's (CONFORM_LAUNCH). Stopping a start kills its group, then every process still marked as that start;
// the runner, at its end, kills every process still marked as the run. Linux only (/proc); elsewhere the
// process group is all there is.
import { readdirSync, readFileSync } from 'node:fs';

export const RUN_MARK = 'CONFORM_RUN';
export const LAUNCH_MARK = 'CONFORM_LAUNCH';

/** This run's mark: the runner's, or in a direct ava run this worker's own. */
export const runMark = process.env[RUN_MARK] || `direct-${process.pid}`;

let launches = 0;

/** A fresh value of LAUNCH_MARK for one start. */
export function launchMark(): string {
  return `${process.pid}-${++launches}-${Date.now().toString(36)}`;
}

/** The pids of the processes (other than this one) whose environment holds `name=value`. */
export function marked(name: string, value: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const needle = Buffer.from(`\0${name}=${value}\0`);
  const pids: number[] = [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      // A leading NUL so the first variable matches like the others.
      const environ = Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${pid}/environ`)]);
      if (environ.includes(needle)) pids.push(pid);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return pids;
}

/** SIGKILLs every process marked `name=value`; returns how many there were. */
export function killMarked(name: string, value: string): number {
  const pids = marked(name, value);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  return pids.length;
}
