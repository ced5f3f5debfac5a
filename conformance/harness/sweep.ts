// Every process the harness starts carries two marks in its environment, which its children inherit even when
// they leave its process group (a daemon, a cluster manager, `setsid`): the run's (CONFORM_RUN) and its own
// start's (CONFORM_LAUNCH). Stopping a start kills its group, then every process still marked as that start;
// the runner, at its end, kills every process still marked as the run. Linux only (/proc); elsewhere the
// process group is all there is. A start's sweep reads the environment only of processes that did not exist
// when it began (a pid taken again within one case would need the whole pid range to wrap meanwhile; the
// run's own sweep at its end reads them all): reading every process's environment at every stop was a few
// percent of a run's CPU.
import { readdirSync, readFileSync } from 'node:fs';

export const RUN_MARK = 'CONFORM_RUN';
export const LAUNCH_MARK = 'CONFORM_LAUNCH';

/** This run's mark: the runner's, or in a direct ava run this worker's own. */
export const runMark = process.env[RUN_MARK] || `direct-${process.pid}`;

let launches = 0;

export interface StartMark {
  /** The value of LAUNCH_MARK in the start's environment. */
  value: string;
  /** SIGKILLs every process marked as this start; returns how many there were. */
  sweep(): number;
}

/** A fresh value of LAUNCH_MARK for one start (made just before it). */
export function startMark(): StartMark {
  const value = `${process.pid}-${++launches}-${Date.now().toString(36)}`;
  const before = new Set(processIds());
  return { value, sweep: () => killPids(marked(LAUNCH_MARK, value, before)) };
}

function processIds(): number[] {
  try {
    return readdirSync('/proc')
      .map(Number)
      .filter((pid) => Number.isInteger(pid));
  } catch {
    return [];
  }
}

/** The pids of the processes (other than this one, and than those in `except`) whose environment holds
 * `name=value`. */
export function marked(name: string, value: string, except: ReadonlySet<number> = new Set()): number[] {
  const needle = Buffer.from(`\0${name}=${value}\0`);
  const pids: number[] = [];
  for (const pid of processIds()) {
    if (pid === process.pid || except.has(pid)) continue;
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

/** Process `pid`'s command line, its arguments joined by spaces; '' once it is gone (or not ours to read). */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return '';
  }
}

/** Whether process `pid` is running (one of another user counts). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** SIGKILLs every process marked `name=value`; returns how many there were. */
export function killMarked(name: string, value: string): number {
  return killPids(marked(name, value));
}

/** Sends `signal` to every process marked `name=value`; returns how many there were. */
export function signalMarked(name: string, value: string, signal: NodeJS.Signals): number {
  return killPids(marked(name, value), signal);
}

function killPids(pids: number[], signal: NodeJS.Signals = 'SIGKILL'): number {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
  return pids.length;
}
