import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
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
  // The start that failed is in the reproducer: the config it was given, and the command in a copy of its folder.
  const [first] = ran;
  t.regex(first?.reproducer.join('\n') ?? '', /^# server-config\.json: \{.*"healthCheck".*\}$/m);
  const started = /^\(cd (\S+) && exec env PORT=\d+ .*sh -c .*\) & sleep 1 {2}# the target as its start failed$/m.exec(first?.reproducer.join('\n') ?? '');
  t.truthy(started, first?.reproducer.join('\n'));
  t.true(existsSync(join(started?.[1] ?? '', 'server-config.json')), 'the folder copy has the config file');
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
  // Printed as it happened, before the run's end, with its clause; in full at the end.
  const live = run.stdout.search(/^FAIL static\/health\/body-uptime\/\S+\n {2}clause static\/health\/body-uptime \(must\): /m);
  t.true(live >= 0 && live < run.stdout.search(/^\d+ cases? ended · 1 failed · /m), run.stdout);
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
  // Only an unspecified clause's cases: no must-clause is judged, which this run accepts.
  const brief = await runTool('conform', ['--surface', 'static', '--target', hostile, ...only, '--report-dir', tempDir(), '--pass-with-no-cases']);
  const verbose = await runTool('conform', ['--surface', 'static', '--target', hostile, ...only, '--report-dir', tempDir(), '--verbose', '--pass-with-no-cases']);
  t.is(brief.code, 0, brief.stdout);
  t.regex(brief.stdout, /^informational .*\n {2}static\/config\/ready-line\/\S+: /m);
  t.notRegex(brief.stdout, /^INFO /m);
  t.is(verbose.code, 0);
  t.regex(verbose.stdout, /^INFO static\/config\/ready-line\/\S+\n {2}clause static\/config\/ready-line \(unspecified\): .*\n {2}reference chose: .*\n {2}target: cmd:node /m);
});

test.serial('a URL target runs what needs no launch; a run that judges no must-clause of a surface fails (exit 1) unless asked', async (t) => {
  const [port] = await freePorts(1);
  const server = spawn(process.execPath, [join(PROJECT_ROOT, '.cache/reference/static.mjs')], {
    cwd: tempDir(),
    env: { ...process.env, PORT: String(port), STATIC_BIND: '127.0.0.1' },
    stdio: 'ignore',
  });
  t.teardown(() => server.kill());
  await new Promise((r) => setTimeout(r, 1500));
  const args = ['--surface', 'static', '--target', `static=http://127.0.0.1:${port}`, '--only', 'static/health/**'];
  const reports = tempDir();
  const run = await runTool('conform', [...args, '--report-dir', reports]);
  const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as JsonReport;
  t.is(run.code, 1, run.stdout.slice(-3000));
  t.true(report.summary.notApplicable > 0);
  t.true(report.results.filter((r) => r.outcome === 'not-applicable').every((r) => /launch/.test(r.message)));
  t.regex(run.stdout, /^static: no must-clause was judged \(0 of \d+; cases: \d+ not-applicable, \d+ skipped\); --pass-with-no-cases accepts a run that judges nothing$/m);
  t.is(report.surfaces[0]?.mustJudged, 0);
  const allowed = await runTool('conform', [...args, '--report-dir', tempDir(), '--pass-with-no-cases']);
  t.is(allowed.code, 0, allowed.stdout.slice(-3000));
});

test.serial('a filter glob that matches no case is a usage error naming the nearest case IDs, before anything runs', async (t) => {
  for (const option of ['--only', '--skip']) {
    const run = await runTool('conform', ['--surface', 'static', option, 'static/helth/**', '--report-dir', tempDir()]);
    t.is(run.code, 2, run.stdout.slice(-2000));
    t.regex(run.stderr, new RegExp(`^error: ${option} 'static/helth/\\*\\*' matches no case of the selected suites; nearest: static/health/\\S+, static/health/\\S+, static/health/\\S+$`, 'm'));
    t.notRegex(run.stdout, /cases? ended/, 'a case ran');
  }
  // A glob of another surface than the one selected matches nothing either.
  const other = await runTool('conform', ['--surface', 'static', '--only', 'recipes/**']);
  t.is(other.code, 2);
  t.regex(other.stderr, /--only 'recipes\/\*\*' matches no case/);
});

test.serial('a --known-failing entry matching no case is stale and fails the run; one naming a surface outside the run is not judged', async (t) => {
  const dir = tempDir();
  const list = join(dir, 'known.yaml');
  writeFileSync(list, "- glob: 'static/helth/**'\n  reason: a typo\n- glob: 'recipes/auth/**'\n  reason: another surface\n");
  const run = await runTool('conform', ['--surface', 'static', '--only', 'static/health/default-path/**', '--known-failing', list, '--report-dir', dir]);
  t.is(run.code, 1, run.stdout.slice(-2000));
  t.regex(run.stdout, /^known-failing entry 'static\/helth\/\*\*' \(a typo\) matches no case: the list is stale$/m);
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as JsonReport;
  t.deepEqual(report.staleKnownFailing, [{ glob: 'static/helth/**', reason: 'a typo' }]);
});

