// `npm run bench`: throughput of the static reference against its peers, run side by side in the same
// run and reported as ratios (the machine is noisy; absolute numbers are not comparable between runs).
// Rounds interleave the peers (A B C, A B C, ...) and each peer's median is used.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePorts } from '../../conformance/harness/free-ports.ts';
import { loadReferenceTargets } from '../../conformance/harness/reference-targets.ts';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import { FILE_PEERS, HAS_TASKSET, NGINX, type Peer, PROXY_PEERS, startProcess } from './peers.ts';

const { values } = parseArgs({
  options: { duration: { type: 'string', default: '5' }, rounds: { type: 'string', default: '3' }, connections: { type: 'string', default: '32' } },
});
const DURATION = Number(values.duration);
const ROUNDS = Number(values.rounds);
const CONNECTIONS = Number(values.connections);
const AUTOCANNON = join(PROJECT_ROOT, 'node_modules', 'autocannon', 'autocannon.js');

interface Sample {
  rps: number;
  /** Socket errors and non-2xx answers: shown beside the numbers, a sign the run is not comparable. */
  faults: number;
}

function load(url: string, seconds: number): Promise<Sample> {
  const argv = ['node', AUTOCANNON, '-c', String(CONNECTIONS), '-d', String(seconds), '--json', url];
  const cmd = HAS_TASKSET ? ['taskset', '-c', '1', ...argv] : argv;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd[0]!, cmd.slice(1), { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.on('close', () => {
      try {
        const result = JSON.parse(out) as { requests: { average: number }; non2xx: number; errors: number };
        resolve({ rps: result.requests.average, faults: result.non2xx + result.errors });
      } catch (err) {
        reject(err);
      }
    });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function scenario(title: string, peers: Peer[], baseline: string, dir: string, upstreamPort: number): Promise<void> {
  const samples = new Map<string, Sample[]>(peers.map((p) => [p.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order each round so that no peer always runs first (or right after the heaviest one).
    for (const peer of [...peers.slice(round % peers.length), ...peers.slice(0, round % peers.length)]) {
      const [port] = await freePorts(1);
      const { command, env } = peer.start(dir, port!, upstreamPort);
      const child = await startProcess(command, env, port!, '0');
      try {
        const url = `http://127.0.0.1:${port}${peer.path}`;
        await load(url, 1); // warm-up
        samples.get(peer.name)!.push(await load(url, DURATION));
      } finally {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
    }
  }
  const base = median(samples.get(baseline)!.map((x) => x.rps));
  console.log(`\n${title} (${ROUNDS} rounds x ${DURATION} s, ${CONNECTIONS} connections; ratio vs ${baseline})`);
  for (const [name, xs] of samples) {
    const m = median(xs.map((x) => x.rps));
    const faults = xs.reduce((n, x) => n + x.faults, 0);
    const rounds = xs.map((x) => x.rps.toFixed(0)).join(', ');
    console.log(`  ${name.padEnd(18)} ${m.toFixed(0).padStart(8)} req/s   ${(m / base).toFixed(2)}x   [${rounds}]${faults ? `   ${faults} errors/non-2xx` : ''}`);
  }
}

async function main(): Promise<void> {
  loadReferenceTargets(); // builds the reference bundle
  const dir = mkdtempSync(join(tmpdir(), 'bench-'));
  chmodSync(dir, 0o755); // nginx workers run as an unprivileged user
  mkdirSync(join(dir, 'public'));
  writeFileSync(join(dir, 'public', 'small.txt'), 'x'.repeat(1024));
  const [upstreamPort] = await freePorts(1);
  const upstream = await startProcess([process.execPath, join(PROJECT_ROOT, 'tools/bench/upstream.mjs'), String(upstreamPort)], undefined, upstreamPort!, '0');
  console.log(`cores pinned: ${HAS_TASKSET ? 'servers on 0, load on 1' : 'no (taskset missing)'}; nginx: ${NGINX ?? 'not installed'}`);
  try {
    await scenario('small-file GET (1 KiB)', FILE_PEERS, 'sirv-cli', dir, upstreamPort!);
    await scenario('proxied GET (small JSON)', PROXY_PEERS, 'http-proxy (bare)', dir, upstreamPort!);
  } finally {
    upstream.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
