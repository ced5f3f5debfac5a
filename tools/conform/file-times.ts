// How long each test file took in the last full run (.cache/conformance/file-times.json): the runner hands
// ava the longest files first, so a long file (one that waits out timers, say) does not start last and hold
// up the end of the run while the other workers sit idle. ava keeps the order it is given.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';

const FILE = join(PROJECT_ROOT, '.cache', 'conformance', 'file-times.json');

function read(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

/** `files` ordered by their last time, longest first; files without one first of all (they may be long). */
export function longestFirst(files: string[]): string[] {
  const times = read();
  const time = (file: string): number => times[file] ?? Number.POSITIVE_INFINITY;
  return [...files].sort((a, b) => time(b) - time(a));
}

export function recordFileTimes(times: Map<string, number>): void {
  if (times.size === 0) return;
  const merged = { ...read(), ...Object.fromEntries(times) };
  mkdirSync(dirname(FILE), { recursive: true });
  const tmp = `${FILE}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(merged, null, 2)}\n`);
  renameSync(tmp, FILE);
}
