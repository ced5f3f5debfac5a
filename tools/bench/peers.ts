// The servers compared by the benchmark, each started as its own process pinned to core 0 (the load
// generator gets core 1), on a loopback port, over the same files.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT, portOpen } from '../../conformance/harness/launch.ts';

export interface Peer {
  name: string;
  /** Path prefix of the measured URL: `/small.txt` for files, `/api/item` for proxying. */
  path: string;
  start(dir: string, port: number, upstreamPort: number): { command: string[]; env?: Record<string, string> };
}

const NODE = process.execPath;
const bin = (...parts: string[]) => join(PROJECT_ROOT, 'node_modules', ...parts);
export const HAS_TASKSET = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));

function referenceConfig(dir: string, port: number, extra: object): string {
  const file = join(dir, `reference-${port}.json`);
  writeFileSync(file, JSON.stringify({ port, folders: 'public', logging: false, ...extra }));
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

export const FILE_PEERS: Peer[] = [
  {
    name: 'reference',
    path: '/small.txt',
    start: (dir, port) => ({
      command: [NODE, join(PROJECT_ROOT, '.cache/reference/static.mjs'), '--config', referenceConfig(dir, port, {})],
      env: { NODE_ENV: 'production', STATIC_BIND: '127.0.0.1' },
    }),
  },
  {
    name: 'sirv-cli',
    path: '/small.txt',
    start: (dir, port) => ({ command: [NODE, bin('sirv-cli', 'bin.js'), join(dir, 'public'), '--port', String(port), '--host', '127.0.0.1', '--quiet'] }),
  },
  {
    name: 'serve',
    path: '/small.txt',
    start: (dir, port) => ({ command: [NODE, bin('serve', 'build', 'main.js'), join(dir, 'public'), '-l', `tcp://127.0.0.1:${port}`, '--no-request-logging', '--no-clipboard'] }),
  },
  ...(NGINX ? [{ name: 'nginx', path: '/small.txt', start: (dir: string, port: number, up: number) => ({ command: [NGINX, '-c', nginxConf(dir, port, up)] }) }] : []),
];

export const PROXY_PEERS: Peer[] = [
  {
    name: 'reference',
    path: '/api/item',
    start: (dir, port, up) => ({
      command: [NODE, join(PROJECT_ROOT, '.cache/reference/static.mjs'), '--config', referenceConfig(dir, port, { proxy: { '/api': `http://127.0.0.1:${up}` } })],
      env: { NODE_ENV: 'production', STATIC_BIND: '127.0.0.1' },
    }),
  },
  {
    name: 'http-proxy (bare)',
    path: '/api/item',
    start: (_dir, port, up) => ({ command: [NODE, join(PROJECT_ROOT, 'tools/bench/bare-proxy.mjs'), String(port), String(up)] }),
  },
  {
    name: 'upstream (direct)',
    path: '/api/item',
    start: (_dir, port) => ({ command: [NODE, join(PROJECT_ROOT, 'tools/bench/upstream.mjs'), String(port)] }),
  },
  ...(NGINX ? [{ name: 'nginx', path: '/api/item', start: (dir: string, port: number, up: number) => ({ command: [NGINX, '-c', nginxConf(dir, port, up)] }) }] : []),
];

export async function startProcess(command: string[], env: Record<string, string> | undefined, port: number, core: string): Promise<ChildProcess> {
  const argv = HAS_TASKSET ? ['taskset', '-c', core, ...command] : command;
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...env } });
  for (let i = 0; i < 200; i++) {
    if (await portOpen(port)) return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill();
  throw new Error(`${command.join(' ')} did not listen on ${port}`);
}
