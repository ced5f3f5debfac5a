// The processes of the gateway benchmark, each on a loopback port and pinned (when taskset exists): the
// two upstreams and the proxies on core 0. The proxies are the reference gateway (its bundle, with the
// config a user would write), nginx (one worker, keep-alive pool over the same two upstreams) and the
// bare http-proxy forwarder (../bare-proxy.mjs), and node:http over undici pools with nothing between
// (../undici-proxy.mjs); all four take the two upstreams in turn. Every
// process is started and stopped by its own PID.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../../conformance/harness/launch.ts';
import type { HttpPeer } from '../http-scenario.ts';
import { NGINX_PEER } from '../peers.ts';

const NODE = process.execPath;
const GATEWAY = join(PROJECT_ROOT, '.cache/reference/gateway.mjs');
/** The measured URL's path on every proxy: under the route `/api`. */
export const PROXIED_PATH = '/api/item';
export const METRICS_PATH = '/metrics';

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

export const gatewayPeer = (name: string, workers: number): HttpPeer => ({
  name,
  command: (dir, port, upstreams) => [NODE, GATEWAY, 'run', '-c', gatewayConfig(dir, port, upstreams, workers)],
});

export const PROXIES: HttpPeer[] = [
  gatewayPeer('gateway', 1),
  NGINX_PEER,
  { name: 'http-proxy (bare)', command: (_dir, port, up) => [NODE, join(PROJECT_ROOT, 'tools/bench/bare-proxy.mjs'), String(port), ...up.map(String)] },
  { name: 'node:http + undici', command: (_dir, port, up) => [NODE, join(PROJECT_ROOT, 'tools/bench/undici-proxy.mjs'), String(port), ...up.map(String)] },
];

