import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { validateXML } from 'xmllint-wasm';
import { freePorts } from '../../conformance/harness/free-ports.ts';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import type { JsonReport } from '../conform/report-json.ts';
import { runTool, tempDir } from './run-cli.ts';

/** junit.xml against the JUnit schema the CI tools read (libxml2's validator, compiled to WebAssembly). */
async function assertValidJunit(t: ExecutionContext, file: string): Promise<void> {
  const { valid, errors } = await validateXML({
    xml: [{ fileName: 'junit.xml', contents: readFileSync(file, 'utf8') }],
    schema: [readFileSync(join(PROJECT_ROOT, 'tools/test/junit.xsd'), 'utf8')],
  });
  t.true(valid, errors.map((e) => e.message).join('\n'));
}

const HEALTH = 'static/health/default-path/**';

const USAGE_ERRORS: [string, string[], RegExp][] = [
  ['an unknown option', ['--bogus'], /bogus/],
  ['a target that is neither URL nor command', ['--target', 'static=somewhere'], /neither a URL nor cmd:/],
  ['a target without a name', ['--target', 'http://127.0.0.1:1'], /NAME=URL/],
  ['an unknown surface', ['--surface', 'nope'], /unknown surface/],
  ['a target for a surface not selected', ['--surface', 'static', '--target', 'recipes=http://127.0.0.1:1'], /no suite selected/],
  ['a malformed --target-env', ['--target-env', 'static=no-value'], /NAME=VAR=VALUE/],
  ['--target-env for a URL target', ['--surface', 'static', '--target', 'static=http://127.0.0.1:1', '--target-env', 'static=A=b'], /only a started command/],
  ['a known-failing entry without reason', ['--known-failing', 'tools/test/fixtures/known-failing-no-reason.yaml'], /non-empty "reason"/],
];

for (const [what, args, message] of USAGE_ERRORS) {
  test(`conform exits 2 on ${what}`, async (t) => {
    const run = await runTool('conform', args);
    t.is(run.code, 2);
    t.regex(run.stderr, message);
  });
}

test('conform --help documents the public options and exit codes', async (t) => {
  const run = await runTool('conform', ['--help']);
  t.is(run.code, 0);
  for (const option of ['--surface', '--target', '--only', '--skip', '--known-failing', '--list', '--report-dir']) {
    t.true(run.stdout.includes(option), option);
  }
});

test.serial('conform --list prints every case with its clause and runs nothing', async (t) => {
  const run = await runTool('conform', ['--list', '--surface', 'static']);
  t.is(run.code, 0, run.stderr);
  t.regex(run.stdout, /^static\/health\/default-path\/serves-health-object +static\/health\/default-path$/m);
  t.notRegex(run.stdout, /^passed \d+/m, 'list mode printed a run summary');
});

test.serial('an unreachable URL target is a target error (exit 2)', async (t) => {
  const [port] = await freePorts(1);
  const run = await runTool('conform', ['--target', `static=http://127.0.0.1:${port}`, '--only', HEALTH]);
  t.is(run.code, 2);
  t.regex(run.stderr, /not reachable/);
});

test.serial('a command target that never starts: its cases are errors with its stderr, the reports are written (exit 2)', async (t) => {
  const dir = tempDir();
  const run = await runTool('conform', ['--surface', 'static', '--target', "static=cmd:sh -c 'echo boom-from-target >&2; exit 3'", '--only', HEALTH, '--report-dir', dir]);
  t.is(run.code, 2);
  t.regex(run.stderr, /boom-from-target/);
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as JsonReport;
  const ran = report.results.filter((r) => r.outcome !== 'skipped');
  t.true(ran.length > 0);
  t.deepEqual([...new Set(ran.map((r) => r.outcome))], ['error']);
  t.true(ran.every((r) => /exited before listening[\s\S]*boom-from-target/.test(r.message)), ran[0]?.message);
  t.true(ran.every((r) => r.target === "cmd:sh -c 'echo boom-from-target >&2; exit 3'"));
  t.is(report.summary.mustErrors, ran.length);
  await assertValidJunit(t, join(dir, 'junit.xml'));
  t.regex(readFileSync(join(dir, 'junit.xml'), 'utf8'), /<error message="could not judge: must: [^"]*" type="inconclusive">could not judge the clause: target exited before listening/);
  t.regex(run.stdout, /^ERROR static\/health\/\S+ — could not judge \(fails the run\)$/m);
});

