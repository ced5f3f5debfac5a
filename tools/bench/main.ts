// `npm run bench`: throughput of the static reference against its peers (sirv-cli, serve, an Express app with
// serve-static and http-proxy-middleware, nginx, the bare http-proxy), run side by side in the same run and
// reported as ratios with p50/p99 and CPU per request (./http-scenario.ts; the machine is noisy: absolute numbers
// are not comparable between runs).
// The translate benchmarks (translate/) time the translation reference the same way: rounds, medians,
// and Apertium through the service against the bare command. The gateway benchmarks (gateway/) proxy
// through the gateway reference against nginx and the bare forwarder, with wrk. The recipe manager (recipes/):
// its store writes durably against plain lowdb, and its HTTP API (list, search, PATCH) is timed as a process on a
// 10,000-recipe document, its writes against plain lowdb's. `--only` picks benchmarks; see --help.
// First the set-up step for the benchmarks (tools/setup: wrk, nginx and the engines, installed when it can, else
// one line naming them and the command that installs them), after the arguments are read so that --help and a
// usage error change nothing; then each selected benchmark's tools are checked (./needs.ts) before any starts.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePorts, releasePorts } from '../../conformance/harness/free-ports.ts';
import { loadReferenceTargets } from '../../conformance/harness/reference-targets.ts';
import { setUp } from '../setup/set-up.ts';
import { benchGateway } from './gateway/proxy.ts';
import { benchRecipesApi } from './recipes/api.ts';
import { benchRecipesStore } from './recipes/store-writes.ts';
import { httpGet, runScenario } from './http-scenario.ts';
import { checkTools, MissingTool } from './needs.ts';
import { FILE_PEERS, HAS_TASKSET, nginxPath, PROXY_PEERS, upstreamCommand } from './peers.ts';
import { startServer } from './server-process.ts';
import { benchSuiteTime } from './static/suite-time.ts';
import { benchWholeRun } from './whole-run.ts';
import { benchApertium } from './translate/apertium.ts';
import { benchLocalization } from './translate/localization.ts';
import { benchSpeech } from './translate/speech.ts';

// Benchmarks by name; --only takes names or groups (comma-separated).
const GROUPS: Record<string, string[]> = {
  static: ['small-file', 'proxy', 'static-suite-slow'],
  translate: ['translate-localization', 'apertium-throughput', 'speech-rtf'],
  gateway: ['gateway-proxy', 'gateway-workers'],
  recipes: ['recipes-store-writes', 'recipes-api'],
  conformance: ['whole-run'],
};
const NAMES = Object.values(GROUPS).flat();
const USAGE = `Usage: npm run bench -- [--only NAMES] [--rounds N] [--duration S] [--connections C] [--whole-run-peer DIR]
                        [--skip-setup] [--verbose]

  --only NAMES       comma-separated benchmarks or groups (default all):
                       static:      ${GROUPS.static!.join(', ')}
                       translate:   ${GROUPS.translate!.join(', ')}
                       gateway:     ${GROUPS.gateway!.join(', ')}
                       recipes:     ${GROUPS.recipes!.join(', ')}
                       conformance: ${GROUPS.conformance!.join(', ')}
  --rounds N         rounds per benchmark; medians are reported (default 3; static-suite-slow and
                     whole-run time whole conformance runs: a round is one or two minutes)
  --duration S       seconds of load per static, gateway or recipes-api round (default 5)
  --connections C    concurrent connections of the static, gateway or recipes-api load (default 32)
  --whole-run-peer DIR
                     whole-run also times the checkout in DIR (another commit, its packages installed),
                     its rounds interleaved with ours: a ratio that a machine's drift leaves alone
  --skip-setup       do not run the set-up step (which installs wrk, nginx and the engines with apt-get when
                     they are missing); a selected benchmark whose tool is missing stops the run (exit 2)
  --verbose          a failure's stack, not only its message
  --help             this text
`;

