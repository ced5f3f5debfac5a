// `static-suite-slow`: the static suite's wall time against a slow implementation (slow-static.mjs: the
// reference started a second late, every answer 10 ms late) beside its time against the reference, one after
// the other in each round (the order alternates). The slow target is right in every other way: both runs
// must pass every case. Goal: at most twice the reference's time — the suite awaits events rather than
// sleeping for fixed times, so a slower target costs its own delays, not long timeouts.
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../../conformance/harness/launch.ts';
import { type ConformRun, outcome, runConform, seconds } from '../conform-run.ts';
import { median } from '../peers.ts';

const GOAL = 2;
const SLOW = `static=cmd:node ${join(PROJECT_ROOT, 'tools/bench/static/slow-static.mjs')}`;

export async function benchSuiteTime(rounds: number): Promise<void> {
  const runs = { reference: [] as ConformRun[], slow: [] as ConformRun[] };
  const reference = () => runConform(['--surface', 'static']);
  const slow = () => runConform(['--surface', 'static', '--target', SLOW, '--target-env', 'static=STATIC_BIND=127.0.0.1']);
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      runs.reference.push(await reference());
      runs.slow.push(await slow());
    } else {
      runs.slow.push(await slow());
      runs.reference.push(await reference());
    }
  }
  const [ref, late] = [median(runs.reference.map((r) => r.ms)), median(runs.slow.map((r) => r.ms))];
  const ratio = late / ref;
  console.log(`\nstatic-suite-slow (${rounds} rounds, order alternated; the static suite, every case; load average ${loadavg()[0]!.toFixed(1)})`);
  console.log(`  against the reference        ${seconds(ref).padStart(8)}   [${runs.reference.map((r) => seconds(r.ms)).join(', ')}]   ${outcome(runs.reference.at(-1)!)}`);
  console.log(`  against a slow server        ${seconds(late).padStart(8)}   [${runs.slow.map((r) => seconds(r.ms)).join(', ')}]   ${outcome(runs.slow.at(-1)!)}`);
  console.log('    (started 1 s late, every answer 10 ms late; described as nothing but a command, so its alias case is not applicable)');
  console.log(`  slow / reference: ${ratio.toFixed(2)}x (goal <= ${GOAL}x: ${ratio <= GOAL ? 'met' : 'NOT met'})`);
}