test.serial('a case the harness cannot stage is error, never not-applicable: a missing tool of the harness, a busy default port', async (t) => {
  const dir = tempDir();
  const noBrowser = await runTool('conform', ['--surface', 'static', '--only', 'static/hot-reload/client-reloads/**', '--report-dir', dir], { CHROMIUM_PATH: join(dir, 'no-chromium') });
  t.is(noBrowser.code, 1, noBrowser.stdout.slice(-2000));
  const browserCases = (JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as JsonReport).results.filter((r) => /finds none at .*no-chromium/.test(r.message));
  t.true(browserCases.length > 0);
  t.true(browserCases.every((r) => r.outcome === 'error'));
  // Port 8000 held by something else than the harness (this test, or whatever already has it).
  const holder = createServer();
  await new Promise<void>((resolve) => holder.once('error', () => resolve()).listen(8000, '127.0.0.1', () => resolve()));
  t.teardown(() => holder.close());
  const busy = await runTool('conform', ['--surface', 'static', '--only', 'static/config/port-default-8000/**', '--report-dir', dir]);
  t.is(busy.code, 1, busy.stdout.slice(-2000));
  const [result] = (JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as JsonReport).results.filter((r) => r.id.startsWith('static/config/port-default-8000/'));
  t.is(result?.outcome, 'error');
  t.regex(result?.message ?? '', /the harness could not have port 8000/);
});

test.serial('--reporter github: an annotation per failure as it ends, the gate reasons, a Markdown summary; --last-failed runs those again', async (t) => {
  const dir = tempDir();
  const summary = join(dir, 'summary.md');
  const args = ['--surface', 'static', '--target', FAULTY, '--target-env', 'static=FAULTS=health-body', '--report-dir', dir];
  const run = await runTool('conform', [...args, '--only', 'static/health/**', '--reporter', 'github'], { GITHUB_STEP_SUMMARY: summary });
  t.is(run.code, 1);
  const annotations = run.stdout.split('\n').filter((l) => l.startsWith('::'));
  t.true(annotations.length > 0);
  const cases = annotations.filter((l) => l.startsWith('::error title=FAIL '));
  t.true(cases.length > 0, run.stdout.slice(-2000));
  // One line each: the clause and its paraphrase, then (escaped newlines) the first failed check.
  t.true(cases.every((l) => /^::error title=FAIL static\/health\/[\w/-]+::must clause static\/health\/[\w-]+: [^\n]+%0A\S/.test(l)), cases.join('\n'));
  t.deepEqual(annotations.filter((l) => !cases.includes(l)), [], 'annotations other than the failed cases (the run judged must-clauses)');
  const md = readFileSync(summary, 'utf8');
  t.regex(md, /^## Conformance: failed$/m);
  t.regex(md, /^\| static \| cmd:node .* \| \d+ \| [1-9]\d* \| 0 \| /m);
  const failed = (JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as JsonReport).results.filter((r) => r.outcome === 'fail').map((r) => r.id).sort();
  t.true(failed.length > 0);
  // Again only those, read back from report.json.
  const again = await runTool('conform', [...args, '--last-failed']);
  t.is(again.code, 1);
  const rerun = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as JsonReport;
  t.deepEqual(rerun.results.filter((r) => r.outcome !== 'skipped').map((r) => r.id).sort(), failed);
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
  t.is(report.schemaVersion, 4);
  t.is(report.interrupted, null);
  t.deepEqual(report.verdict, { exitCode: 0, reasons: [] });
  // Real durations: every case that ran took some time, and junit.xml says how long.
  const ran = report.results.filter((r) => r.outcome === 'pass');
  t.true(ran.length > 0 && ran.every((r) => r.durationMs > 0));
  for (const key of ['passed', 'failed', 'errors', 'mustErrors', 'skipped', 'notApplicable', 'informational', 'expectedFail'] as const) {
    t.true(Number.isInteger(report.summary[key]), key);
  }
  // Only the surfaces of the run stand in the report (no 0% for a surface that was not selected).
  t.deepEqual(report.surfaces.map((s) => s.surface), ['static']);
  t.true(report.results.some((r) => r.outcome === 'skipped' && r.id.startsWith('static/health/custom-path/')));
  for (const r of report.results) t.deepEqual(Object.keys(r).slice(0, 6), ['id', 'clause', 'surface', 'level', 'outcome', 'message']);
  await assertValidJunit(t, join(dir, 'junit.xml'));
  const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
  t.regex(junit, /<testcase name="static\/health\/default-path\/serves-health-object \[static\/health\/default-path\]" classname="static" time="\d+\.\d{3}">/);
  t.notRegex(junit, /<testcase [^>]*classname="static" time="0\.000"><\/testcase>/, 'a case that passed took no time');
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
