// The set-up step `npm start`, `npm test` and `npm run bench` run first: checks the Debian packages of
// debian-packages.json that the purpose needs and installs the missing ones when it can (apt-get as root or
// with password-less sudo), saying what it does and how long it took. When it cannot: for `start` it says what
// is missing and goes on (the reference starts without those engines and their cases are not-applicable; a case
// needing a missing tool of the suites' own, Chromium or redis-server, is an error); for `test` it stops,
// because the tests must check what CI checks; for `bench` it stops, because the benchmarks would measure
// something else.
import { install, installer, missingLine, missingPackages, type Purpose } from './debian-packages.ts';

const TAIL_LINES = 15;

/** What a run that cannot install its packages does next, by purpose (the last line it prints). */
const WITHOUT: Record<Purpose, { stops: boolean; line: string }> = {
  start: {
    stops: false,
    line: 'the reference servers start without these engines (the cases needing one are not-applicable); a case needing a missing tool of the suites (Chromium, redis-server) ends as error',
  },
  test: { stops: true, line: 'npm test stops here: the tests check what CI checks, and need every package' },
  bench: {
    stops: true,
    line: 'npm run bench stops here: the benchmarks need these packages (with --skip-setup it goes on, and a benchmark whose tool is missing stops naming it)',
  },
};

/** Runs the set-up step for `purpose`; the exit code (0, or 1 when it stops). */
export function setUp(purpose: Purpose): number {
  let missing = missingPackages(purpose);
  if (missing.length === 0) return 0;
  const names = missing.map((p) => p.name);
  const how = installer();
  if ('prefix' in how) {
    console.log(`set-up: installing ${names.join(' ')} (apt-get update, apt-get install -y)…`);
    const started = Date.now();
    const run = install(how.prefix, names);
    missing = missingPackages(purpose);
    const took = `${((Date.now() - started) / 1000).toFixed(0)} s`;
    if (run.ok && missing.length === 0) {
      console.log(`set-up: installed in ${took}`);
      return 0;
    }
    console.log(`set-up: the installation did not succeed (${took}):\n${run.output.trim().split('\n').slice(-TAIL_LINES).join('\n')}`);
  } else {
    console.log(`set-up: cannot install packages here: ${how.reason}`);
  }
  for (const p of missing) console.log(`set-up: ${p.name} is missing: ${p.for}`);
  console.log(`set-up: ${missingLine(missing)}`);
  console.log(`set-up: ${WITHOUT[purpose].line}`);
  return WITHOUT[purpose].stops ? 1 : 0;
}
