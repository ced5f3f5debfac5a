// One HTTP benchmark: peers measured side by side in the same run. Rounds interleave them (the order rotates
// each round, so no peer always runs first or right after the heaviest one); each round gets a fresh process,
// a check that it gives the expected answer, a 1 s warm-up, then wrk measures. Medians are compared as ratios
// against every peer, with p50 and p99 beside each throughput and the CPU per request: what a request costs the
// server, which other load on the machine disturbs far less than req/s.
import { loadavg } from 'node:os';
import { freePorts, releasePorts } from '../../conformance/harness/free-ports.ts';
import { median } from './peers.ts';
import { type CpuTime, type Server, startServer } from './server-process.ts';
import { type WrkSample, wrk } from './wrk.ts';

export interface HttpPeer {
  name: string;
  command(dir: string, port: number, upstreams: number[]): string[];
  /** Added to the peer's environment. */
  env?: Record<string, string>;
}

export interface LoadOptions {
  rounds: number;
  /** Seconds of measured load per peer and round. */
  duration: number;
  connections: number;
}

export interface Scenario extends LoadOptions {
  title: string;
  /** The peers' working folder (their config files, the served files). */
  dir: string;
  upstreams: number[];
  /** The measured URL's path. */
  path: string;
  /** The answer every peer must give at `path`: a peer that answers otherwise is not comparable. */
  body: string;
  peers: HttpPeer[];
  /** The peer the ratios speak of. */
  base: string;
  /** Goals of the base's throughput ratio, by peer. */
  goals?: Record<string, number>;
  /** Cores the peers run on (wrk runs on core 1). */
  cores: string;
  /** A note on a round of a peer, read after its load (e.g. how a gateway spread its requests). */
  note?(peer: HttpPeer, port: number, server: Server): Promise<string | undefined>;
}

export interface Sample extends WrkSample {
  /** The server's CPU time per request during the measured load, in µs, and the system part of it (NaN
   * without /proc). */
  cpuUs: number;
  sysUs: number;
}

const ms = (x: number) => `${x < 10 ? x.toFixed(2) : x.toFixed(1)} ms`;

export async function httpGet(url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.text() };
}

/** CPU per request between two readings of a server's CPU time (NaN without /proc). */
function cpuPerRequest(before: CpuTime | undefined, after: CpuTime | undefined, requests: number): { cpuUs: number; sysUs: number } {
  if (before === undefined || after === undefined) return { cpuUs: Number.NaN, sysUs: Number.NaN };
  const us = (ms: number) => (ms * 1000) / requests;
  return { cpuUs: us(after.user - before.user + after.system - before.system), sysUs: us(after.system - before.system) };
}

async function measure(s: Scenario, peer: HttpPeer): Promise<{ sample: Sample; note?: string; stderr: string }> {
  const [port] = await freePorts(1);
  const server = await startServer(peer.command(s.dir, port!, s.upstreams), port!, s.cores, s.dir, peer.env);
  try {
    const url = `http://127.0.0.1:${port}${s.path}`;
    const first = await httpGet(url);
    if (first.status !== 200 || first.body !== s.body) throw new Error(`${peer.name}: GET ${s.path} answered ${first.status} ${first.body.slice(0, 200)}`);
    await wrk(url, 1, s.connections); // warm-up
    const before = server.cpuMs();
    const load = await wrk(url, s.duration, s.connections);
    const sample = { ...load, ...cpuPerRequest(before, server.cpuMs(), load.requests) };
    return { sample, note: await s.note?.(peer, port!, server), stderr: server.stderr() };
  } finally {
    await server.stop();
    releasePorts([port!]);
  }
}

/** Measures every peer of `s` in interleaved rounds and prints the table; returns each peer's samples. */
export async function runScenario(s: Scenario): Promise<Map<string, Sample[]>> {
  const samples = new Map<string, Sample[]>(s.peers.map((p) => [p.name, []]));
  const notes = new Map<string, string>();
  for (let round = 0; round < s.rounds; round++) {
    for (const peer of [...s.peers.slice(round % s.peers.length), ...s.peers.slice(0, round % s.peers.length)]) {
      const { sample, note, stderr } = await measure(s, peer);
      samples.get(peer.name)!.push(sample);
      if (note !== undefined) notes.set(peer.name, `${peer.name}: ${note}`);
      if (stderr.trim()) notes.set(`${peer.name} stderr`, `${peer.name} wrote on stderr: ${stderr.trim().split('\n').slice(0, 3).join(' | ')}`);
    }
  }
  report(s, samples, [...notes.values()]);
  return samples;
}

function report(s: Scenario, samples: Map<string, Sample[]>, notes: string[]): void {
  console.log(`\n${s.title} (${s.rounds} rounds x ${s.duration} s, ${s.connections} connections, wrk 1 thread; load average ${loadavg()[0]!.toFixed(1)})`);
  const medians = new Map(
    [...samples].map(([name, xs]) => [
      name,
      {
        rps: median(xs.map((x) => x.rps)),
        p50: median(xs.map((x) => x.p50Ms)),
        p99: median(xs.map((x) => x.p99Ms)),
        cpu: median(xs.map((x) => x.cpuUs)),
        sys: median(xs.map((x) => x.sysUs)),
      },
    ]),
  );
  for (const [name, xs] of samples) {
    const m = medians.get(name)!;
    const faults = xs.reduce((n, x) => n + x.faults, 0);
    const each = xs.map((x) => x.rps.toFixed(0)).join(', ');
    const cpu = Number.isNaN(m.cpu) ? '' : `  cpu ${m.cpu.toFixed(0).padStart(3)} µs/req (system ${m.sys.toFixed(0).padStart(2)})`;
    const latency = `p50 ${ms(m.p50).padStart(8)}  p99 ${ms(m.p99).padStart(8)}`;
    console.log(`  ${name.padEnd(24)} ${m.rps.toFixed(0).padStart(7)} req/s  ${latency}${cpu}   [req/s: ${each}]${faults ? `   ${faults} errors/non-2xx` : ''}`);
  }
  const mine = medians.get(s.base)!;
  for (const [name, other] of medians) {
    if (name === s.base) continue;
    const ratio = mine.rps / other.rps;
    const perRound = samples.get(s.base)!.map((x, i) => (x.rps / samples.get(name)![i]!.rps).toFixed(2)).join(', ');
    const target = s.goals?.[name];
    const goal = target === undefined ? '' : ` (goal >= ${target}x: ${ratio >= target ? 'met' : 'NOT met'})`;
    const cpu = Number.isNaN(mine.cpu) ? '' : `   by CPU/request ${(other.cpu / mine.cpu).toFixed(2)}x (${mine.cpu.toFixed(0)} vs ${other.cpu.toFixed(0)} µs)`;
    console.log(`  ${`${s.base} / ${name}`.padEnd(42)} ${ratio.toFixed(2)}x${goal}   p99 ${ms(mine.p99)} vs ${ms(other.p99)}${cpu}   per round [${perRound}]`);
  }
  for (const note of notes) console.log(`  ${note}`);
}
