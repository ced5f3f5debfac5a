// The mutation tool's parts that decide what a run does and what it tells (issue 35): the sample (never more
// than asked, the same for a seed, must-clause modules first, a place taken with what lies inside it), the
// table's counts and scores once survivors are answered, the answers' checks, and the answers kept in the
// repository (each names a mutant the reference still has, and a clause of the right level); and a run stopped
// by a signal leaves nothing behind.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import { commandLine, marked } from '../../conformance/harness/sweep.ts';
import { mutantName, readAnswers } from '../mutate/answers.ts';
import { type ListedMutant, listedName, listMutants, mustFirst, reachChanges, sample, staleAnswers } from '../mutate/mutants.ts';
import { type Summary, summarize } from '../mutate/summary.ts';
import { SURFACES } from '../spec/catalog.ts';
import { tempDir } from './run-cli.ts';

const at = (file: string, l1: number, c1: number, l2: number, c2: number, mutator = 'StringLiteral'): ListedMutant => ({
  file,
  mutator,
  replacement: '""',
  start: { line: l1, column: c1 },
  end: { line: l2, column: c2 },
});

// A function body holding three mutants, two of them at one place, and a mutant in another module.
const body = at('a.ts', 1, 0, 9, 1, 'BlockStatement');
const twins = [at('a.ts', 2, 4, 2, 10, 'ConditionalExpression'), at('a.ts', 2, 4, 2, 10, 'EqualityOperator')];
const other = at('b.ts', 3, 0, 3, 5);
const all = [body, ...twins, at('a.ts', 5, 2, 5, 8), other];

test('a sample never passes its size, takes a place with every mutant inside it, and is the same for a seed', (t) => {
  for (const size of [1, 2, 3, 4, 5, 10]) {
    for (const seed of ['1', '2', 'x']) {
      const s = sample(all, size, seed);
      t.true(s.mutants.length <= size, `size ${size} seed ${seed}`);
      t.deepEqual(sample(all, size, seed), s);
      // The body's range selects all four mutants of a.ts: it is taken only with room for them all.
      if (s.ranges.includes('a.ts:1:0-9:1')) t.true(s.mutants.filter((m) => m.file === 'a.ts').length === 4);
      // Twins share a range: one is never taken without the other.
      t.is(s.mutants.filter((m) => twins.includes(m)).length % 2, 0);
    }
  }
  t.is(sample(all, 5, '1').mutants.length, 5, 'room for everything: everything');
});

test('the sample draws must-clause modules first', (t) => {
  const reach = { modules: { 'a.ts': ['f1.test.ts'], 'b.ts': ['f2.test.ts'] }, files: { 'f1.test.ts': [], 'f2.test.ts': ['x/must'] } };
  for (const seed of ['1', '2', '3', '4']) t.deepEqual(sample(all, 1, seed, mustFirst(reach)).mutants, [other]);
  t.is(mustFirst(reach)('c.ts'), 0, 'a module the reach does not know is not put last');
  t.deepEqual(reachChanges(reach, { modules: { 'a.ts': ['f1.test.ts'], 'b.ts': [], 'c.ts': [] }, files: {} }), ['b.ts', 'c.ts']);
});

test('the listing is Stryker’s: mutants of a real module, 1-based lines', async (t) => {
  const listed = await listMutants(['reference/static/features/health.ts']);
  t.true(listed.length > 10);
  t.true(listed.every((m) => m.file === 'reference/static/features/health.ts' && m.start.line >= 1));
  t.true(listed.some((m) => m.mutator === 'StringLiteral' && m.start.line === 15), 'the HEAD comparison on line 15');
});

const report = (statuses: string[]) => ({
  files: {
    'a.ts': {
      mutants: statuses.map((status, i) => ({ id: String(i), mutatorName: 'StringLiteral', replacement: '""', location: { start: { line: i + 1, column: 3 } }, status })),
    },
  },
});

