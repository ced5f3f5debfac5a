// `gateway-proxy`: proxied GET through the reference gateway (health checks, metrics and rate limiting on,
// one route over two upstreams) against nginx (one worker, keep-alive upstream pool), the bare http-proxy
// forwarder and node:http over undici with nothing between, measured side by side (../http-scenario.ts).
// `gateway-workers`: `workers: 2` against `workers: 1`, when the gateway started with `workers: 2` runs
// its primary and two worker processes (else what it runs is shown and the comparison skipped); the CPU per
// request is the whole process tree's.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts, releasePorts } from '../../../conformance/harness/free-ports.ts';
import { loadReferenceTargets } from '../../../conformance/harness/reference-targets.ts';
import { type HttpPeer, httpGet, type LoadOptions, runScenario, type Scenario } from '../http-scenario.ts';
import { HAS_TASKSET, upstreamCommand } from '../peers.ts';
import { type Server, startServer } from '../server-process.ts';
import { gatewayPeer, METRICS_PATH, PROXIED_PATH, PROXIES } from './servers.ts';

const GOALS = { nginx: 0.5, 'http-proxy (bare)': 1.5 } as Record<string, number>;

export interface GatewayBenchOptions extends LoadOptions {
  proxy: boolean;
  workers: boolean;
}

interface Context extends GatewayBenchOptions {
  dir: string;
  upstreams: number[];
  /** The upstream's answer: every proxy must return it unchanged. */
  body: string;
}

/** Per upstream, from the gateway's metrics: requests the balancer sent it and its healthy gauge. */
async function upstreamMetrics(port: number): Promise<{ requests: number[]; healthy: number[] }> {
  const { body } = await httpGet(`http://127.0.0.1:${port}${METRICS_PATH}`);
  const values = (name: string) => [...body.matchAll(new RegExp(`^${name}\\{upstream="[^"]*"\\} (\\S+)$`, 'gm'))].map((m) => Number(m[1]));
  return { requests: values('gateway_upstream_requests_total'), healthy: values('gateway_upstream_healthy') };
}

/** For a gateway: how it spread the requests over the upstreams (its metrics) and how many processes it ran. */
async function gatewayNote(peer: HttpPeer, port: number, server: Server): Promise<string | undefined> {
  if (!peer.name.startsWith('gateway')) return undefined;
  const m = await upstreamMetrics(port);
  const total = m.requests.reduce((a, b) => a + b, 0) || 1;
  const shares = m.requests.map((n) => `${((n / total) * 100).toFixed(0)}%`).join(' / ');
  const healthy = m.healthy.filter((h) => h === 1).length;
  const processes = server.processes();
  const tree = processes === undefined ? '' : `, ${processes} process${processes === 1 ? '' : 'es'}`;
  return `requests per target ${shares} (from ${METRICS_PATH}), healthy ${healthy} of ${m.healthy.length}${tree}`;
}

const scenario = (c: Context, title: string, peers: HttpPeer[], cores: string): Scenario => ({
  ...c,
  title,
  peers,
  base: peers[0]!.name,
  path: PROXIED_PATH,
  goals: GOALS,
  cores,
  note: gatewayNote,
});

async function proxyScenario(c: Context): Promise<void> {
  const pinning = HAS_TASKSET ? 'servers and upstreams on core 0, wrk on core 1' : 'not pinned (taskset missing)';
  await runScenario(scenario(c, `gateway-proxy: proxied GET ${PROXIED_PATH}, two upstreams; ${pinning}`, PROXIES, '0'));
}

async function workersScenario(c: Context): Promise<void> {
  const two = gatewayPeer('gateway workers: 2', 2);
  const [port] = await freePorts(1);
  const probe = await startServer(two.command(c.dir, port!, c.upstreams), port!, '0', c.dir);
  // Ready once it listens: the primary and both workers are up by then (it answers only after they listen).
  const processes = probe.processes();
  await probe.stop();
  releasePorts([port!]);
  if (processes !== undefined && processes < 3) {
    console.log(`\ngateway-workers: skipped; started with workers: 2 the gateway runs ${processes} process(es), not a primary and two workers`);
    return;
  }
  // Two workers need both cores: both configurations get cores 0-1, and share core 1 with wrk.
  const title = 'gateway-workers: workers: 2 against workers: 1 (gateways on cores 0-1, wrk on core 1)';
  await runScenario(scenario(c, title, [two, gatewayPeer('gateway workers: 1', 1)], HAS_TASKSET ? '0,1' : '0'));
}

export async function benchGateway(options: GatewayBenchOptions): Promise<void> {
  loadReferenceTargets(['gateway']); // builds the gateway's bundle
  const dir = mkdtempSync(join(tmpdir(), 'bench-gateway-'));
  chmodSync(dir, 0o755); // nginx workers run as an unprivileged user
  const upstreams: Server[] = [];
  try {
    for (const port of await freePorts(2)) upstreams.push(await startServer(upstreamCommand(port!), port!, '0', dir));
    const body = (await httpGet(`http://127.0.0.1:${upstreams[0]!.port}${PROXIED_PATH}`)).body;
    const c: Context = { ...options, dir, upstreams: upstreams.map((u) => u.port), body };
    if (options.proxy) await proxyScenario(c);
    if (options.workers) await workersScenario(c);
  } finally {
    for (const upstream of upstreams) await upstream.stop();
    releasePorts(upstreams.map((u) => u.port));
    rmSync(dir, { recursive: true, force: true });
  }
}
