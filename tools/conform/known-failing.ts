// The known-failing list: YAML, a list of `{ glob, reason }`. Every entry needs a reason. An entry that
// matches no case of the suites it names is stale, like one whose case passes: both fail the run.
import { readFileSync } from 'node:fs';
import picomatch from 'picomatch';
import { parse } from 'yaml';
import { UsageError } from './usage-error.ts';

export interface KnownFailingEntry {
  glob: string;
  reason: string;
}

export interface KnownFailing {
  entries: KnownFailingEntry[];
  reasonFor(id: string): string | undefined;
}

export const NO_KNOWN_FAILURES: KnownFailing = { entries: [], reasonFor: () => undefined };

export function loadKnownFailing(file: string): KnownFailing {
  let data: unknown;
  try {
    data = parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`--known-failing ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const list = data ?? [];
  if (!Array.isArray(list)) throw new UsageError(`--known-failing ${file}: expected a YAML list of {glob, reason}`);
  const entries = list.map((entry: unknown, i: number): KnownFailingEntry => {
    const e = entry as { glob?: unknown; reason?: unknown };
    if (typeof e?.glob !== 'string' || typeof e.reason !== 'string' || e.reason.trim() === '') {
      throw new UsageError(`--known-failing ${file}: entry ${i} needs a string "glob" and a non-empty "reason"`);
    }
    return { glob: e.glob, reason: e.reason };
  });
  return knownFailingOf(entries);
}

/** The list of `entries` (as a report records them). */
export function knownFailingOf(entries: KnownFailingEntry[]): KnownFailing {
  const matchers = entries.map((e) => ({ match: picomatch(e.glob), reason: e.reason }));
  return { entries, reasonFor: (id) => matchers.find((m) => m.match(id))?.reason };
}

/** The entries that match none of `ids` (every case the run's suites registered). An entry whose glob names
 * a surface outside the run (its first segment, when that is plain text) is not judged: one list may serve
 * runs of one surface at a time. */
export function staleEntries(known: KnownFailing, surfaces: string[], ids: string[]): KnownFailingEntry[] {
  return known.entries.filter((e) => {
    const first = e.glob.split('/')[0] ?? '';
    if (!picomatch.scan(first).isGlob && !surfaces.includes(first)) return false;
    const match = picomatch(e.glob);
    return !ids.some((id) => match(id));
  });
}
