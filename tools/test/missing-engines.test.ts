// A machine without an engine's Debian package, made by a PATH that hides its command (and apt-get and sudo,
// so nothing can be installed): the set-up step names what is missing and the one command that installs it;
// `npm start`'s step goes on and `npm test`'s stops; the reference starts without that engine, its cases are
// not-applicable with the reason, nothing turns red, and the run's closing lines name the package (a run of
// those cases alone judges no must-clause, and says so).
import { existsSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import type { JsonReport } from '../conform/report-json.ts';
import { runScript, runTool, tempDir } from './run-cli.ts';

/** A PATH of one folder linking every command of the current PATH except `hidden`. */
function pathWithout(hidden: string[]): string {
  const dir = tempDir();
  for (const from of (process.env.PATH ?? '').split(':')) {
    if (from === '' || !existsSync(from)) continue;
    for (const name of readdirSync(from)) {
      if (hidden.includes(name) || existsSync(join(dir, name))) continue;
      symlinkSync(join(from, name), join(dir, name));
    }
  }
  return dir;
}

const NO_ESPEAK = { PATH: pathWithout(['espeak-ng', 'apt-get', 'sudo']) };
const HINT = /^set-up: missing Debian packages: espeak-ng — install them with: (sudo )?apt-get install -y espeak-ng$/m;

test('set-up for npm test: a package it cannot install stops the tests at once with the hint', async (t) => {
  const run = await runScript('tools/setup/main.ts', ['--for', 'test'], NO_ESPEAK);
  t.is(run.code, 1, run.stdout);
  t.regex(run.stdout, /cannot install packages here: no apt-get/);
  t.regex(run.stdout, HINT);
});

test('set-up for npm start: a package it cannot install is said, and the run goes on', async (t) => {
  const run = await runScript('tools/setup/main.ts', ['--for', 'start'], NO_ESPEAK);
  t.is(run.code, 0, run.stdout);
  t.regex(run.stdout, HINT);
});

test('without espeak-ng the reference runs without speech synthesis: its cases are not-applicable, none fails, and a run of them alone judged nothing', async (t) => {
  const reports = tempDir();
  const run = await runTool('conform', ['--surface', 'translate', '--only', 'translate/synthesize/**', '--report-dir', reports], NO_ESPEAK);
  const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as JsonReport;
  // Every case of the selection needs synthesis: the gate does not pass having judged no must-clause.
  t.is(run.code, 1, run.stdout.slice(-3000));
  t.regex(run.stdout, /^translate: no must-clause was judged \(0 of \d+; cases: \d+ not-applicable, \d+ skipped\)/m);
  const ran = report.results.filter((r) => r.outcome !== 'skipped');
  t.true(ran.length > 5);
  t.deepEqual(
    ran.filter((r) => r.outcome !== 'not-applicable' && r.outcome !== 'pass').map((r) => `${r.id}: ${r.outcome}`),
    [],
  );
  t.true(
    ran.filter((r) => r.outcome === 'not-applicable').length > 5 &&
      ran.filter((r) => r.outcome === 'not-applicable').every((r) => /tts_available false/.test(r.message)),
  );
  t.regex(run.stdout, /^missing Debian packages: espeak-ng — install them with: (sudo )?apt-get install -y espeak-ng \(the cases needing them could not run: see their outcomes\)$/m);
});
