// The mutants StrykerJS would make of a surface's reference modules, listed without running anything (its
// own instrumenter), and a sample of them expressed as Stryker `mutate` ranges.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Instrumenter } from '@stryker-mutator/instrumenter';
import picomatch from 'picomatch';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import { loadReferenceTargets, readEntries } from '../../conformance/harness/reference-targets.ts';
import { mutantName } from './answers.ts';
import type { Reach } from './conformance-runner.ts';

export interface Position {
  /** 1-based. */
  line: number;
  /** 0-based, as Stryker's ranges take it. */
  column: number;
}

export interface ListedMutant {
  file: string;
  mutator: string;
  replacement: string;
  start: Position;
  end: Position;
}

/** The reference modules of `surface`'s target: what its bundle was built from, under reference/ and not
 * generated (the bundle is built first if it is not up to date). `files` (globs) narrows them. */
export function surfaceModules(surface: string, files: string[]): string[] {
  loadReferenceTargets([surface]);
  const outfile = readEntries()[surface]?.bundle?.outfile;
  if (!outfile || !existsSync(join(PROJECT_ROOT, `${outfile}.inputs.json`))) throw new Error(`surface ${surface}: its reference target has no bundle to mutate`);
  const inputs = JSON.parse(readFileSync(join(PROJECT_ROOT, `${outfile}.inputs.json`), 'utf8')) as string[];
  // Generated code (a gen/ folder: the gateway's compiled config schema) is its generator's to test: its
  // mutants are mostly in the embedded schema's descriptions, which nothing reads.
  const modules = inputs.filter((f) => f.startsWith('reference/') && /\.ts$/.test(f) && !f.endsWith('.test.ts') && !f.includes('/gen/')).sort();
  if (files.length === 0) return modules;
  const chosen = picomatch(files);
  return modules.filter((f) => chosen(f));
}

const quiet = {
  isTraceEnabled: () => false,
  isDebugEnabled: () => false,
  isInfoEnabled: () => false,
  isWarnEnabled: () => true,
  isErrorEnabled: () => true,
  isFatalEnabled: () => true,
  trace() {},
  debug() {},
  info() {},
  warn: (...args: unknown[]) => console.warn(...args),
  error: (...args: unknown[]) => console.error(...args),
  fatal: (...args: unknown[]) => console.error(...args),
};

/** Every mutant of `modules`, as Stryker's instrumenter places them (the same mutators, no exclusions). */
export async function listMutants(modules: string[]): Promise<ListedMutant[]> {
  const files = modules.map((name) => ({ name, content: readFileSync(join(PROJECT_ROOT, name), 'utf8'), mutate: true as const }));
  const instrumenter = new Instrumenter(quiet as never);
  const result = await instrumenter.instrument(files, { plugins: null, excludedMutations: [], ignorers: [], noHeader: false } as never);
  return result.mutants.map((m) => ({
    file: m.fileName,
    mutator: m.mutatorName,
    replacement: m.replacement,
    start: { line: m.location.start.line + 1, column: m.location.start.column },
    end: { line: m.location.end.line + 1, column: m.location.end.column },
  }));
}

const before = (a: Position, b: Position): boolean => a.line < b.line || (a.line === b.line && a.column <= b.column);
const within = (outer: ListedMutant, inner: ListedMutant): boolean =>
  outer.file === inner.file && before(outer.start, inner.start) && before(inner.end, outer.end);

/** A Stryker `mutate` range for exactly the place of `m` (with whatever mutants lie inside it). */
export function rangeOf(m: ListedMutant): string {
  return `${m.file}:${m.start.line}:${m.start.column}-${m.end.line}:${m.end.column}`;
}

/** A sample of about `size` mutants (never more), the same for the same mutants and seed: places drawn tier
 * by tier (`tier` of their module, lowest first), in the order of a hash within one, each taken with every
 * mutant inside it (a range selects those too), unless that would pass `size`. Places holding many mutants
 * (a whole function's body) are so drawn less often than small ones. */
export function sample(mutants: ListedMutant[], size: number, seed: string, tier: (module: string) => number = () => 0): { ranges: string[]; mutants: ListedMutant[] } {
  const key = (m: ListedMutant) => createHash('sha256').update(`${seed}\0${rangeOf(m)}`).digest('hex');
  const order = new Map([...new Map(mutants.map((m) => [rangeOf(m), m])).values()].map((m) => [m, { tier: tier(m.file), key: key(m) }]));
  const places = [...order.keys()].sort((a, b) => order.get(a)!.tier - order.get(b)!.tier || (order.get(a)!.key < order.get(b)!.key ? -1 : 1));
  const chosen = new Set<ListedMutant>();
  const ranges: string[] = [];
  for (const place of places) {
    if (chosen.size >= size) break;
    const inside = mutants.filter((m) => within(place, m) && !chosen.has(m));
    if (inside.length === 0 || chosen.size + inside.length > size) continue;
    for (const m of inside) chosen.add(m);
    ranges.push(rangeOf(place));
  }
  return { ranges, mutants: mutants.filter((m) => chosen.has(m)) };
}

/** The reach kept in the repository for `surface` (tools/mutate/reach/<surface>.json), if any. */
export function reachFile(surface: string): string {
  return join(PROJECT_ROOT, 'tools', 'mutate', 'reach', `${surface}.json`);
}

export function readReach(surface: string): Reach | undefined {
  const file = reachFile(surface);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Reach) : undefined;
}

/** Must-clause modules first: tier 0 for a module some suite file judging a must-clause reaches (or one the
 * kept reach does not know), 1 for the others. */
export function mustFirst(reach: Reach | undefined): (module: string) => number {
  if (!reach) return () => 0;
  return (module) => {
    const files = reach.modules[module];
    if (files === undefined) return 0;
    return files.some((f) => (reach.files[f] ?? []).length > 0) ? 0 : 1;
  };
}

/** The modules whose reach measured in a run differs from the kept one (a module the kept reach lacks too). */
export function reachChanges(kept: Reach | undefined, measured: Reach): string[] {
  return Object.entries(measured.modules)
    .filter(([module, files]) => {
      const before = kept?.modules[module];
      return before === undefined || before.join('\n') !== [...files].sort().join('\n');
    })
    .map(([module]) => module);
}

/** The name answers.ts gives `m` (Stryker's report counts columns from 1, its ranges from 0). */
export function listedName(m: ListedMutant): string {
  return mutantName({ file: m.file, line: m.start.line, column: m.start.column + 1, mutator: m.mutator, replacement: m.replacement });
}

/** Answers naming a mutant of `modules` that the listing no longer has (the code moved or changed). */
export function staleAnswers(answered: Iterable<string>, listed: ListedMutant[], modules: string[]): string[] {
  const names = new Set(listed.map(listedName));
  return [...answered].filter((name) => modules.includes(name.split(':')[0]!) && !names.has(name));
}