test('the table counts statuses, scores as Stryker does, and again once survivors are answered', (t) => {
  const r = report(['Killed', 'Killed', 'Timeout', 'Survived', 'Survived', 'NoCoverage', 'RuntimeError']);
  const name = (line: number) => mutantName({ file: 'a.ts', line, column: 3, mutator: 'StringLiteral', replacement: '""' });
  const answers = new Map([
    [name(4), { mutant: name(4), answer: 'equivalent' as const, why: 'w' }],
    [name(6), { mutant: name(6), answer: 'unspecified' as const, why: 'w', clause: 'c' }],
  ]);
  const s = summarize('static', r, answers, { listed: 20, modules: 1, sampled: true, wallMs: 1000, reachMisses: 0 });
  t.like(s, { generated: 20, run: 7, killed: 2, timedOut: 1, survived: 2, noCoverage: 1, other: 1, score: 50, scoreAnswered: 75 });
  t.deepEqual(
    s.unanswered.map((m) => m.name),
    [name(5)],
  );
  const none = summarize('static', r, new Map(), { listed: 20, modules: 1, sampled: true, wallMs: 1000, reachMisses: 0 });
  t.is(none.unanswered.length, 3);
  t.is(none.scoreAnswered, 50);
});

test('the answers kept in the repository are well formed, name clauses of the right level and mutants the reference has', async (t) => {
  for (const surface of SURFACES) {
    const { answers, problems } = readAnswers(surface);
    t.deepEqual(problems, [], surface);
    const modules = [...new Set([...answers.keys()].map((name) => name.split(':')[0]!))];
    t.deepEqual(staleAnswers(answers.keys(), await listMutants(modules), modules), [], surface);
  }
});

test('an answer whose mutant is gone is stale', async (t) => {
  const listed = await listMutants(['reference/static/features/health.ts']);
  const real = listedName(listed.find((m) => m.start.line === 15 && m.mutator === 'StringLiteral')!);
  t.is(real, 'reference/static/features/health.ts:15:28 StringLiteral ""');
  t.deepEqual(staleAnswers([real, real.replace(':15:28', ':15:29')], listed, ['reference/static/features/health.ts']), [real.replace(':15:28', ':15:29')]);
});

test('a mutation run stopped by SIGTERM during its first conformance runs leaves no process and no folder', async (t) => {
  const tag = randomUUID();
  const child = spawn(process.execPath, ['--import', 'tsx', 'tools/mutate/main.ts', '--surface', 'static', '--files', 'reference/static/features/health.ts', '--sample', '2', '--report-dir', tempDir()], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, MUTATE_TEST_TAG: tag },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((done) => child.once('close', done));
  // The moment: a conformance run of the dry run has a target up.
  const until = Date.now() + 90_000;
  const running = () => marked('MUTATE_TEST_TAG', tag).filter((pid) => commandLine(pid).includes('.cache/reference/static.mjs'));
  while (running().length === 0 && Date.now() < until && child.exitCode === null) await new Promise((r) => setTimeout(r, 200));
  t.true(running().length > 0, `no target came up:\n${output.slice(-2000)}`);
  child.kill('SIGTERM');
  const code = await exited;
  await new Promise((r) => setTimeout(r, 1000));
  const left = marked('MUTATE_TEST_TAG', tag);
  for (const pid of left) process.kill(pid, 'SIGKILL');
  t.is(code, 143, output.slice(-2000));
  t.deepEqual(left.map(commandLine), []);
  t.false(existsSync(join(PROJECT_ROOT, '.cache', 'mutate', `runs-${child.pid}`)));
  t.false(existsSync(join(PROJECT_ROOT, '.cache', 'stryker', `run-${child.pid}`)));
});

// The whole way, kept short: two mutants of the translate-tools reference, judged by its suite over stdio. The
// input reader decoding a line with no encoding throws, and is killed; the language_format default is an
// answered survivor. So the run exits 0 and its table counts both.
test('a mutation run judges named mutants with the suite over the wire: a kill, and answered survivors', async (t) => {
  const reports = tempDir();
  const run = await runMutate([
    '--surface',
    'translate-tools',
    '--mutant',
    'reference/translate-tools/stdio-lines.ts:98:67 StringLiteral ""',
    '--mutant',
    'reference/translate-tools/tool-table.ts:31:43 StringLiteral ""',
    '--report-dir',
    reports,
  ]);
  t.is(run.code, 0, run.output.slice(-3000));
  const summary = JSON.parse(readFileSync(join(reports, 'translate-tools', 'summary.json'), 'utf8')) as Summary;
  t.like(summary, { run: 2, killed: 1, survived: 1 }, JSON.stringify(summary));
  t.deepEqual(summary.unanswered, []);
  t.true(summary.survivors.some((m) => m.name === 'reference/translate-tools/tool-table.ts:31:43 StringLiteral ""'));
});

function runMutate(args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tools/mutate/main.ts', ...args], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return new Promise((done) => child.once('close', (code) => done({ code, output })));
}