let values: {
  duration: string;
  rounds: string;
  connections: string;
  only?: string;
  'whole-run-peer'?: string;
  'skip-setup'?: boolean;
  verbose?: boolean;
  help?: boolean;
};
try {
  values = parseArgs({
    options: {
      duration: { type: 'string', default: '5' },
      rounds: { type: 'string', default: '3' },
      connections: { type: 'string', default: '32' },
      only: { type: 'string' },
      'whole-run-peer': { type: 'string' },
      'skip-setup': { type: 'boolean' },
      verbose: { type: 'boolean' },
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

const STATIC_GOALS = { 'sirv-cli': 2, nginx: 0.4, 'http-proxy (bare)': 1.5 } as Record<string, number>;
const SMALL_FILE = 'x'.repeat(1024);

async function staticBenchmarks(): Promise<void> {
  loadReferenceTargets(['static']); // builds the reference bundle
  const dir = mkdtempSync(join(tmpdir(), 'bench-'));
  chmodSync(dir, 0o755); // nginx workers run as an unprivileged user
  mkdirSync(join(dir, 'public'));
  writeFileSync(join(dir, 'public', 'small.txt'), SMALL_FILE);
  const [upstreamPort] = await freePorts(1);
  const upstream = await startServer(upstreamCommand(upstreamPort!), upstreamPort!, '0', dir);
  const load = { rounds: ROUNDS, duration: DURATION, connections: CONNECTIONS, dir, upstreams: [upstreamPort!], cores: '0', base: 'reference' };
  try {
    if (SELECTED.has('small-file')) {
      await runScenario({ ...load, title: 'small-file: GET of a 1 KiB file', path: '/small.txt', body: SMALL_FILE, peers: FILE_PEERS, goals: STATIC_GOALS });
    }
    if (SELECTED.has('proxy')) {
      const body = (await httpGet(`http://127.0.0.1:${upstreamPort}/api/item`)).body;
      await runScenario({ ...load, title: 'proxy: proxied GET of a small JSON', path: '/api/item', body, peers: PROXY_PEERS, goals: { ...STATIC_GOALS, nginx: 0.5 } });
    }
  } finally {
    await upstream.stop();
    releasePorts([upstreamPort!]);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function run(): Promise<void> {
  console.log(`cores pinned: ${HAS_TASKSET ? 'servers on 0, load on 1' : 'no (taskset missing)'}; nginx: ${nginxPath() ?? 'not installed'}`);
  if (SELECTED.has('small-file') || SELECTED.has('proxy')) await staticBenchmarks();
  if (SELECTED.has('static-suite-slow')) await benchSuiteTime(ROUNDS);
  if (SELECTED.has('translate-localization')) await benchLocalization(ROUNDS);
  if (SELECTED.has('apertium-throughput')) await benchApertium(ROUNDS);
  if (SELECTED.has('speech-rtf')) await benchSpeech(ROUNDS);
  if (GROUPS.gateway!.some((name) => SELECTED.has(name))) {
    const options = { rounds: ROUNDS, duration: DURATION, connections: CONNECTIONS };
    await benchGateway({ ...options, proxy: SELECTED.has('gateway-proxy'), workers: SELECTED.has('gateway-workers') });
  }
  if (SELECTED.has('recipes-store-writes')) await benchRecipesStore(ROUNDS);
  if (SELECTED.has('recipes-api')) await benchRecipesApi({ rounds: ROUNDS, duration: DURATION, connections: CONNECTIONS });
  if (SELECTED.has('whole-run')) await benchWholeRun(ROUNDS, values['whole-run-peer']);
}

/** The exit code: 1 when the set-up step stopped or a benchmark failed, 2 when a selected benchmark's tool is
 * missing; one line each, the stack only with --verbose. */
async function main(): Promise<number> {
  if (!values['skip-setup']) {
    const code = setUp('bench');
    if (code !== 0) return code;
  }
  try {
    checkTools(SELECTED);
    await run();
    return 0;
  } catch (err) {
    if (err instanceof MissingTool) {
      process.stderr.write(`${err.message}\n`);
      return 2;
    }
    process.stderr.write(values.verbose ? `bench: ${(err as Error).stack ?? err}\n` : `bench: ${(err as Error).message ?? err} (--verbose for the stack)\n`);
    return 1;
  }
}

process.exitCode = await main();
