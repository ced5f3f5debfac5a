// The processes of the gateway benchmark, each on a loopback port and pinned (when taskset exists): the
// two upstreams and the proxies on core 0. The proxies are the reference gateway (its bundle, with the
// config a user would write), nginx (one worker, keep-alive pool over the same two upstreams) and the
// bare http-proxy forwarder (../bare-proxy.mjs), and node:http over undici pools with nothing between
// (../undici-proxy.mjs); all four take the two upstreams in turn. Every
// process is started and stopped by its own PID.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT, portOpen } from '../../../conformance/harness/launch.ts';
import { HAS_TASKSET, NGINX, nginxConf, stopProcess } from '../peers.ts';

const NODE = process.execPath;
const GATEWAY = join(PROJECT_ROOT, '.cache/reference/gateway.mjs');
const START_MS = 10_000;
const STOP_MS = 5_000;
/** The measured URL's path on every proxy: under the route `/api`. */
export const PROXIED_PATH = '/api/item';
export const METRICS_PATH = '/metrics';

export interface Server {
  port: number;
  /** What the process wrote on stderr so far. */
  stderr(): string;
  /** CPU time the process and its descendants (nginx's worker, the gateway's workers) used so far, in ms;
   * undefined without /proc. */
  cpuMs(): CpuTime | undefined;
  /** How many processes the server runs now (it and its descendants); undefined without /proc. */
  processes(): number | undefined;
  stop(): Promise<void>;
}

export interface CpuTime {
  user: number;
  system: number;
}

export interface ProxySpec {
  name: string;
  command(dir: string, port: number, upstreams: number[]): string[];
}

/** The gateway's config file as a user would have it: one route over two upstreams, health checks,
 * metrics and a rate limit (site and route buckets) far above the load, so that it counts but never refuses. */
export function gatewayConfig(dir: string, port: number, upstreams: number[], workers: number): string {
  const file = join(dir, `gateway-${port}.yaml`);
  writeFileSync(
    file,
    `workers: ${workers}
sites:
  - port: ${port}
    routes:
      - path: /api
        targets:
${upstreams.map((u) => `          - url: "http://127.0.0.1:${u}"`).join('\n')}
    healthCheck: { path: /health, intervalMs: 1000 }
    rateLimit: { requests: 1000000000, windowMs: 60000, routes: { /api: { requests: 1000000000, windowMs: 1000 } } }
    metrics: { path: ${METRICS_PATH} }
`,
  );
  return file;
}

export const gatewayPeer = (name: string, workers: number): ProxySpec => ({
  name,
  command: (dir, port, upstreams) => [NODE, GATEWAY, 'run', '-c', gatewayConfig(dir, port, upstreams, workers)],
});

export const PROXIES: ProxySpec[] = [
  gatewayPeer('gateway', 1),
  ...(NGINX === undefined ? [] : [{ name: 'nginx', command: (dir: string, port: number, up: number[]) => [NGINX!, '-c', nginxConf(dir, port, up)] }]),
  { name: 'http-proxy (bare)', command: (_dir, port, up) => [NODE, join(PROJECT_ROOT, 'tools/bench/bare-proxy.mjs'), String(port), ...up.map(String)] },
  { name: 'node:http + undici', command: (_dir, port, up) => [NODE, join(PROJECT_ROOT, 'tools/bench/undici-proxy.mjs'), String(port), ...up.map(String)] },
];

export const upstreamCommand = (port: number): string[] => [NODE, join(PROJECT_ROOT, 'tools/bench/upstream.mjs'), String(port)];

/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux). */
const TICK_MS = 10;

function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** utime + stime of `pid` (fields 14 and 15 of /proc/PID/stat, after the parenthesised name) and of its
 * children, recursively; undefined when /proc cannot tell. */
function treeCpuMs(pid: number): CpuTime | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const time = { user: Number(fields[11]) * TICK_MS, system: Number(fields[12]) * TICK_MS };
  const children = readProc(`/proc/${pid}/task/${pid}/children`);
  for (const child of children?.trim().split(/\s+/).filter(Boolean) ?? []) {
    const more = treeCpuMs(Number(child));
    time.user += more?.user ?? 0;
    time.system += more?.system ?? 0;
  }
  return time;
}

function treeSize(pid: number): number | undefined {
  const children = readProc(`/proc/${pid}/task/${pid}/children`);
  if (children === undefined) return undefined;
  return 1 + children.trim().split(/\s+/).filter(Boolean).reduce((n, child) => n + (treeSize(Number(child)) ?? 0), 0);
}

/** Starts `command` pinned to `cores`, in `dir`, and waits until `port` accepts connections. */
export async function startServer(command: string[], port: number, cores: string, dir: string): Promise<Server> {
  const argv = HAS_TASKSET ? ['taskset', '-c', cores, ...command] : command;
  const child = spawn(argv[0]!, argv.slice(1), { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const server: Server = {
    port,
    stderr: () => stderr,
    cpuMs: () => treeCpuMs(child.pid!),
    processes: () => treeSize(child.pid!),
    stop: () => stopProcess(child, STOP_MS),
  };
  for (let waited = 0; waited < START_MS; waited += 50) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    if (await portOpen(port)) return server;
    await new Promise((r) => setTimeout(r, 50));
  }
  await server.stop();
  throw new Error(`${command.join(' ')} did not listen on ${port}${stderr ? `:\n${stderr}` : ''}`);
}
