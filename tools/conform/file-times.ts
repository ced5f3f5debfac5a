// How long each test file took in the last full run (.cache/conformance/file-times.json): the runner hands
// ava the longest files first, so a long file (one that waits out timers, say) does not start last and hold
// up the end of the run while the other workers sit idle. ava keeps the order it is given. A fresh checkout
// has no run yet: the times of a run on the project's machine (conformance/file-times.seed.json, refreshed
// by hand with `cp .cache/conformance/file-times.json conformance/file-times.seed.json`) stand in.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';

const FILE = join(PROJECT_ROOT, '.cache', 'conformance', 'file-times.json');
const SEED = join(PROJECT_ROOT, 'conformance', 'file-times.seed.json');

function read(file: string): Record<string, number> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

/** `files` ordered by their last time, longest first; files without one first of all (they may be long). */
export function longestFirst(files: string[]): string[] {
  const times = { ...read(SEED), ...read(FILE) };
  const time = (file: string): number => times[file] ?? Number.POSITIVE_INFINITY;
  return [...files].sort((a, b) => time(b) - time(a));
}

export function recordFileTimes(times: Map<string, number>): void {
  if (times.size === 0) return;
  const merged = { ...read(FILE), ...Object.fromEntries(times) };
  mkdirSync(dirname(FILE), { recursive: true });
  const tmp = `${FILE}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(merged, null, 2)}\n`);
  renameSync(tmp, FILE);
}
