// Reloads under load: autocannon drives the reference gateway while the config file is rewritten and
// POST /reload called every 250 ms, cycling through three configs that change authentication (API key,
// basic auth), the rate limit and the routes. autocannon counts every answer by status and every error,
// timeout and reset. The only statuses allowed are 200 and what a config rejects by design — 401 (a key or
// user the config in force does not take), 404 (a route it does not have), 429 (over its rate limit); a
// 5xx, an error, a timeout or a reset is a failure. Exit 1 when there is one.
//
//   npx tsx tools/demo/gateway-reload-load.ts [--seconds 10] [--workers 1] [--connections 32]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { PROJECT_ROOT } from '../../conformance/harness/project-root.ts';
import { freePort, listen } from './demo-ports.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, workers: { type: 'string', default: '1' }, connections: { type: 'string', default: '32' } } });
const SECONDS = Number(values.seconds);
const WORKERS = Number(values.workers);
const RELOAD_EVERY_MS = 250;
const BY_DESIGN = new Set(['200', '401', '404', '429']);

const GATEWAY = join(PROJECT_ROOT, 'reference/gateway/bin/gateway.js');

const upstreams = [createServer((_req, res) => res.end('u1')), createServer((_req, res) => res.end('u2'))];
const [u1, u2] = await Promise.all(upstreams.map((server) => listen(server)));
const [port, adminPort] = [await freePort(), await freePort()];
const target = (p: number | undefined) => `{ url: "http://127.0.0.1:${p}" }`;

// A: /api -> u1, key k1 only, no limit. B: /api -> u2, keys k1 and k2, 300 requests a second per client.
// C: /api -> u1 and u2, /v2 -> u2, basic auth (user demo) instead of keys.
const CONFIGS = [
  `    routes: [{ path: /api, targets: [${target(u1)}] }]
    apiKey: { keys: [k1] }`,
  `    routes: [{ path: /api, targets: [${target(u2)}] }]
    apiKey: { keys: [k1, k2] }
    rateLimit: { requests: 300, windowMs: 1000 }`,
  `    routes: [{ path: /api, targets: [${target(u1)}, ${target(u2)}] }, { path: /v2, targets: [${target(u2)}] }]
    basicAuth: { users: [{ username: demo, password: demo-pass }] }`,
];
const file = (i: number) => `global:
  admin: { bind: "127.0.0.1:${adminPort}" }
workers: ${WORKERS}
sites:
  - port: ${port}
${CONFIGS[i]}
`;

const dir = mkdtempSync(join(tmpdir(), 'gateway-reload-load-'));
writeFileSync(join(dir, 'gateway.yaml'), file(0));
const run = spawn(process.execPath, [GATEWAY, 'run', '-c', 'gateway.yaml'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
const stop = async () => {
  run.kill('SIGTERM');
  await new Promise((resolve) => run.once('exit', resolve));
  for (const server of upstreams) server.close();
  rmSync(dir, { recursive: true, force: true });
};

try {
  for (let i = 0; ; i++) {
    const up = await fetch(`http://127.0.0.1:${adminPort}/status`).then((r) => r.ok, () => false);
    if (up) break;
    if (i > 200) throw new Error('the gateway did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const basic = `Basic ${Buffer.from('demo:demo-pass').toString('base64')}`;
  const load = autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: Number(values.connections),
    duration: SECONDS,
    timeout: 5,
    // Each connection cycles through these: a key every config with keys takes, a key only B takes, the
    // basic user (only C takes it), a route only C has.
    requests: [
      { path: '/api/item', headers: { 'x-api-key': 'k1', authorization: basic } },
      { path: '/api/item', headers: { 'x-api-key': 'k2' } },
      { path: '/api/item', headers: { authorization: basic } },
      { path: '/v2/item', headers: { 'x-api-key': 'k1', authorization: basic } },
    ],
  });
  const reloads = new Map<string, number>();
  let next = 1;
  const reloading = setInterval(async () => {
    writeFileSync(join(dir, 'gateway.yaml'), file(next++ % CONFIGS.length));
    const status = await fetch(`http://127.0.0.1:${adminPort}/reload`, { method: 'POST' }).then((r) => String(r.status), (e: Error) => e.message);
    reloads.set(status, (reloads.get(status) ?? 0) + 1);
  }, RELOAD_EVERY_MS);
  const result = await load;
  clearInterval(reloading);

  const statuses = Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats?.count ?? 0] as const);
  const unexpected = statuses.filter(([code]) => !BY_DESIGN.has(code));
  const failures = unexpected.reduce((n, [, count]) => n + count, 0) + result.errors + result.timeouts + (result.resets ?? 0);
  console.log(`gateway workers ${WORKERS}, ${result.connections} connections, ${SECONDS} s, a reload every ${RELOAD_EVERY_MS} ms`);
  console.log(`reloads: ${[...reloads].map(([status, n]) => `${n} x ${status}`).join(', ')}`);
  console.log(`requests: ${result.requests.total} (${Math.round(result.requests.average)} req/s), p99 ${result.latency.p99} ms`);
  console.log(`answers:  ${statuses.map(([code, count]) => `${code} x ${count}`).join(', ')}`);
  console.log(`rejected by design (401, 404, 429): ${statuses.filter(([code]) => code !== '200' && BY_DESIGN.has(code)).reduce((n, [, c]) => n + c, 0)}`);
  console.log(`failed: ${failures} (other statuses ${unexpected.map(([c, n]) => `${c} x ${n}`).join(', ') || 'none'}, errors ${result.errors}, timeouts ${result.timeouts}, resets ${result.resets ?? 0})`);
  const badReloads = [...reloads].filter(([status]) => status !== '200');
  process.exitCode = failures === 0 && badReloads.length === 0 && reloads.size > 0 ? 0 : 1;
} finally {
  await stop();
}
