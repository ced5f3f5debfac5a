// The set-up step `npm start` and `npm test` run first: checks the Debian packages of debian-packages.json
// and installs the missing ones when it can (apt-get as root or with password-less sudo), saying what it does
// and how long it took. When it cannot: `--for start` says what is missing and goes on (the reference starts
// without those engines and their cases are not-applicable; a case needing a missing tool of the suites' own,
// Chromium or redis-server, is an error); `--for test` stops (exit 1), because the tests must check what CI
// checks.
//   tsx tools/setup/main.ts --for start|test
import { parseArgs } from 'node:util';
import { install, installer, missingLine, missingPackages } from './debian-packages.ts';

const TAIL_LINES = 15;

function main(): number {
  const { values } = parseArgs({ options: { for: { type: 'string' } } });
  if (values.for !== 'start' && values.for !== 'test') {
    console.error('usage: tsx tools/setup/main.ts --for start|test');
    return 2;
  }
  let missing = missingPackages();
  if (missing.length === 0) return 0;
  const names = missing.map((p) => p.name);
  const how = installer();
  if ('prefix' in how) {
    console.log(`set-up: installing ${names.join(' ')} (apt-get update, apt-get install -y)…`);
    const started = Date.now();
    const run = install(how.prefix, names);
    missing = missingPackages();
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
  if (values.for === 'test') {
    console.log('set-up: npm test stops here: the tests check what CI checks, and need every package');
    return 1;
  }
  console.log(
    'set-up: the reference servers start without these engines (the cases needing one are not-applicable); a case needing a missing tool of the suites (Chromium, redis-server) ends as error',
  );
  return 0;
}

process.exitCode = main();
