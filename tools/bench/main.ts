// `npm run bench`: throughput of the static reference against its peers, run side by side in the same
// run and reported as ratios (the machine is noisy; absolute numbers are not comparable between runs).
// Rounds interleave the peers (A B C, A B C, ...) and each peer's median is used.
// The translate benchmarks (translate/) time the translation reference the same way: rounds, medians,
// and Apertium through the service against the bare command. The gateway benchmarks (gateway/) proxy
// through the gateway reference against nginx and the bare forwarder, with wrk. The recipe manager (recipes/):
// its store writes durably against plain lowdb, and its HTTP API (list, search, PATCH) is timed as a process on a
// 10,000-recipe document, its writes against plain lowdb's. `--only` picks benchmarks; see --help.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePorts } from '../../conformance/harness/free-ports.ts';
import { loadReferenceTargets } from '../../conformance/harness/reference-targets.ts';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import { benchGateway } from './gateway/proxy.ts';
import { benchRecipesApi } from './recipes/api.ts';
import { benchRecipesStore } from './recipes/store-writes.ts';
import { autocannon, FILE_PEERS, HAS_TASKSET, type LoadSample, NGINX, type Peer, PROXY_PEERS, startProcess, stopProcess } from './peers.ts';
import { benchApertium } from './translate/apertium.ts';
import { benchLocalization } from './translate/localization.ts';
import { benchSpeech } from './translate/speech.ts';

// Benchmarks by name; --only takes names or groups (comma-separated).
const GROUPS: Record<string, string[]> = {
  static: ['small-file', 'proxy'],
  translate: ['translate-localization', 'apertium-throughput', 'speech-rtf'],
  gateway: ['gateway-proxy', 'gateway-workers'],
  recipes: ['recipes-store-writes', 'recipes-api'],
};
const NAMES = Object.values(GROUPS).flat();
const USAGE = `Usage: npm run bench -- [--only NAMES] [--rounds N] [--duration S] [--connections C]

  --only NAMES       comma-separated benchmarks or groups (default all):
                       static:    ${GROUPS.static!.join(', ')}
                       translate: ${GROUPS.translate!.join(', ')}
                       gateway:   ${GROUPS.gateway!.join(', ')}
                       recipes:   ${GROUPS.recipes!.join(', ')}
  --rounds N         rounds per benchmark; medians are reported (default 3)
  --duration S       seconds of load per static, gateway or recipes-api round (default 5)
  --connections C    concurrent connections of the static, gateway or recipes-api load (default 32)
  --help             this text
`;

let values: { duration: string; rounds: string; connections: string; only?: string; help?: boolean };
try {
  values = parseArgs({
    options: {
      duration: { type: 'string', default: '5' },
      rounds: { type: 'string', default: '3' },
      connections: { type: 'string', default: '32' },
      only: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
} catch (err) {
  process.stderr.write(`error: ${(err as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const SELECTED = new Set((values.only?.split(',') ?? NAMES).flatMap((name) => GROUPS[name.trim()] ?? [name.trim()]));
for (const name of SELECTED) {
  if (!NAMES.includes(name)) {
    process.stderr.write(`error: unknown benchmark "${name}"\n${USAGE}`);
    process.exit(2);
  }
}
const DURATION = Number(values.duration);
const ROUNDS = Number(values.rounds);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) {
  process.stderr.write(`error: --rounds must be a positive integer\n${USAGE}`);
  process.exit(2);
}
const CONNECTIONS = Number(values.connections);
const load = (url: string, seconds: number): Promise<LoadSample> => autocannon(url, seconds, CONNECTIONS);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function scenario(title: string, peers: Peer[], baseline: string, dir: string, upstreamPort: number): Promise<void> {
  const samples = new Map<string, LoadSample[]>(peers.map((p) => [p.name, []]));
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
        await stopProcess(child);
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

async function staticBenchmarks(): Promise<void> {
  loadReferenceTargets(); // builds the reference bundle
  const dir = mkdtempSync(join(tmpdir(), 'bench-'));
  chmodSync(dir, 0o755); // nginx workers run as an unprivileged user
  mkdirSync(join(dir, 'public'));
  writeFileSync(join(dir, 'public', 'small.txt'), 'x'.repeat(1024));
  const [upstreamPort] = await freePorts(1);
  const upstream = await startProcess([process.execPath, join(PROJECT_ROOT, 'tools/bench/upstream.mjs'), String(upstreamPort)], undefined, upstreamPort!, '0');
  try {
    if (SELECTED.has('small-file')) await scenario('small-file GET (1 KiB)', FILE_PEERS, 'sirv-cli', dir, upstreamPort!);
    if (SELECTED.has('proxy')) await scenario('proxied GET (small JSON)', PROXY_PEERS, 'http-proxy (bare)', dir, upstreamPort!);
  } finally {
    upstream.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(`cores pinned: ${HAS_TASKSET ? 'servers on 0, load on 1' : 'no (taskset missing)'}; nginx: ${NGINX ?? 'not installed'}`);
  if (GROUPS.static!.some((name) => SELECTED.has(name))) await staticBenchmarks();
  if (SELECTED.has('translate-localization')) await benchLocalization(ROUNDS);
  if (SELECTED.has('apertium-throughput')) await benchApertium(ROUNDS);
  if (SELECTED.has('speech-rtf')) await benchSpeech(ROUNDS);
  if (GROUPS.gateway!.some((name) => SELECTED.has(name))) {
    const options = { rounds: ROUNDS, duration: DURATION, connections: CONNECTIONS };
    await benchGateway({ ...options, proxy: SELECTED.has('gateway-proxy'), workers: SELECTED.has('gateway-workers') });
  }
  if (SELECTED.has('recipes-store-writes')) await benchRecipesStore(ROUNDS);
  if (SELECTED.has('recipes-api')) await benchRecipesApi({ rounds: ROUNDS, duration: DURATION, connections: CONNECTIONS });
}

await main();
