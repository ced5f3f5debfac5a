// The HTTP benchmarks' load: wrk (one thread, keep-alive connections, `--latency` for percentiles),
// pinned to core 1 when taskset exists, while the servers run on core 0.
import { spawn } from 'node:child_process';
import { HAS_TASKSET } from './peers.ts';

export interface WrkSample {
  rps: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** Socket errors and non-2xx/3xx answers: shown beside the numbers, a sign the run is not comparable. */
  faults: number;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

/** Reads wrk's report: `Requests/sec:`, the request count, the 50% and 99% lines of `--latency`, socket errors and
 * non-2xx answers. */
export function parseWrk(out: string): WrkSample {
  const rps = /^Requests\/sec:\s+([\d.]+)/m.exec(out);
  const requests = /^\s*(\d+) requests in /m.exec(out);
  const p50 = percentile(out, '50');
  const p99 = percentile(out, '99');
  if (!rps || !requests || p50 === undefined || p99 === undefined) throw new Error(`unreadable wrk report:\n${out}`);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out);
  const faults = (socket ? socket.slice(1).reduce((n, x) => n + Number(x), 0) : 0) + (non2xx ? Number(non2xx[1]) : 0);
  return { rps: Number(rps[1]), requests: Number(requests[1]), p50Ms: p50, p99Ms: p99, faults };
}

function percentile(out: string, at: string): number | undefined {
  const line = new RegExp(`^\\s*${at}(?:\\.0+)?%\\s+([\\d.]+)(us|ms|s|m)\\b`, 'm').exec(out);
  return line ? Number(line[1]) * UNIT_MS[line[2]!]! : undefined;
}

export function wrk(url: string, seconds: number, connections: number): Promise<WrkSample> {
  const argv = ['wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '--latency', url];
  const cmd = HAS_TASKSET ? ['taskset', '-c', '1', ...argv] : argv;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd[0]!, cmd.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.once('error', reject);
    child.once('close', (code) => {
      try {
        if (code !== 0) throw new Error(`wrk exited with ${code}:\n${out}`);
        resolve(parseWrk(out));
      } catch (err) {
        reject(err);
      }
    });
  });
}
