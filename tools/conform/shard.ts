// `--shard i/n`: the selected test files split into n parts of about equal time, for n CI machines whose
// reports `conform merge` joins. The split depends only on the file list and a times file (by default the
// times shipped with the suites, conformance/file-times.seed.json; not this machine's last run), so every
// machine computes the same partition: longest file first, each to the part with the least time so far
// (the lowest index on a tie); a file without a time counts as the mean of the others.
import { readFileSync } from 'node:fs';
import { SEED } from './file-times.ts';
import type { Suite } from './suites.ts';
import { UsageError } from './usage-error.ts';

export interface Shard {
  /** 1-based. */
  index: number;
  total: number;
}

/** `i/n` with 1 ≤ i ≤ n. */
export function parseShard(raw: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(raw);
  const [index, total] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (!match || total < 1 || index < 1 || index > total) throw new UsageError(`--shard ${raw}: expected i/n with 1 ≤ i ≤ n (e.g. 2/3)`);
  return { index, total };
}

/** The times file for the split: `file` (a JSON object, test file → milliseconds) or the shipped seed. */
export function readShardTimes(file: string = SEED): Record<string, number> {
  let times: unknown;
  try {
    times = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`--shard-times ${file}: ${(err as Error).message}`);
  }
  const entries = typeof times === 'object' && times !== null && !Array.isArray(times) ? Object.entries(times) : [];
  if (entries.length === 0 || entries.some(([, ms]) => typeof ms !== 'number' || !(ms >= 0))) {
    throw new UsageError(`--shard-times ${file}: expected a JSON object of test file → milliseconds`);
  }
  return Object.fromEntries(entries) as Record<string, number>;
}

/** The n parts of `files`, each sorted by name. */
export function partition(files: string[], total: number, times: Record<string, number>): string[][] {
  const known = files.map((f) => times[f]).filter((ms): ms is number => ms !== undefined);
  const fallback = known.length > 0 ? known.reduce((a, b) => a + b, 0) / known.length : 1;
  const time = (f: string): number => times[f] ?? fallback;
  const parts = Array.from({ length: total }, () => ({ files: [] as string[], ms: 0 }));
  const order = [...files].sort((a, b) => time(b) - time(a) || (a < b ? -1 : a > b ? 1 : 0));
  for (const file of order) {
    const lightest = parts.reduce((best, part) => (part.ms < best.ms ? part : best));
    lightest.files.push(file);
    lightest.ms += time(file);
  }
  return parts.map((p) => p.files.sort());
}

/** The suites restricted to the files of `shard` (a surface with none of them left out). */
export function shardSuites(suites: Suite[], shard: Shard, times: Record<string, number>): Suite[] {
  const mine = new Set(partition(suites.flatMap((s) => s.files), shard.total, times)[shard.index - 1]);
  return suites.map((s) => ({ ...s, files: s.files.filter((f) => mine.has(f)) })).filter((s) => s.files.length > 0);
}

/** The suites restricted to `files` (--file: conformance/<surface>/<name>.test.ts); a file that is not
 * a test file of the selected suites is a usage error. */
export function fileSuites(suites: Suite[], files: string[]): Suite[] {
  const all = new Set(suites.flatMap((s) => s.files));
  const unknown = files.filter((f) => !all.has(f));
  if (unknown.length > 0) {
    throw new UsageError(`--file ${unknown.join(', ')}: not a test file of the selected suites (they are conformance/<surface>/*.test.ts, as in conformance/file-times.seed.json)`);
  }
  const mine = new Set(files);
  return suites.map((s) => ({ ...s, files: s.files.filter((f) => mine.has(f)) })).filter((s) => s.files.length > 0);
}
