// The case IDs of each suite, kept from the last run that loaded it (.cache/conformance/case-ids.json) with
// a fingerprint of what the suites register their cases from (conformance/, fixtures/, proto/): before a run
// they tell how many cases it will run (the progress line) and whether each --only/--skip glob matches any
// case, without loading the suites. A stale or missing entry costs a list pass when a glob must be checked
// (main.ts). Every run that loads a suite to its end refreshes its entry.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { distance } from 'fastest-levenshtein';
import picomatch from 'picomatch';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';

const FILE = join(PROJECT_ROOT, '.cache', 'conformance', 'case-ids.json');
const SOURCES = ['conformance', 'fixtures', 'proto'];

type Index = Record<string, { fingerprint: string; ids: string[] }>;

/** A hash of every file the suites are built from or read as they register their cases. */
export function suitesFingerprint(): string {
  const hash = createHash('sha1');
  for (const top of SOURCES) {
    const files = readdirSync(join(PROJECT_ROOT, top), { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => join(d.parentPath, d.name))
      .sort();
    for (const file of files) hash.update(`${file}\0`).update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

function read(): Index {
  try {
    return JSON.parse(readFileSync(FILE, 'utf8')) as Index;
  } catch {
    return {};
  }
}

export interface KnownCases {
  /** Per surface, its case IDs as last seen. */
  ids: Map<string, string[]>;
  /** Every surface's entry is of the suites as they are now (else some are of an earlier state, or missing). */
  current: boolean;
}

/** What the index knows of `surfaces`' cases; `ids` lacks a surface never run here. */
export function knownCases(surfaces: string[], fingerprint: string): KnownCases {
  const index = read();
  const ids = new Map<string, string[]>();
  let current = true;
  for (const s of surfaces) {
    const entry = index[s];
    if (entry) ids.set(s, entry.ids);
    if (entry?.fingerprint !== fingerprint) current = false;
  }
  return { ids, current };
}

/** Records the case IDs a run saw, per surface. */
export function recordCases(ids: Map<string, string[]>, fingerprint: string): void {
  if (ids.size === 0) return;
  const index = read();
  for (const [surface, list] of ids) index[surface] = { fingerprint, ids: [...list].sort() };
  mkdirSync(dirname(FILE), { recursive: true });
  const tmp = `${FILE}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(index)}\n`);
  renameSync(tmp, FILE);
}

/** The globs of `globs` that match none of `ids`. */
export function unmatchedGlobs(globs: string[], ids: string[]): string[] {
  return globs.filter((glob) => {
    const match = picomatch(glob);
    return !ids.some((id) => match(id));
  });
}

/** Up to `n` case IDs nearest to what `glob` spells before its first wildcard (edit distance to as much of
 * each ID), nearest first. */
export function nearestIds(glob: string, ids: string[], n = 3): string[] {
  const literal = glob.split(/[*?[\]{}()!+@]/)[0] ?? '';
  return ids
    .map((id) => ({ id, d: distance(literal, id.slice(0, Math.max(literal.length, 1))) }))
    .sort((a, b) => a.d - b.d || a.id.localeCompare(b.id))
    .slice(0, n)
    .map((x) => x.id);
}

/** One line per glob of `--option` that matches no case, with the nearest IDs; empty when all match. */
export function globErrors(option: string, globs: string[], ids: string[]): string[] {
  return unmatchedGlobs(globs, ids).map((glob) => `${option} '${glob}' matches no case of the selected suites; nearest: ${nearestIds(glob, ids).join(', ') || '(none)'}`);
}
