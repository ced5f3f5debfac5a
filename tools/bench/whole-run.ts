// `whole-run`: `npm start`'s main job timed: every suite against the reference servers, as `npm run conform`
// runs it. Its wall time against the goal, and the CPU it took: the run is CPU-bound on this machine, so the
// CPU time over the cores is the floor no overlap can beat. With a peer (another checkout, say an earlier
// commit), the two are timed in turns, so the ratio holds on a machine whose speed drifts over the day.
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { type ConformRun, outcome, runConform, seconds } from './conform-run.ts';
import { median } from './peers.ts';

const GOAL_MS = 120_000;

export async function benchWholeRun(rounds: number, peerRoot?: string): Promise<void> {
  const ours: ConformRun[] = [];
  const peer: ConformRun[] = [];
  for (let round = 0; round < rounds; round++) {
    // The order alternates: neither side always runs on a machine still busy with the other.
    const turns = peerRoot === undefined ? [ours] : round % 2 === 0 ? [ours, peer] : [peer, ours];
    for (const runs of turns) runs.push(await runConform([], runs === peer ? resolve(peerRoot!) : undefined));
  }
  const cores = availableParallelism();
  console.log(`\nwhole-run (${rounds} rounds; every suite against the reference servers; load average ${loadavg()[0]!.toFixed(1)})`);
  const m = report('this checkout', ours, cores);
  if (peerRoot !== undefined) {
    const p = report(`peer ${peerRoot}`, peer, cores);
    console.log(`  this checkout / peer: ${(m.ms / p.ms).toFixed(2)}× the wall time, ${(m.cpuMs / p.cpuMs).toFixed(2)}× the CPU`);
  }
  console.log(`  goal < ${seconds(GOAL_MS)}: ${m.ms < GOAL_MS && m.code === 0 ? 'met' : 'NOT met'}`);
}

/** Prints the median run of `runs` (by wall time) and returns it. */
function report(name: string, runs: ConformRun[], cores: number): ConformRun {
  const middle = median(runs.map((r) => r.ms));
  const m = runs.find((r) => r.ms === middle)!;
  console.log(`  ${name}: wall time ${seconds(m.ms)}   [${runs.map((r) => seconds(r.ms)).join(', ')}]   ${outcome(m)}`);
  console.log(`    CPU ${seconds(m.cpuMs)}: at least ${seconds(m.cpuMs / cores)} on ${cores} cores`);
  return m;
}