const FAULTY = `static=cmd:node ${join(PROJECT_ROOT, 'tools/test/faulty/faulty-static.mjs')}`;

test.serial('every failed check of a case is reported, not only the first', async (t) => {
  const dir = tempDir();
  const run = await runTool('conform', ['--surface', 'static', '--target', FAULTY, '--target-env', 'static=FAULTS=health-body', '--only', 'static/health/body-uptime/**', '--report-dir', dir]);
  t.is(run.code, 1);
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as JsonReport;
  const [uptime] = report.results.filter((r) => r.outcome === 'fail');
  // Two calls, each answering uptime as a string: two failed checks.
  t.regex(uptime?.message ?? '', /1 more failed check:\n- t\.is\(\)/);
});

test.serial('a property failure prints a replay command that names its surface and target, and replays it', async (t) => {
  const dir = tempDir();
  const id = 'static/redirects/default-status-301/any-valid-rule-set';
  const run = await runTool('conform', ['--surface', 'static', '--target', FAULTY, '--target-env', 'static=FAULTS=redirect-status', '--only', id, '--report-dir', dir]);
  t.is(run.code, 1);
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as JsonReport;
  const replay = report.results.find((r) => r.id === id)?.reproducer.find((l) => l.startsWith('CONFORM_FC_SEED=')) ?? '';
  t.true(replay.includes(`--surface static --target '${FAULTY}' --target-env static=FAULTS=redirect-status --only '${id}'`), replay);
  // As printed, from the project folder: the same failure again.
  const again = await new Promise<number | null>((resolve) => {
    const child = spawn('/bin/sh', ['-c', `${replay} --report-dir ${dir}/replay`], { cwd: PROJECT_ROOT, stdio: 'ignore' });
    child.on('close', resolve);
  });
  t.is(again, 1);
  const replayed = JSON.parse(readFileSync(join(dir, 'replay', 'report.json'), 'utf8')) as JsonReport;
  t.is(replayed.results.find((r) => r.id === id)?.outcome, 'fail');
});

test.serial('informational outcomes: one line each, in full with --verbose', async (t) => {
  const hostile = `static=cmd:node ${join(PROJECT_ROOT, 'tools/test/hostile/hostile-static.mjs')}`;
  const only = ['--only', 'static/config/ready-line/**'];
  const brief = await runTool('conform', ['--surface', 'static', '--target', hostile, ...only, '--report-dir', tempDir()]);
  const verbose = await runTool('conform', ['--surface', 'static', '--target', hostile, ...only, '--report-dir', tempDir(), '--verbose']);
  t.is(brief.code, 0, brief.stdout);
  t.regex(brief.stdout, /^informational .*\n {2}static\/config\/ready-line\/\S+: /m);
  t.notRegex(brief.stdout, /^INFO /m);
  t.is(verbose.code, 0);
  t.regex(verbose.stdout, /^INFO static\/config\/ready-line\/\S+\n {2}clause static\/config\/ready-line \(unspecified\): .*\n {2}reference chose: .*\n {2}target: cmd:node /m);
});

