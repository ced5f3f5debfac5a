// Permitted-variant targets: the twin of the faulty ones. A variant target differs from the reference only
// where the documents leave room (wording, shapes, extra fields or tools, success codes where none is given,
// slower answers within the limits…). A suite must judge such a target conforming: per variant set, zero
// must failures and zero errors, and exactly the listed informational outcomes (the reference's recorded
// choices the variant does not share). Across the sets of a surface, every must-case passes against at least
// one variant. `variantSuite` registers those tests for one surface.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import type { JsonReport } from '../conform/report-json.ts';
import { loadCatalog, type Surface } from '../spec/catalog.ts';
import { described } from './red-clauses.ts';
import { runTool, tempDir } from './run-cli.ts';

export interface VariantSet {
  /** The variants the target turns on, passed to it as VARIANTS=a,b (--target-env). */
  variants: string[];
  /** `--only` globs; default: the whole suite. */
  selection?: string[];
  /** More arguments of the run (`--describe surface=file`, more `--target-env`). */
  args?: string[];
  /** Exactly the case IDs that end informational against this set (the reference's choices it differs from). */
  informational: string[];
  /** Exactly the case IDs that end not-applicable against this set. */
  notApplicable?: string[];
}

export interface VariantSurface {
  surface: Surface;
  /** The `--target` value after `<surface>=`: `cmd:…` starting the variant target. */
  target: string;
  /** Every variant the target knows: each must be turned on by some set. */
  variants: readonly string[];
  sets: VariantSet[];
}

type Ran = { report: JsonReport; code: number | null; stdout: string; stderr: string };

/** A result's ID and the start of its message (a thrown error's reason is on the lines after its headline). */
const line = (r: JsonReport['results'][number]) => `${r.id}: ${r.message.split('\n').slice(0, 6).join(' | ').slice(0, 600)}`;

function mustCases(surface: Surface, listed: string): string[] {
  const levels = new Map(loadCatalog().clauses.map((c) => [c.id, c.level]));
  return listed
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter(([id, clause]) => id?.startsWith(`${surface}/`) && clause !== undefined && levels.get(clause) === 'must')
    .map(([id]) => id!);
}

export function variantSuite({ surface, target, variants, sets }: VariantSurface): void {
  const runs: (() => Promise<Ran>)[] = [];

  for (const set of sets) {
    const run = async (): Promise<Ran> => {
      const reports = tempDir();
      const args = [
        '--surface',
        surface,
        '--target',
        `${surface}=${target}`,
        '--target-env',
        `${surface}=VARIANTS=${set.variants.join(',')}`,
        ...(set.args ?? []),
        ...(set.selection ?? []).flatMap((g) => ['--only', g]),
        '--report-dir',
        reports,
      ];
      const { code, stdout, stderr } = await runTool('conform', args);
      const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as JsonReport;
      return { report, code, stdout, stderr };
    };
    // Run when its test runs (test.serial: one after another, each is a suite run of its own), once.
    let started: Promise<Ran> | undefined;
    const lazy = (): Promise<Ran> => (started ??= run());
    runs.push(lazy);
    test.serial(`${surface} variant [${set.variants.join(', ')}]: no must failure or error, informational exactly as listed`, async (t) => {
      const { report, code, stdout, stderr } = await lazy();
      const of = (...outcomes: string[]) => report.results.filter((r) => outcomes.includes(r.outcome));
      t.deepEqual(of('fail').map(line), [], 'must failures');
      t.deepEqual(of('error').map(line), [], 'errors (cases that could not judge their clause)');
      const listed = new Set(set.informational);
      const unlisted = of('informational').filter((r) => !listed.has(r.id));
      t.deepEqual(
        of('informational').map((r) => r.id).sort(),
        [...set.informational].sort(),
        `informational outcomes${unlisted.length > 0 ? `; not listed:\n${unlisted.map(described).join('\n')}` : ''}`,
      );
      t.deepEqual(of('not-applicable').map((r) => r.id).sort(), [...(set.notApplicable ?? [])].sort(), 'not-applicable outcomes');
      t.is(code, 0, `${stderr}\n${stdout.slice(-3000)}`);
    });
  }

  test.serial(`${surface} variants: every variant is turned on by some set`, (t) => {
    t.deepEqual([...new Set(sets.flatMap((s) => s.variants))].sort(), [...variants].sort());
  });

  test.serial(`${surface} variants: every must-case passes against at least one variant set`, async (t) => {
    const listed = await runTool('conform', ['--list', '--surface', surface]);
    t.is(listed.code, 0, listed.stderr);
    const passed = new Set((await Promise.all(runs.map((r) => r()))).flatMap((r) => r.report.results.filter((x) => x.outcome === 'pass').map((x) => x.id)));
    t.deepEqual(
      mustCases(surface, listed.stdout).filter((id) => !passed.has(id)),
      [],
      'must-cases no variant set ran to a pass',
    );
  });
}
