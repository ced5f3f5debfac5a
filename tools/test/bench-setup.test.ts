// The benchmarks' tools (wrk, nginx) are in the one list of Debian packages, marked for the benchmarks alone:
// the set-up step checks them for `npm run bench` and leaves them out for `npm start` and `npm test` (so CI
// installs nothing for them). On a machine where nothing can be installed (a PATH with no commands at all, so no
// apt-get either), `npm run bench` stops at its set-up step naming what is missing, and with --skip-setup a
// selected benchmark whose tool is missing stops the run: one line naming it, exit 2, no stack. No benchmark runs.
import test from 'ava';
import { NEEDS } from '../bench/needs.ts';
import { debianPackages, packagesFor, type Purpose } from '../setup/debian-packages.ts';
import { runScript, tempDir } from './run-cli.ts';

const BENCH_ONLY = ['wrk', 'nginx'];
const NOTHING_ON_PATH = () => ({ PATH: tempDir() });
/** The names of the set-up step's closing "missing Debian packages" line. */
const namedMissing = (stdout: string): string[] => /^set-up: missing Debian packages: (.*) — install them with: /m.exec(stdout)?.[1]?.split(', ') ?? [];

test('the benchmarks own wrk and nginx: marked benchOnly, selected for bench and for neither start nor test', (t) => {
  const names = (purpose: Purpose) => packagesFor(purpose).map((p) => p.name);
  t.deepEqual(
    debianPackages().filter((p) => p.benchOnly).map((p) => p.name),
    BENCH_ONLY,
  );
  t.deepEqual(names('bench'), debianPackages().map((p) => p.name));
  for (const purpose of ['start', 'test'] as const) {
    t.deepEqual(names(purpose).filter((name) => BENCH_ONLY.includes(name)), [], purpose);
    t.deepEqual(names(purpose), names('bench').filter((name) => !BENCH_ONLY.includes(name)), purpose);
  }
});

test('every tool a benchmark checks for is a package the bench set-up installs', (t) => {
  const bench = new Set(packagesFor('bench').map((p) => p.name));
  t.deepEqual(Object.values(NEEDS).flat().filter((name) => !bench.has(name)), []);
  t.deepEqual([...new Set(NEEDS['small-file'])], BENCH_ONLY);
});

for (const purpose of ['start', 'test'] as const) {
  test(`set-up --for ${purpose} does not ask for wrk when nothing can be installed`, async (t) => {
    const run = await runScript('tools/setup/main.ts', ['--for', purpose], NOTHING_ON_PATH());
    const named = namedMissing(run.stdout);
    t.true(named.includes('espeak-ng'), run.stdout);
    t.false(named.includes('wrk'), run.stdout);
    t.is(run.code, purpose === 'test' ? 1 : 0, run.stdout);
  });
}

test('set-up --for bench names wrk with the command that installs it and stops', async (t) => {
  const run = await runScript('tools/setup/main.ts', ['--for', 'bench'], NOTHING_ON_PATH());
  t.true(namedMissing(run.stdout).includes('wrk'), run.stdout);
  t.regex(run.stdout, /^set-up: missing Debian packages: .* — install them with: (sudo )?apt-get install -y .*\bwrk\b/m);
  t.is(run.code, 1, run.stdout);
});

test('npm run bench on a machine where nothing can be installed stops at its set-up step, no stack', async (t) => {
  const run = await runScript('tools/bench/main.ts', ['--only', 'gateway-workers'], NOTHING_ON_PATH());
  t.true(namedMissing(run.stdout).includes('wrk'), run.stdout);
  t.regex(run.stdout, /\nset-up: npm run bench stops here: [^\n]*\n$/);
  t.is(run.stderr, '');
  t.is(run.code, 1, run.stdout);
});

test('without the set-up step, a benchmark whose binary is missing ends with one line naming it, exit 2', async (t) => {
  const run = await runScript('tools/bench/main.ts', ['--only', 'gateway-workers', '--skip-setup'], NOTHING_ON_PATH());
  t.regex(run.stderr, /^bench: gateway-workers needs wrk \(no wrk on PATH\) — install it with: (sudo )?apt-get install -y wrk\n$/);
  t.is(run.stdout, '');
  t.is(run.code, 2, run.stderr);
});
