// CI gate: every suite passes against the reference servers, informational cases too (the reference does
// what its catalog records for the unspecified clauses), with every must-clause of a suite's surface covered
// by at least one case, except the clauses listed as pending below (visible, with their reason; the list
// must be exact, so a pending clause that gains a case has to leave it).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import picomatch from 'picomatch';
import { loadCatalog } from '../spec/catalog.ts';
import type { JsonReport } from '../conform/report-json.ts';
import { runTool, tempDir } from './run-cli.ts';

/** Must-clauses whose cases come with a later part of the work. */
const PENDING: { glob: string; reason: string }[] = [];

/** A result as shown when it should not be there: its first lines, enough to tell the cause in a CI log. */
const shown = (r: JsonReport['results'][number]): string => `${r.id}: ${r.message.split('\n').slice(0, 6).join(' | ')}`;

test('the reference servers pass every suite', async (t) => {
  const reports = tempDir();
  const run = await runTool('conform', ['--report-dir', reports]);
  const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as JsonReport;
  const failed = report.results.filter((r) => r.outcome === 'fail').map(shown);
  t.deepEqual(failed, []);
  const errors = report.results.filter((r) => r.outcome === 'error').map(shown);
  t.deepEqual(errors, [], 'cases that could not judge their clause against the reference');
  const informational = report.results.filter((r) => r.outcome === 'informational').map(shown);
  t.deepEqual(informational, [], 'the reference differs from its own recorded choices');
  t.is(run.code, 0, `${run.stderr}\n${run.stdout.slice(-3000)}`);
  const suites = new Set(report.results.map((r) => r.surface));
  const covered = new Set(report.results.map((r) => r.clause));
  const isPending = picomatch(PENDING.map((p) => p.glob));
  const musts = loadCatalog().clauses.filter((c) => c.level === 'must');
  const uncovered = musts
    .filter((c) => suites.has(c.surface) && !covered.has(c.id))
    .map((c) => c.id);
  t.deepEqual(uncovered.filter((id) => !isPending(id)), [], 'must-clauses without a case');
  const stale = musts
    .filter((c) => isPending(c.id) && covered.has(c.id))
    .map((c) => c.id);
  t.deepEqual(stale, [], 'pending clauses that now have a case: remove them from PENDING');
});
