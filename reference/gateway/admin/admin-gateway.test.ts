// The admin server over the real gateway (createGateway, upstreams on loopback): what each runtime refusal
// becomes over HTTP, and admin calls whose effect shows on the data plane. Serial: one gateway, shared state.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { coldChange } from '../config/cold-change.ts';
import { loadConfig } from '../config/load-config.ts';
import { createGateway, type Gateway } from '../runtime/create-gateway.ts';
import { ask, deadUrl, startUpstream, type TestUpstream } from '../runtime/test-support.ts';
import { createAdminServer } from './admin-server.ts';
import { call, callJson } from './test-admin.ts';

const dir = mkdtempSync(join(tmpdir(), 'gateway-admin-test-'));
const file = join(dir, 'gateway.yaml');
let upstreamA: TestUpstream;
let upstreamB: TestUpstream;
let gateway: Gateway;
let port: number;
let adminPort: number;
let closeAdmin: () => Promise<void>;

const yaml = (sitePort: number, extra = '') => `sites:
  - port: ${sitePort}
    routes:
      - path: /api
        strategy: weighted-round-robin
        targets:
          - url: "${upstreamA.url}"
${extra}`;

test.before(async () => {
  upstreamA = await startUpstream('A');
  upstreamB = await startUpstream('B');
  writeFileSync(file, yaml(Number(new URL(await deadUrl()).port)));
  gateway = await createGateway(loadConfig(file, {}), { loadConfig: (path) => loadConfig(path, {}), coldChange, log: () => {} });
  port = gateway.ports()[0]!;
  const admin = createAdminServer(gateway, { host: '127.0.0.1', port: 0, token: undefined, onShutdown: () => {} });
  adminPort = (await admin.listen()).port;
  closeAdmin = () => admin.close();
});

test.after.always(async () => {
  await closeAdmin?.();
  await gateway?.shutdown();
  await Promise.all([upstreamA?.close(), upstreamB?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const targets = async () =>
  ((await call(adminPort, 'GET', '/upstreams')).json as { routes: { targets: { url: string; weight: number }[] }[] }).routes[0]!.targets.map(
    (target) => `${new URL(target.url).origin} ${target.weight}`,
  );

test.serial('upstream changes: add shows in the listing and in traffic; unknown route 404; absent target removed false', async (t) => {
  const add = await callJson(adminPort, 'POST', '/upstreams/add', { route: '/api', target: upstreamB.url, weight: 2 });
  t.is(add.status, 200);
  t.deepEqual(await targets(), [`${upstreamA.url} 1`, `${upstreamB.url} 2`]);
  const bodies = new Set<string>();
  for (let i = 0; i < 6; i++) bodies.add((await ask(port, '/api/x')).body);
  t.deepEqual([...bodies].sort(), ['A', 'B']);

  const unknown = await callJson(adminPort, 'POST', '/upstreams/add', { route: '/nope', target: upstreamB.url });
  t.is(unknown.status, 404);
  t.regex((unknown.json as { message: string }).message, /\/nope/);
  const weightUnknown = await callJson(adminPort, 'POST', '/upstreams/weight', { route: '/api', target: 'http://127.0.0.1:1', weight: 3 });
  t.is(weightUnknown.status, 404);
  const unknownSite = await callJson(adminPort, 'POST', '/upstreams/remove', { route: '/api', target: upstreamB.url, site: 'nowhere.test:1' });
  t.is(unknownSite.status, 404);
  const removed = await callJson(adminPort, 'POST', '/upstreams/remove', { route: '/api', target: upstreamB.url });
  t.deepEqual(removed.json, { status: 'ok', removed: true, site: '*', route: '/api', target: upstreamB.url });
  const again = await callJson(adminPort, 'POST', '/upstreams/remove', { route: '/api', target: upstreamB.url });
  t.is((again.json as { removed: boolean }).removed, false);
});

test.serial('ip-deny: a denied source gets 403 until the deny is lifted; invalid CIDRs 400 on both methods', async (t) => {
  t.is((await ask(port, '/api/x', { localAddress: '127.0.0.2' })).body, 'A');
  const add = await callJson(adminPort, 'POST', '/ip-deny', { cidr: '127.0.0.2' });
  t.deepEqual(add.json, { status: 'ok', action: 'added', cidr: '127.0.0.2' });
  t.is((await ask(port, '/api/x', { localAddress: '127.0.0.2' })).status, 403);
  t.is((await ask(port, '/api/x')).status, 200);
  const removed = await callJson(adminPort, 'DELETE', '/ip-deny', { cidr: '127.0.0.2/32' });
  t.deepEqual(removed.json, { status: 'ok', action: 'removed', cidr: '127.0.0.2/32' });
  t.is((await ask(port, '/api/x', { localAddress: '127.0.0.2' })).status, 200);
  for (const method of ['POST', 'DELETE']) {
    for (const cidr of ['10.0.0.0/33', 'not-an-ip', '::g']) {
      const res = await callJson(adminPort, method, '/ip-deny', { cidr });
      t.is(res.status, 400, `${method} ${cidr}`);
      t.is((res.json as { status: string }).status, 'error');
    }
  }
});

test.serial('cache purge without the cache feature is 501; rate-limits without rules is {}; certs without a TLS site 400', async (t) => {
  const purge = await call(adminPort, 'DELETE', `/cache/purge?url=${encodeURIComponent(`http://127.0.0.1:${port}/api/x`)}`);
  t.is(purge.status, 501);
  t.is((purge.json as { status: string }).status, 'error');
  t.deepEqual((await call(adminPort, 'GET', '/rate-limits')).json, {});
  const certs = await callJson(adminPort, 'POST', '/certs/reload', { cert: 'x', key: 'y' });
  t.is(certs.status, 400);
  t.is((certs.json as { status: string }).status, 'error');
});

test.serial('GET /status while admin calls run counts no inflight request', async (t) => {
  const statuses = await Promise.all(Array.from({ length: 5 }, () => call(adminPort, 'GET', '/status')));
  t.deepEqual(
    statuses.map((res) => (res.json as { inflight: number }).inflight),
    [0, 0, 0, 0, 0],
  );
});

test.serial('reload: runtime changes reset; an invalid file and a cold change are 400 naming the field, nothing applied', async (t) => {
  t.is((await callJson(adminPort, 'POST', '/upstreams/add', { route: '/api', target: upstreamB.url })).status, 200);
  const ok = await call(adminPort, 'POST', '/reload');
  t.deepEqual(ok.json, { status: 'ok', message: 'configuration reloaded' });
  t.deepEqual(await targets(), [`${upstreamA.url} 1`]);

  t.is((await callJson(adminPort, 'POST', '/upstreams/add', { route: '/api', target: upstreamB.url })).status, 200);
  writeFileSync(file, yaml(port, '        frob: 1\n'));
  const invalid = await call(adminPort, 'POST', '/reload');
  t.is(invalid.status, 400);
  t.regex((invalid.json as { message: string }).message, /frob/);
  writeFileSync(file, yaml(port + 1));
  const cold = await call(adminPort, 'POST', '/reload');
  t.is(cold.status, 400);
  t.regex((cold.json as { message: string }).message, /port.*restart/);
  t.deepEqual(await targets(), [`${upstreamA.url} 1`, `${upstreamB.url} 1`]);
});
