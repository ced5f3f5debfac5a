// `gateway-proxy`: proxied GET through the reference gateway (health checks, metrics and rate limiting on,
// one route over two upstreams) against nginx (one worker, keep-alive upstream pool), the bare http-proxy
// forwarder and node:http over undici with nothing between, in the same run:
// rounds interleave them (the order rotates each round), each
// gets a fresh process and a 1 s warm-up, then wrk measures; medians are compared as ratios, p99 beside
// each. `gateway-workers`: `workers: 2` against `workers: 1`, when the gateway started with `workers: 2` runs
// its primary and two worker processes (else what it runs is shown and the comparison skipped); the CPU per
// request is the whole process tree's.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts, releasePorts } from '../../../conformance/harness/free-ports.ts';
import { loadReferenceTargets } from '../../../conformance/harness/reference-targets.ts';
import { HAS_TASKSET } from '../peers.ts';
import { type CpuTime, gatewayPeer, METRICS_PATH, PROXIED_PATH, PROXIES, type ProxySpec, type Server, startServer, upstreamCommand } from './servers.ts';
import { HAS_WRK, type WrkSample, wrk } from './wrk.ts';

const GOALS = { nginx: 0.5, 'http-proxy (bare)': 1.5 } as Record<string, number>;

export interface GatewayBenchOptions {
  rounds: number;
  duration: number;
  connections: number;
  proxy: boolean;
  workers: boolean;
}

interface Context extends GatewayBenchOptions {
  dir: string;
  upstreams: number[];
  /** The upstream's answer: every proxy must return it unchanged. */
  body: string;
}

interface Sample extends WrkSample {
  /** The proxy's CPU time per request during the measured load, in µs, and the system part of it (NaN
   * without /proc): what a request costs the proxy, whatever else runs on the machine. */
  cpuUs: number;
  sysUs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x < 10 ? x.toFixed(2) : x.toFixed(1)} ms`;

async function get(url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.text() };
}

/** Per upstream, from the gateway's metrics: requests the balancer sent it and its healthy gauge. */
async function upstreamMetrics(port: number): Promise<{ requests: number[]; healthy: number[] }> {
  const { body } = await get(`http://127.0.0.1:${port}${METRICS_PATH}`);
  const values = (name: string) => [...body.matchAll(new RegExp(`^${name}\\{upstream="[^"]*"\\} (\\S+)$`, 'gm'))].map((m) => Number(m[1]));
  return { requests: values('gateway_upstream_requests_total'), healthy: values('gateway_upstream_healthy') };
}

/** CPU per request between two readings of a server's CPU time (NaN without /proc). */
function cpuPerRequest(before: CpuTime | undefined, after: CpuTime | undefined, requests: number): { cpuUs: number; sysUs: number } {
  if (before === undefined || after === undefined) return { cpuUs: Number.NaN, sysUs: Number.NaN };
  const us = (ms: number) => (ms * 1000) / requests;
  return { cpuUs: us(after.user - before.user + after.system - before.system), sysUs: us(after.system - before.system) };
}

/** One round of one peer: a fresh process, a check that it proxies, a warm-up, the measured load; for a
 * gateway, a note of how it spread the requests (its metrics). */
async function measure(c: Context, peer: ProxySpec, cores: string): Promise<{ sample: Sample; note?: string; stderr: string }> {
  const [port] = await freePorts(1);
  const server = await startServer(peer.command(c.dir, port!, c.upstreams), port!, cores, c.dir);
  try {
    const url = `http://127.0.0.1:${port}${PROXIED_PATH}`;
    const first = await get(url);
    if (first.status !== 200 || first.body !== c.body) throw new Error(`${peer.name}: GET ${PROXIED_PATH} answered ${first.status} ${first.body.slice(0, 200)}`);
    await wrk(url, 1, c.connections); // warm-up
    const before = server.cpuMs();
    const load = await wrk(url, c.duration, c.connections);
    const sample = { ...load, ...cpuPerRequest(before, server.cpuMs(), load.requests) };
    if (!peer.name.startsWith('gateway')) return { sample, stderr: server.stderr() };
    const m = await upstreamMetrics(port!);
    const total = m.requests.reduce((a, b) => a + b, 0) || 1;
    const shares = m.requests.map((n) => `${((n / total) * 100).toFixed(0)}%`).join(' / ');
    const healthy = m.healthy.filter((h) => h === 1).length;
    const processes = server.processes();
    const tree = processes === undefined ? '' : `, ${processes} process${processes === 1 ? '' : 'es'}`;
    return { sample, note: `requests per target ${shares} (from ${METRICS_PATH}), healthy ${healthy} of ${m.healthy.length}${tree}`, stderr: server.stderr() };
  } finally {
    await server.stop();
    releasePorts([port!]);
  }
}

