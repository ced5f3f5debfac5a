// The servers compared by the benchmark, each started as its own process pinned to core 0 (the load
// generator gets core 1), on a loopback port, over the same files.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { PROJECT_ROOT, portOpen } from '../../conformance/harness/launch.ts';
import type { HttpPeer } from './http-scenario.ts';

const NODE = process.execPath;
const bin = (...parts: string[]) => join(PROJECT_ROOT, 'node_modules', ...parts);
export const HAS_TASKSET = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
/** The middle value of a series (the upper one of an even count): the figure every benchmark reports. */
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** nginx's binary: on PATH, else where Debian puts it (a user's PATH often lacks /usr/sbin). Looked up when used:
 * the set-up step may install it after this module loads. */
export function nginxPath(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), '/usr/sbin'];
  return dirs.map((dir) => join(dir, 'nginx')).find((p) => existsSync(p));
}

/** nginx with one worker (./needs.ts makes sure it is there before a benchmark with it starts). */
export const NGINX_PEER: HttpPeer = {
  name: 'nginx',
  command: (dir, port, up) => [nginxPath() ?? 'nginx', '-c', nginxConf(dir, port, up)],
};

/** The static reference's config: `public` served, and each proxy rule (given with an empty target) sent to the
 * upstream. */
function referenceConfig(dir: string, port: number, extra: { proxy?: Record<string, string>; logging?: false }, upstreams: number[]): string {
  const file = join(dir, `reference-${port}.json`);
  const proxy = extra.proxy && Object.fromEntries(Object.keys(extra.proxy).map((prefix) => [prefix, `http://127.0.0.1:${upstreams[0]}`]));
  writeFileSync(file, JSON.stringify({ port, folders: 'public', ...extra, ...(proxy ? { proxy } : {}) }));
  return file;
}

/** nginx with one worker, serving `dir`/public and proxying /api/ to a keep-alive pool of the upstreams. */
export function nginxConf(dir: string, port: number, upstreams: number | number[]): string {
  const file = join(dir, `nginx-${port}.conf`);
  writeFileSync(
    file,
    `daemon off; worker_processes 1; pid ${dir}/nginx-${port}.pid; error_log ${dir}/nginx-error.log error;
events { worker_connections 1024; }
http { access_log off; include /etc/nginx/mime.types;
  client_body_temp_path ${dir}/nb; proxy_temp_path ${dir}/np; fastcgi_temp_path ${dir}/nf; uwsgi_temp_path ${dir}/nu; scgi_temp_path ${dir}/ns;
  upstream back { ${[upstreams].flat().map((u) => `server 127.0.0.1:${u};`).join(' ')} keepalive 64; }
  server { listen 127.0.0.1:${port}; root ${dir}/public;
    location /api/ { proxy_pass http://back; proxy_http_version 1.1; proxy_set_header Connection ""; } } }
`,
  );
  return file;
}

/** The static reference as a user runs it: its bundle in production mode, every default left on (the access
 * log included: to stdout, which the benchmark discards). */
function staticReference(extra: object, name = 'reference'): HttpPeer {
  return {
    name,
    command: (dir, port, up) => [NODE, join(PROJECT_ROOT, '.cache/reference/static.mjs'), '--config', referenceConfig(dir, port, extra, up)],
    env: { NODE_ENV: 'production', STATIC_BIND: '127.0.0.1' },
  };
}

/** The same with `logging: false`: what the access log costs, and the reference as the other peers run here. */
const NO_LOG = 'reference, log off';

const EXPRESS: HttpPeer = {
  name: 'express + serve-static',
  command: (dir, port, up) => [NODE, join(PROJECT_ROOT, 'tools/bench/express-peer.mjs'), String(port), join(dir, 'public'), String(up[0])],
};

/** Peers serving `public/small.txt`. */
export const FILE_PEERS: HttpPeer[] = [
  staticReference({}),
  staticReference({ logging: false }, NO_LOG),
  { name: 'sirv-cli', command: (dir, port) => [NODE, bin('sirv-cli', 'bin.js'), join(dir, 'public'), '--port', String(port), '--host', '127.0.0.1', '--quiet'] },
  {
    name: 'serve',
    command: (dir, port) => [NODE, bin('serve', 'build', 'main.js'), join(dir, 'public'), '-l', `tcp://127.0.0.1:${port}`, '--no-request-logging', '--no-clipboard'],
  },
  EXPRESS,
  NGINX_PEER,
];

/** Peers forwarding `/api/...` to the upstream. */
export const PROXY_PEERS: HttpPeer[] = [
  staticReference({ proxy: { '/api': '' } }),
  staticReference({ proxy: { '/api': '' }, logging: false }, NO_LOG),
  { name: 'http-proxy (bare)', command: (_dir, port, up) => [NODE, join(PROJECT_ROOT, 'tools/bench/bare-proxy.mjs'), String(port), ...up.map(String)] },
  { name: 'express + h-p-middleware', command: EXPRESS.command },
  { name: 'upstream (direct)', command: (_dir, port) => upstreamCommand(port) },
  NGINX_PEER,
];

export const upstreamCommand = (port: number): string[] => [NODE, join(PROJECT_ROOT, 'tools/bench/upstream.mjs'), String(port)];

export interface StartOptions {
  cwd?: string;
  /** Keep the process's stderr (shown when it fails to start) instead of passing it through. */
  quiet?: boolean;
}

export async function startProcess(command: string[], env: Record<string, string> | undefined, port: number, core: string, options: StartOptions = {}): Promise<ChildProcess> {
  const argv = HAS_TASKSET ? ['taskset', '-c', core, ...command] : command;
  const child = spawn(argv[0]!, argv.slice(1), { cwd: options.cwd, stdio: ['ignore', 'ignore', options.quiet ? 'pipe' : 'inherit'], env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  for (let i = 0; i < 200 && child.exitCode === null && child.signalCode === null; i++) {
    if (await portOpen(port)) return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill();
  throw new Error(`${command.join(' ')} did not listen on ${port}${stderr ? `:\n${stderr}` : ''}`);
}

/** Stops a process started by startProcess: SIGTERM, then SIGKILL after `graceMs`. */
export async function stopProcess(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

const AUTOCANNON = join(PROJECT_ROOT, 'node_modules', 'autocannon', 'autocannon.js');

export interface LoadSample {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Socket errors and non-2xx answers: shown beside the numbers, a sign the run is not comparable. */
  faults: number;
}

/** Runs a load generator pinned to core 1 (beside the servers on core 0): its stdout, or an error with its
 * stderr when it exits other than 0. */
export function runLoad(argv: string[]): Promise<string> {
  const cmd = HAS_TASKSET ? ['taskset', '-c', '1', ...argv] : argv;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd[0]!, cmd.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      err = (err + c.toString()).slice(-4000);
    });
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${argv.join(' ')} exited with ${code}:\n${err}`))));
  });
}

/** autocannon against `url` for `seconds` with `connections`. */
export async function autocannon(url: string, seconds: number, connections: number, headers: Record<string, string> = {}): Promise<LoadSample> {
  const argv = ['node', AUTOCANNON, '-c', String(connections), '-d', String(seconds), '--json'];
  for (const [name, value] of Object.entries(headers)) argv.push('-H', `${name}=${value}`);
  const result = JSON.parse(await runLoad([...argv, url])) as {
    requests: { average: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
  };
  return { rps: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99, faults: result.non2xx + result.errors };
}
