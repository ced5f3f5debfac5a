// The known-failing list: YAML, a list of `{ glob, reason }`. Every entry needs a reason.
import { readFileSync } from 'node:fs';
import picomatch from 'picomatch';
import { parse } from 'yaml';
import { UsageError } from './usage-error.ts';

export interface KnownFailing {
  reasonFor(id: string): string | undefined;
}

export const NO_KNOWN_FAILURES: KnownFailing = { reasonFor: () => undefined };

export function loadKnownFailing(file: string): KnownFailing {
  let data: unknown;
  try {
    data = parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`--known-failing ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const entries = data ?? [];
  if (!Array.isArray(entries)) throw new UsageError(`--known-failing ${file}: expected a YAML list of {glob, reason}`);
  const matchers = entries.map((entry: unknown, i: number) => {
    const e = entry as { glob?: unknown; reason?: unknown };
    if (typeof e?.glob !== 'string' || typeof e.reason !== 'string' || e.reason.trim() === '') {
      throw new UsageError(`--known-failing ${file}: entry ${i} needs a string "glob" and a non-empty "reason"`);
    }
    return { match: picomatch(e.glob), reason: e.reason };
  });
  return { reasonFor: (id) => matchers.find((m) => m.match(id))?.reason };
}
