// A run cleans up after itself, whatever the target does. The hostile static server
// (tools/test/hostile/hostile-static.mjs) ignores every start-up error and every signal but SIGKILL, and
// leaves processes behind it, one in its process group and one in a session of its own. The static suite
// against it must end within twice the time it takes against the reference (measured side by side, here),
// plus the one wait that judging it makes inherent (below), within seconds of its last case, and leave no
// process and no case folder behind.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { PROJECT_ROOT, READY_TIMEOUT_MS, STOP_GRACE_MS } from '../../conformance/harness/launch.ts';
import { marked } from '../../conformance/harness/sweep.ts';
import type { JsonReport } from '../conform/report-json.ts';
import { runTool, tempDir } from './run-cli.ts';

const HOSTILE = `static=cmd:node ${join(PROJECT_ROOT, 'tools/test/hostile/hostile-static.mjs')}`;
/** The cases about the documented default port 8000 run one after another (each claims the port), and a start
 * that must listen there and never does waits out the readiness limit, then is killed after the stop grace.
 * Against a target that never serves port 8000 those waits add up, one after another, whatever else the run
 * does: the bound allows for each (the harness used to give up on them after 30 s as not-applicable). */
const waitedOnDefaultPort = (report: JsonReport): number =>
  report.results.filter((r) => /target not listening on 8000 after \d+ ms/.test(r.message)).length * (READY_TIMEOUT_MS + STOP_GRACE_MS);

/** How long after its last case a run may take to end: stopping targets is part of the cases. */
const TAIL_MS = 5_000;

/** The runs' temporary directory, their own: folders other processes make meanwhile are not theirs. */
const caseFolders = (tmp: string): string[] => readdirSync(tmp).filter((name) => /^conform-(?!test-)/.test(name));

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const start = Date.now();
  const value = await work;
  return { value, ms: Date.now() - start };
}

test('the static suite against a hostile target ends in time and leaves nothing behind', async (t) => {
  const tmp = tempDir();
  const env = { TMPDIR: tmp };
  const mark = `hostile-${process.pid}-${Date.now()}`;
  const reference = await timed(runTool('conform', ['--surface', 'static', '--report-dir', tempDir()], env));
  const reports = tempDir();
  const hostile = await timed(
    // Started as the reference is, without the machine's extra CA bundle (50 ms of CPU a Node start; the
    // hostile target is three Node processes a start): the two runs differ only in the target's behaviour.
    runTool(
      'conform',
      ['--surface', 'static', '--target', HOSTILE, '--target-env', `static=HOSTILE_MARK=${mark}`, '--target-env', 'static=NODE_EXTRA_CA_CERTS=', '--report-dir', reports],
      env,
    ),
  );
  const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as JsonReport;
  t.log(`reference ${reference.ms} ms, hostile ${hostile.ms} ms (${(hostile.ms / reference.ms).toFixed(2)}×)`);
  t.is(reference.value.code, 0, reference.value.stdout.slice(-2000));
  // Judged, not merely stopped: the hostile server breaks most rules.
  t.is(hostile.value.code, 1, hostile.value.stderr);
  t.true(report.summary.failed > report.summary.errors, `failed ${report.summary.failed}, errors ${report.summary.errors}`);
  const serial = waitedOnDefaultPort(report);
  t.log(`allowed ${serial} ms more: starts that waited out the readiness limit on port 8000, one after another`);
  t.true(hostile.ms <= 2 * reference.ms + serial, `the run against the hostile target took ${hostile.ms} ms, the reference's ${reference.ms} ms (+ ${serial} ms on port 8000)`);
  const tail = Date.parse(report.timing.endedAt) - Date.parse(report.timing.lastCaseEndedAt ?? report.timing.endedAt);
  t.true(tail <= TAIL_MS, `the run ended ${tail} ms after its last case`);
  // Each case stopped what it started: the run's own final sweep found nothing.
  t.notRegex(hostile.value.stderr, /harness warning: \d+ process/);
  t.notRegex(hostile.value.stderr, /harness warning: \d+ temporary folder/);
  t.deepEqual(marked('HOSTILE_MARK', mark), [], 'processes of the hostile target still running');
  t.deepEqual(caseFolders(tmp), [], 'case folders left in the temporary directory');
});