/** Runs `peers` in interleaved rounds (the order rotates each round); per peer its samples, and notes. */
async function rounds(c: Context, peers: ProxySpec[], cores: string): Promise<{ samples: Map<string, Sample[]>; notes: string[] }> {
  const samples = new Map<string, Sample[]>(peers.map((p) => [p.name, []]));
  const notes = new Map<string, string>();
  for (let round = 0; round < c.rounds; round++) {
    for (const peer of [...peers.slice(round % peers.length), ...peers.slice(0, round % peers.length)]) {
      const { sample, note, stderr } = await measure(c, peer, cores);
      samples.get(peer.name)!.push(sample);
      if (note !== undefined) notes.set(peer.name, `${peer.name}: ${note}`);
      if (stderr.trim()) notes.set(`${peer.name} stderr`, `${peer.name} wrote on stderr: ${stderr.trim().split('\n').slice(0, 3).join(' | ')}`);
    }
  }
  return { samples, notes: [...notes.values()] };
}

function report(c: Context, title: string, samples: Map<string, Sample[]>, base: string, notes: string[]): void {
  console.log(`\n${title} (${c.rounds} rounds x ${c.duration} s, ${c.connections} connections, wrk 1 thread; load average ${loadavg()[0]!.toFixed(1)})`);
  const medians = new Map(
    [...samples].map(([name, xs]) => [name, { rps: median(xs.map((x) => x.rps)), p99: median(xs.map((x) => x.p99Ms)), cpu: median(xs.map((x) => x.cpuUs)), sys: median(xs.map((x) => x.sysUs)) }]),
  );
  for (const [name, xs] of samples) {
    const m = medians.get(name)!;
    const faults = xs.reduce((n, x) => n + x.faults, 0);
    const each = xs.map((x) => `${x.rps.toFixed(0)}/${x.p99Ms.toFixed(1)}`).join(', ');
    const cpu = Number.isNaN(m.cpu) ? '' : `  cpu ${m.cpu.toFixed(0).padStart(3)} µs/req (system ${m.sys.toFixed(0).padStart(2)})`;
    console.log(`  ${name.padEnd(20)} ${m.rps.toFixed(0).padStart(7)} req/s  p99 ${ms(m.p99).padStart(8)}${cpu}   [req/s / p99 ms: ${each}]${faults ? `   ${faults} errors/non-2xx` : ''}`);
  }
  const mine = medians.get(base)!;
  for (const [name, other] of medians) {
    if (name === base) continue;
    const ratio = mine.rps / other.rps;
    const perRound = samples.get(base)!.map((x, i) => (x.rps / samples.get(name)![i]!.rps).toFixed(2)).join(', ');
    const goal = GOALS[name] === undefined ? '' : ` (goal >= ${GOALS[name]}x: ${ratio >= GOALS[name]! ? 'met' : 'NOT met'})`;
    // The inverse ratio of CPU per request: the throughput ratio on a core of its own, which other load on
    // the machine disturbs far less than req/s.
    const cpu = Number.isNaN(mine.cpu) ? '' : `   by CPU/request ${(other.cpu / mine.cpu).toFixed(2)}x (${mine.cpu.toFixed(0)} vs ${other.cpu.toFixed(0)} µs)`;
    console.log(`  ${`${base} / ${name}`.padEnd(38)} ${ratio.toFixed(2)}x${goal}   p99 ${ms(mine.p99)} vs ${ms(other.p99)}${cpu}   per round [${perRound}]`);
  }
  for (const note of notes) console.log(`  ${note}`);
}

async function proxyScenario(c: Context): Promise<void> {
  const { samples, notes } = await rounds(c, PROXIES, '0');
  const pinning = HAS_TASKSET ? 'servers and upstreams on core 0, wrk on core 1' : 'not pinned (taskset missing)';
  report(c, `gateway-proxy: proxied GET /api/item, two upstreams; ${pinning}`, samples, 'gateway', notes);
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
  const { samples, notes } = await rounds(c, [two, gatewayPeer('gateway workers: 1', 1)], HAS_TASKSET ? '0,1' : '0');
  report(c, 'gateway-workers: workers: 2 against workers: 1 (gateways on cores 0-1, wrk on core 1)', samples, two.name, notes);
}

export async function benchGateway(options: GatewayBenchOptions): Promise<void> {
  if (!HAS_WRK) {
    console.log('\ngateway: skipped, wrk is not installed (Debian package wrk)');
    return;
  }
  loadReferenceTargets(['gateway']); // builds the gateway's bundle
  const dir = mkdtempSync(join(tmpdir(), 'bench-gateway-'));
  chmodSync(dir, 0o755); // nginx workers run as an unprivileged user
  const upstreams: Server[] = [];
  try {
    for (const port of await freePorts(2)) upstreams.push(await startServer(upstreamCommand(port!), port!, '0', dir));
    const body = (await get(`http://127.0.0.1:${upstreams[0]!.port}${PROXIED_PATH}`)).body;
    const c: Context = { ...options, dir, upstreams: upstreams.map((u) => u.port), body };
    if (options.proxy) await proxyScenario(c);
    if (options.workers) await workersScenario(c);
  } finally {
    for (const upstream of upstreams) await upstream.stop();
    releasePorts(upstreams.map((u) => u.port));
    rmSync(dir, { recursive: true, force: true });
  }
}
