// A run split across machines (issue 33): the static suite run whole and as 3 shards; `conform merge` of the
// shards gives the whole run's clause statuses, counts, standings and exit code. Merge refuses a missing or
// repeated shard and shards of another catalog or target; `conform compare` names a regression, and exits 1
// on it with --fail-on-regression. The shard test files are split the same way wherever the split runs.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import type { JsonReport } from '../conform/report-json.ts';
import { partition } from '../conform/shard.ts';
import { runTool, tempDir } from './run-cli.ts';

const dir = tempDir();
const read = (name: string): JsonReport => JSON.parse(readFileSync(join(dir, name, 'report.json'), 'utf8')) as JsonReport;
const conform = (args: string[]) => runTool('conform', args);

// The runs every test below reads: the whole static suite, its three shards one after the other, and their merge
// (the tests run at once: each reads these only once they are all done).
const runs = (async () => {
  const whole = await conform(['--surface', 'static', '--report-dir', join(dir, 'whole')]);
  const shards = [];
  for (const i of [1, 2, 3]) shards.push(await conform(['--surface', 'static', '--shard', `${i}/3`, '--report-dir', join(dir, `shard-${i}`)]));
  const merged = await conform(['merge', join(dir, 'shard-1'), join(dir, 'shard-3'), join(dir, 'shard-2'), '--report-dir', join(dir, 'merged')]);
  return { whole, shards, merged };
})();

test('three shards merged give the whole run: clause statuses, counts, standings, exit code', async (t) => {
  const { whole, shards, merged } = await runs;
  t.is(whole.code, 0, whole.stdout + whole.stderr);
  for (const s of shards) t.is(s.code, 0, s.stdout + s.stderr);
  t.is(merged.code, whole.code, merged.stdout + merged.stderr);
  const [a, b] = [read('whole'), read('merged')];
  t.deepEqual(b.clauses, a.clauses);
  t.deepEqual(b.summary, a.summary);
  t.deepEqual(b.surfaces, a.surfaces);
  t.deepEqual(b.verdict, a.verdict);
  t.deepEqual(
    b.results.map((r) => [r.id, r.outcome]),
    [...a.results].sort((x, y) => (x.id < y.id ? -1 : 1)).map((r) => [r.id, r.outcome]),
  );
  t.is(b.run.mergedFrom?.length, 3);
  const files = b.run.mergedFrom!.flatMap((s) => s.files);
  t.is(new Set(files).size, files.length, 'no file in two shards');
  t.is(files.length, read('shard-1').run.shard!.of, 'every file in a shard');
  t.true(b.run.mergedFrom!.every((s) => s.files.length > 0));
});

test('a report records what it was judged with: harness, catalog, documents, Node, targets, times', async (t) => {
  await runs;
  const { run, timing } = read('whole');
  t.regex(run.harness.version, /^\d+\.\d+\.\d+/);
  t.regex(run.catalog.hash, /^[0-9a-f]{12}$/);
  t.true(run.documents.some((d) => d.file.startsWith('002_') && /^[0-9a-f]{12}$/.test(d.hash)));
  t.is(run.node, process.version);
  t.regex(run.targets.static!.spec, /^cmd:/);
  t.true(run.targets.static!.capabilities.includes('launch'));
  t.true(Date.parse(timing.endedAt) > Date.parse(timing.startedAt));
  t.like(read('shard-2').run.shard, { index: 2, total: 3 });
});

