// CI gate: every suite passes against the reference servers, with every must-clause of a suite's surface
// covered by at least one case.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import type { JsonReport } from '../conform/report-json.ts';
import { runTool, tempDir } from './run-cli.ts';

test('the reference servers pass every suite', async (t) => {
  const reports = tempDir();
  const run = await runTool('conform', ['--report-dir', reports]);
  const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as JsonReport;
  const failed = report.results.filter((r) => r.outcome === 'fail').map((r) => `${r.id}: ${r.message.split('\n')[0]}`);
  t.deepEqual(failed, []);
  t.is(run.code, 0, `${run.stderr}\n${run.stdout.slice(-3000)}`);
  const suites = new Set(report.results.map((r) => r.surface));
  for (const c of report.coverage.filter((x) => suites.has(x.surface))) t.is(c.mustCovered, c.must, `${c.surface} must-coverage`);
});