test.serial('a URL target runs what needs no launch; the rest is not-applicable', async (t) => {
  const [port] = await freePorts(1);
  const server = spawn(process.execPath, [join(PROJECT_ROOT, '.cache/reference/static.mjs')], {
    cwd: tempDir(),
    env: { ...process.env, PORT: String(port), STATIC_BIND: '127.0.0.1' },
    stdio: 'ignore',
  });
  t.teardown(() => server.kill());
  await new Promise((r) => setTimeout(r, 1500));
  const reports = tempDir();
  const run = await runTool('conform', ['--surface', 'static', '--target', `static=http://127.0.0.1:${port}`, '--only', 'static/health/**', '--report-dir', reports]);
  const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as JsonReport;
  t.is(run.code, 0, run.stdout.slice(-3000));
  t.true(report.summary.notApplicable > 0);
  t.true(report.results.filter((r) => r.outcome === 'not-applicable').every((r) => /launch/.test(r.message)));
});

test.serial('known-failing: a listed failure is expected-fail (exit 0), a listed pass is stale (exit 1)', async (t) => {
  const dir = tempDir();
  const list = join(dir, 'known.yaml');
  writeFileSync(list, "- glob: 'static/health/body-status/**'\n  reason: the faulty target says OK\n");
  const faulty = `static=cmd:node ${join(PROJECT_ROOT, 'tools/test/faulty/faulty-static.mjs')}`;
  const only = ['--only', 'static/health/body-status/**'];
  const expected = await runTool('conform', ['--surface', 'static', '--target', faulty, '--target-env', 'static=FAULTS=health-body', ...only, '--known-failing', list, '--report-dir', dir]);
  const stale = await runTool('conform', ['--surface', 'static', ...only, '--known-failing', list, '--report-dir', dir]);
  t.is(expected.code, 0, expected.stdout);
  t.regex(expected.stdout, /expected-fail 1/);
  t.is(stale.code, 1);
  t.regex(stale.stdout, /the list is stale/);
});

test.serial('reports: report.json has the documented shape, junit.xml validates, report.html shows the matrix', async (t) => {
  const dir = tempDir();
  const run = await runTool('conform', ['--only', 'static/health/**', '--skip', 'static/health/custom-path/**', '--report-dir', dir]);
  t.is(run.code, 0, run.stdout.slice(-3000));
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as JsonReport;
  t.is(report.schemaVersion, 2);
  for (const key of ['passed', 'failed', 'errors', 'mustErrors', 'skipped', 'notApplicable', 'informational', 'expectedFail'] as const) {
    t.true(Number.isInteger(report.summary[key]), key);
  }
  // Only the surfaces of the run stand in the report (no 0% for a surface that was not selected).
  t.deepEqual(report.surfaces.map((s) => s.surface), ['static']);
  t.true(report.results.some((r) => r.outcome === 'skipped' && r.id.startsWith('static/health/custom-path/')));
  for (const r of report.results) t.deepEqual(Object.keys(r).slice(0, 6), ['id', 'clause', 'surface', 'level', 'outcome', 'message']);
  await assertValidJunit(t, join(dir, 'junit.xml'));
  const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
  t.regex(junit, /<testcase name="static\/health\/default-path\/serves-health-object \[static\/health\/default-path\]" classname="static"/);
  const html = readFileSync(join(dir, 'report.html'), 'utf8');
  t.regex(html, /static\/health\/body-timestamp/);
  t.regex(html, /static\/recipes|no case|static\/config/);
});

test('a suite file runs directly under ava, from source, against the references (as the README shows)', async (t) => {
  // routes.test.ts reaches modules that leave work for the file's end before the harness has loaded the
  // reference targets and the catalog: the case for declaring that work only with the file's first case.
  const file = 'conformance/translate-web/routes.test.ts';
  const run = await new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, [join(PROJECT_ROOT, 'node_modules/ava/entrypoints/cli.mjs'), '--config', 'conformance/ava.config.mjs', '--tap', file], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
  t.is(run.code, 0, run.out.slice(-3000));
  t.regex(run.out, /^# pass [1-9]\d*$/m);
  t.notRegex(run.out, /^not ok /m);
});
