// How long each test file took in the last full run (.cache/conformance/file-times.json), and from that the
// runner's plan of ava workers: the longest files first, so a long file (one that waits out timers, say) does
// not start last and hold up the end of the run while the other workers sit idle (ava keeps the order it is
// given); and the short files several to a worker, because a worker's own start (node, ava, the harness and
// the packages a suite loads) costs about 0.4 s of CPU, a quarter of a whole run's CPU when every file had its
// own. A worker's files are of different surfaces: what a surface's harness starts once per file (per-file.ts,
// by name) is kept per worker, so two files of one surface in a worker would share it. A fresh checkout has no
// run yet: the times of a run on the project's machine (conformance/file-times.seed.json, refreshed by hand with
// `cp .cache/conformance/file-times.json conformance/file-times.seed.json`) stand in.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';

const FILE = join(PROJECT_ROOT, '.cache', 'conformance', 'file-times.json');
export const SEED = join(PROJECT_ROOT, 'conformance', 'file-times.seed.json');

/** A file that took this long runs in a worker of its own. */
export const ALONE_FROM_MS = 15_000;
/** Short files share a worker up to this much time together (its cases share the worker's start slots,
 * launch.ts). */
export const SHARED_UP_TO_MS = 40_000;

export function read(file: string): Record<string, number> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

/** `conformance/<surface>/….test.ts` → surface. */
const surfaceOf = (file: string): string => file.split('/')[1] ?? file;

function lastTimes(recorded: Record<string, number> = read(FILE)): Record<string, number> {
  return { ...read(SEED), ...recorded };
}

/** `files` as ava workers, the longest first (by their files' last times summed): a file without a time
 * (it may be long) or of at least ALONE_FROM_MS alone, the others packed first-fit, longest first, into
 * groups of at most SHARED_UP_TO_MS and one file per surface. */
export function workerGroups(files: string[], times: Record<string, number> = lastTimes()): string[][] {
  const time = (file: string): number => times[file] ?? Number.POSITIVE_INFINITY;
  const groups: { files: string[]; ms: number }[] = [];
  const shared: { files: string[]; ms: number }[] = [];
  for (const file of [...files].sort((a, b) => time(b) - time(a))) {
    const ms = time(file);
    if (ms >= ALONE_FROM_MS) {
      groups.push({ files: [file], ms });
      continue;
    }
    const fits = shared.find((g) => g.ms + ms <= SHARED_UP_TO_MS && !g.files.some((f) => surfaceOf(f) === surfaceOf(file)));
    if (fits) {
      fits.files.push(file);
      fits.ms += ms;
    } else shared.push({ files: [file], ms });
  }
  return [...groups, ...shared].sort((a, b) => b.ms - a.ms).map((g) => g.files);
}

/** Records how long each worker took: a worker of several files shares its time among them as their last
 * times did (equally when none had one). */
export function recordWorkerTimes(workers: { files: string[]; ms: number }[]): void {
  if (workers.length === 0) return;
  const merged = read(FILE);
  const last = lastTimes(merged);
  for (const { files, ms } of workers) {
    const before = files.map((f) => last[f] ?? 0);
    const total = before.reduce((a, b) => a + b, 0);
    files.forEach((file, i) => {
      merged[file] = Math.round(total > 0 ? (ms * before[i]!) / total : ms / files.length);
    });
  }
  mkdirSync(dirname(FILE), { recursive: true });
  const tmp = `${FILE}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(merged, null, 2)}\n`);
  renameSync(tmp, FILE);
}

/** How long running `files` should take, from their last times: ava runs the worker groups in order, at
 * most `atOnce` at a time, each starting when one ends. Undefined when a file has no time yet. */
export function expectedRunMs(files: string[], atOnce: number, times: Record<string, number> = lastTimes()): number | undefined {
  if (files.some((f) => times[f] === undefined)) return undefined;
  const slots: number[] = Array.from({ length: Math.max(1, atOnce) }, () => 0);
  for (const group of workerGroups(files, times)) {
    const ms = group.reduce((sum, f) => sum + times[f]!, 0);
    const free = slots.indexOf(Math.min(...slots));
    slots[free]! += ms;
  }
  return Math.max(...slots);
}
