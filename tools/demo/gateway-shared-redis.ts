// Two reference gateway processes on one Redis (rateLimit.store: redis, global.redis): a client alternating
// between them is limited as one — `requests` pass in all, not per gateway. The same run with the in-memory
// store, for contrast, lets each gateway pass its own `requests`. Needs Debian's redis-server.
//
//   npx tsx tools/demo/gateway-shared-redis.ts
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../conformance/harness/project-root.ts';
import { freePort, listen } from './demo-ports.ts';
import { startRedis } from '../../conformance/harness/redis-server.ts';

const GATEWAY = join(PROJECT_ROOT, 'reference/gateway/bin/gateway.js');
const LIMIT = 5;
const REQUESTS = 20;

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the gateway did not start');
}

/** GET /item from the gateway on `port` as host api.test (fetch cannot set Host): the status. */
const get = (port: number): Promise<number> =>
  new Promise((resolve, reject) => {
    request({ port, host: '127.0.0.1', path: '/item', headers: { host: 'api.test' } }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    })
      .once('error', reject)
      .end();
  });

const redis = await startRedis();
const upstream = createServer((_req, res) => res.end('ok'));
const upPort = await listen(upstream);
const dir = mkdtempSync(join(tmpdir(), 'gateway-shared-redis-'));

async function round(store: 'redis' | 'memory'): Promise<void> {
  const ports = [await freePort(), await freePort()];
  const runs = ports.map((port, i) => {
    const file = `gateway-${store}-${i}.yaml`;
    writeFileSync(
      join(dir, file),
      `global:\n  redis: { url: "${redis.url}", keyPrefix: "demo-${store}:" }\nsites:\n  - host: api.test\n    port: ${port}\n    routes: [{ path: /, targets: [{ url: "http://127.0.0.1:${upPort}" }] }]\n    rateLimit: { requests: ${LIMIT}, windowMs: 60000, store: ${store} }\n`,
    );
    return spawn(process.execPath, [GATEWAY, 'run', '-c', file], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  });
  try {
    for (const port of ports) await until(() => fetch(`http://127.0.0.1:${port}/__health__`).then((r) => r.ok, () => false));
    const tally = ports.map(() => new Map<number, number>());
    for (let i = 0; i < REQUESTS; i++) {
      const at = i % 2;
      const status = await get(ports[at]!);
      tally[at]!.set(status, (tally[at]!.get(status) ?? 0) + 1);
    }
    const passed = tally.reduce((n, t) => n + (t.get(200) ?? 0), 0);
    console.log(`store ${store}: ${REQUESTS} requests alternating between two gateways, limit ${LIMIT} a minute`);
    for (const [i, t] of tally.entries()) console.log(`  gateway ${i + 1} (port ${ports[i]}): ${[...t].map(([status, n]) => `${n} x ${status}`).join(', ')}`);
    console.log(`  passed in all: ${passed} (${passed === LIMIT ? 'limited as one' : `${passed / LIMIT}x the limit`})`);
  } finally {
    const exited = runs.map((run) => new Promise((resolve) => run.once('exit', resolve)));
    for (const run of runs) run.kill('SIGTERM');
    await Promise.all(exited);
  }
}

try {
  await round('redis');
  await round('memory');
} finally {
  upstream.close();
  await redis.close();
  rmSync(dir, { recursive: true, force: true });
}