test('merge refuses a missing or repeated shard, another catalog and another target, naming each', async (t) => {
  await runs;
  const missing = await conform(['merge', join(dir, 'shard-1'), join(dir, 'shard-2'), '--report-dir', join(dir, 'refused')]);
  t.is(missing.code, 2);
  t.regex(missing.stderr, /shard 3\/3 missing/);
  const twice = await conform(['merge', join(dir, 'shard-1'), join(dir, 'shard-1'), join(dir, 'shard-2'), '--report-dir', join(dir, 'refused')]);
  t.is(twice.code, 2);
  t.regex(twice.stderr, /shard 1\/3 given twice/);
  const other = (name: string, change: (r: JsonReport) => void): string => {
    cpSync(join(dir, 'shard-2'), join(dir, name), { recursive: true });
    const report = read(name);
    change(report);
    writeFileSync(join(dir, name, 'report.json'), JSON.stringify(report));
    return join(dir, name);
  };
  const catalog = await conform(['merge', join(dir, 'shard-1'), other('catalog', (r) => {
    r.run.catalog.hash = '000000000000';
  }), join(dir, 'shard-3')]);
  t.is(catalog.code, 2);
  t.regex(catalog.stderr, /judged against catalog 000000000000/);
  const target = await conform(['merge', join(dir, 'shard-1'), other('target', (r) => {
    r.run.targets.static!.spec = 'cmd:./another-server';
  }), join(dir, 'shard-3')]);
  t.is(target.code, 2);
  t.regex(target.stderr, /the target of static differs/);
});

test('compare names a regression and fails on it when asked; the same run twice has none', async (t) => {
  await runs;
  const regressed = 'static/health/default-path';
  const base = read('whole');
  t.is(base.clauses.find((c) => c.id === regressed)?.status, 'passed');
  const worse = JSON.parse(JSON.stringify(base)) as JsonReport;
  worse.clauses.find((c) => c.id === regressed)!.status = 'failed';
  writeFileSync(join(dir, 'worse.json'), JSON.stringify(worse));
  const compared = await conform(['compare', join(dir, 'whole', 'report.json'), join(dir, 'worse.json'), '--names', 'before,after', '--fail-on-regression']);
  t.is(compared.code, 1, compared.stderr);
  t.regex(compared.stdout, new RegExp(`Regressed \\(1\\):\\n- \`${regressed}\` \\(must\\): passed → failed`));
  t.regex(compared.stdout, new RegExp(`\\| \`${regressed}\` \\| must \\| pass \\| \\*\\*FAIL\\*\\* \\|`));
  const same = await conform(['compare', join(dir, 'whole'), join(dir, 'merged'), '--fail-on-regression', '--out', join(dir, 'compared')]);
  t.is(same.code, 0, same.stderr);
  t.regex(same.stdout, /merged against whole: 0 regressed, 0 fixed, 0 no longer judged, 0 otherwise changed, 0 changed level/);
  t.regex(readFileSync(join(dir, 'compared', 'compare.html'), 'utf8'), /Conformance compared/);
});

test('the split depends only on the files and the times: the same parts in any order, every file once', (t) => {
  const files = Array.from({ length: 20 }, (_, i) => `conformance/x/f${i}.test.ts`);
  const times = Object.fromEntries(files.map((f, i) => [f, (i * 7919) % 1000]));
  const parts = partition(files, 3, times);
  t.deepEqual(partition([...files].reverse(), 3, times), parts);
  t.deepEqual(parts.flat().sort(), [...files].sort());
  const load = parts.map((p) => p.reduce((n, f) => n + times[f]!, 0));
  t.true(Math.max(...load) - Math.min(...load) <= Math.max(...Object.values(times)), `balanced: ${load}`);
});

// --file runs chosen test files (the mutation tool runs one at a time); like a shard, its figures are its own.
test('--file runs only the files named; a file that is no test file of the suites is a usage error', async (t) => {
  const reports = join(dir, 'one-file');
  const one = await conform(['--surface', 'static', '--file', 'conformance/static/health.test.ts', '--report-dir', reports]);
  t.is(one.code, 0, one.stdout + one.stderr);
  const ran = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as JsonReport;
  t.true(ran.results.length > 0);
  t.true(ran.results.every((r) => r.id.startsWith('static/health/')), ran.results.map((r) => r.id).join(' '));
  const unknown = await conform(['--surface', 'static', '--file', 'conformance/static/nope.test.ts', '--report-dir', join(dir, 'no-file')]);
  t.is(unknown.code, 2);
  t.regex(unknown.stderr, /--file conformance\/static\/nope\.test\.ts: not a test file/);
  const both = await conform(['--surface', 'static', '--file', 'conformance/static/health.test.ts', '--shard', '1/2']);
  t.is(both.code, 2);
});
