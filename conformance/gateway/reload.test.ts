// POST /reload (document 001, behaviour rule 1 and "Errors"): the file re-read and applied, runtime upstream
// changes and rate-limit counters reset, runtime denies kept, invalid and cold changes refused. Every case
// reloads, so each starts a gateway of its own.
import assert from 'node:assert/strict';
import type { ExecutionContext } from 'ava';
import { rmSync } from 'node:fs';
import fc from 'fast-check';
import { type CaseContext, check, freePorts, releasePorts } from '../harness/index.ts';
import { errorBody, is2xx, jsonObject, listing, needOk, shown, successBody, type UpstreamsListing } from './admin-client.ts';
import { clientAddress, type Gateway, sharedGateway, startGateway } from './gateway.ts';
import { FIRST, SECOND, servedFingerprint, tlsFiles } from './tls.ts';
import { type GatewaySetup, randomToken, type SiteSetup } from './setup.ts';
import { GATEWAY, needs } from './target.ts';
import { fared, send } from './traffic.ts';
import { sharedUpstreams, spareUrl, startUpstreams, type Upstream } from './upstream.ts';

/** Every route's targets as sorted [url, weight], per site label. */
function targetsByRoute(l: UpstreamsListing): Record<string, [string, number][]> {
  const out: Record<string, [string, number][]> = {};
  for (const r of l.routes) {
    out[`${r.site} ${r.path}`] = (r.targets ?? []).map((x): [string, number] => [new URL(x.url).href, x.weight]).sort(([a], [b]) => a.localeCompare(b));
  }
  return out;
}

const oneRoute = (ups: Upstream[], extra: Partial<SiteSetup> = {}): GatewaySetup => ({
  sites: [{ routes: [{ path: '/x', strategy: 'weighted-round-robin', targets: ups.map((u, i) => ({ url: u.url, weight: i + 1 })) }], ...extra }],
});

/** A gateway of the file whose config never changes: reloading it applies nothing new (cases that only
 * reload it, or keep a deny of their own across the reload). */
async function plainGateway(c: CaseContext): Promise<{ g: Gateway; up: Upstream }> {
  const [a] = await sharedUpstreams('reload', 'a');
  return { g: await sharedGateway(c, 'reload', () => oneRoute([a!])), up: a! };
}

check('gateway/reload/rereads-validates-applies/route-change-applied', GATEWAY, async (t, c) => {
  const [a, b] = await startUpstreams(c, 'a', 'b');
  const setup: GatewaySetup = { sites: [{ routes: [{ path: '/x', targets: [a!.url] }] }] };
  const g = await startGateway(c, setup);
  const before = await c.need('a request to /x', send(g.http, '/x', [a!, b!]));
  if (before.by.join() !== 'a') c.inconclusive(`before the reload /x did not go to a: ${fared(before)}`);
  await g.rewrite({ sites: [{ routes: [{ path: '/x', targets: [b!.url] }] }] });
  successBody(t, await g.admin.post('/reload'), 'POST /reload');
  const after = await send(g.http, '/x', [a!, b!]);
  t.deepEqual(after.by, ['b'], `after reloading /x -> b: ${fared(after)}`);
});

check('gateway/reload/success-body/status-ok-and-message', GATEWAY, async (t, c) => {
  const { g } = await plainGateway(c);
  const body = successBody(t, await g.admin.post('/reload'), 'POST /reload');
  t.is(body?.status, 'ok', JSON.stringify(body));
  t.is(typeof body?.message, 'string', JSON.stringify(body));
});

check('gateway/reload/warnings-field/array-of-strings-if-present', GATEWAY, async (t, c) => {
  const [a] = await startUpstreams(c, 'a');
  // Sections a gateway may well not have compiled in (the reference builds all but tls.acme).
  const g = await startGateway(c, oneRoute([a!], { compression: {}, http2: false, tls: { acme: {} } as never }));
  const body = successBody(t, await g.admin.post('/reload'), 'POST /reload');
  if (body && 'warnings' in body) {
    t.true(Array.isArray(body.warnings) && (body.warnings as unknown[]).every((w) => typeof w === 'string'), `warnings: ${JSON.stringify(body.warnings)}`);
  }
});

/** A runtime change through the admin API, for the property. */
type Op = { kind: 'add'; target: number; weight: number } | { kind: 'remove'; target: number } | { kind: 'weight'; target: number; weight: number };

check('gateway/reload/resets-upstream-overrides/any-changes-then-reload-restores-file', { ...GATEWAY, timeoutMs: 90_000 }, async (t, c) => {
  const ups = await startUpstreams(c, 'a', 'b', 'c');
  const g = await startGateway(c, oneRoute(ups));
  const file = targetsByRoute(await listing(c, g.admin, 'GET /upstreams at start'));
  // Targets the operations name: the configured ones and two the file does not have.
  const urls = [...ups.map((u) => u.url), spareUrl(), spareUrl()];
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant('add' as const), target: fc.integer({ min: 0, max: urls.length - 1 }), weight: fc.integer({ min: 1, max: 9 }) }),
    fc.record({ kind: fc.constant('remove' as const), target: fc.integer({ min: 0, max: urls.length - 1 }) }),
    fc.record({ kind: fc.constant('weight' as const), target: fc.integer({ min: 0, max: urls.length - 1 }), weight: fc.integer({ min: 1, max: 9 }) }),
  );
  /** The calls of `ops`, whatever each answers (a target added twice, a weight for a target removed before…),
   * then a reload: it must bring back the file's targets (node:assert). */
  const changesThenReload = async (ops: Op[]): Promise<void> => {
    for (const o of ops) {
      const body = { route: '/x', target: urls[o.target], ...('weight' in o ? { weight: o.weight } : {}) };
      await g.admin.post(`/upstreams/${o.kind}`, body);
    }
    const reload = await g.admin.post('/reload');
    assert.ok(is2xx(reload), `POST /reload: ${shown(reload)}`);
    const res = await g.admin.get('/upstreams');
    const body = jsonObject(res) as unknown as UpstreamsListing;
    assert.deepEqual(targetsByRoute(body), file, `after ${JSON.stringify(ops)} and a reload`);
  };
  // Every kind of change on a configured target and on one the file lacks, in every run.
  const every: Op[] = [
    { kind: 'add', target: 3, weight: 4 },
    { kind: 'add', target: 0, weight: 7 },
    { kind: 'weight', target: 1, weight: 9 },
    { kind: 'weight', target: 3, weight: 2 },
    { kind: 'remove', target: 2 },
    { kind: 'remove', target: 3 },
  ];
  await changesThenReload(every).then(
    () => t.pass(),
    (err: unknown) => {
      if (!(err instanceof assert.AssertionError)) throw err;
      t.fail(err.message);
    },
  );
  await c.property(fc.array(op, { minLength: 1, maxLength: 6 }), changesThenReload, { numRuns: 15 });
});

check('gateway/reload/clears-rate-limit-counters/all-zero', needs('rate-limit'), async (t, c) => {
  const [a] = await startUpstreams(c, 'a');
  const g = await startGateway(c, oneRoute([a!], { rateLimit: { requests: 100, windowMs: 60_000, routes: { '/x': { requests: 2, windowMs: 60_000 } } } }));
  for (let i = 0; i < 4; i++) await c.need('a request to /x', send(g.http, '/x', [a!]));
  const before = await needOk(c, 'GET /rate-limits', g.admin.get('/rate-limits'));
  if (!JSON.stringify(before).match(/"(passed|rejected)":[1-9]/)) c.inconclusive(`four requests left no counter above zero: ${JSON.stringify(before)}`);
  successBody(t, await g.admin.post('/reload'), 'POST /reload');
  const after = await needOk(c, 'GET /rate-limits after the reload', g.admin.get('/rate-limits'));
  const counters = Object.values(after).flatMap((site) => Object.values(site as Record<string, { passed: unknown; rejected: unknown }>));
  t.true(
    counters.every((b) => b.passed === 0 && b.rejected === 0),
    `after the reload: ${JSON.stringify(after)}`,
  );
});

check('gateway/reload/keeps-runtime-ip-denies/denied-after-reload', GATEWAY, async (t, c) => {
  const { g, up: a } = await plainGateway(c);
  const addr = clientAddress();
  await needOk(c, `POST /ip-deny ${addr}`, g.admin.post('/ip-deny', { cidr: addr }));
  const denied = await c.need(`a request from ${addr}`, send(g.from(addr), '/x', [a]));
  if (denied.reached) c.inconclusive(`the deny of ${addr} did not take effect: ${fared(denied)}`);
  successBody(t, await g.admin.post('/reload'), 'POST /reload');
  const after = await send(g.from(addr), '/x', [a]);
  t.false(after.reached, `after the reload: ${fared(after)}`);
});

check('gateway/errors/reload-invalid-config-400/names-field', needs('tls'), async (t, c) => {
  const [a] = await startUpstreams(c, 'a');
  const tls = { cert: 'cert.pem', key: 'key.pem' };
  const g = await startGateway(c, { sites: [{ tls, routes: [{ path: '/x', targets: [a!.url] }] }] }, { files: tlsFiles() });
  await g.rewrite({ sites: [{ tls: { ...tls, ciphers: 'ECDHE-RSA-AES128-GCM-SHA256' }, routes: [{ path: '/x', targets: [a!.url] }] }] });
  const res = await g.admin.post('/reload');
  if (!errorBody(t, res, 400, 'POST /reload of a config with tls.ciphers')) return;
  t.regex(String(jsonObject(res)?.message), /ciphers/, 'the message names the field');
});

check('gateway/errors/reload-cold-change-400/names-field-and-restart', GATEWAY, async (t, c) => {
  const [a] = await startUpstreams(c, 'a');
  const [other] = await freePorts(1);
  c.defer(() => releasePorts([other!]));
  const g = await startGateway(c, oneRoute([a!]));
  await g.rewrite({ sites: [{ port: other, routes: [{ path: '/x', targets: [{ url: a!.url, weight: 1 }] }] }] });
  const res = await g.admin.post('/reload');
  if (!errorBody(t, res, 400, 'POST /reload with the site port changed')) return;
  const message = String(jsonObject(res)?.message);
  t.regex(message, /port/, 'the message names the field');
  t.regex(message, /restart/i, 'the message says a restart is needed');
});

/** Writes `next` (`field` changed) and reloads: 400 with a message naming the field (`named`) and a restart. */
async function coldReloadRefused(t: ExecutionContext, g: Gateway, field: string, named: RegExp, next: GatewaySetup): Promise<void> {
  await g.rewrite(next);
  const res = await g.admin.post('/reload');
  if (!errorBody(t, res, 400, `POST /reload with ${field} changed`)) return;
  const message = String(jsonObject(res)?.message);
  t.regex(message, named, `the message names ${field}`);
  t.regex(message, /restart/i, `${field}: the message says a restart is needed`);
}

check('gateway/errors/reload-cold-change-400/each-cold-field-named-old-kept', GATEWAY, async (t, c) => {
  const [a] = await startUpstreams(c, 'a');
  const setup = oneRoute([a!]);
  const g = await startGateway(c, setup);
  const [otherAdmin] = await freePorts(1);
  c.defer(() => releasePorts([otherAdmin!]));
  const changes: [string, RegExp, GatewaySetup][] = [
    ['workers', /workers/, { ...setup, top: { workers: 2 } }],
    ['backlog', /backlog/, { ...setup, top: { backlog: 64 } }],
    ['global.admin.bind', /bind/, { ...setup, admin: false, global: { admin: { bind: `127.0.0.1:${otherAdmin}`, token: g.admin.token } } }],
  ];
  for (const [field, named, next] of changes) await coldReloadRefused(t, g, field, named, next);
  await g.rewrite(setup);
  t.true((await send(g.http, '/x', [a!])).reached, 'the gateway still serves as before');
});

check('gateway/errors/reload-cold-change-400/tls-cert-and-key-named-old-served', needs('tls'), async (t, c) => {
  const [a] = await startUpstreams(c, 'a');
  const site = (cert: string, key: string): GatewaySetup => ({ sites: [{ tls: { cert, key }, routes: [{ path: '/x', targets: [a!.url] }] }] });
  const g = await startGateway(c, site('cert.pem', 'key.pem'), { files: { ...tlsFiles(FIRST), 'cert2.pem': SECOND.cert, 'key2.pem': SECOND.key } });
  for (const [field, named, next] of [
    ['tls.cert', /cert/, site('cert2.pem', 'key.pem')],
    ['tls.key', /key/, site('cert.pem', 'key2.pem')],
  ] as const) {
    await coldReloadRefused(t, g, field, named, next);
  }
  t.is(await servedFingerprint(g.rendered.sitePorts[0]!), FIRST.fingerprint, 'the certificate the gateway started with is still served');
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('gateway/reload/failure-changes-nothing/old-config-and-overrides-kept', GATEWAY, async (t, c) => {
  const [a, b] = await startUpstreams(c, 'a', 'b');
  const g = await startGateway(c, oneRoute([a!]));
  await needOk(c, 'POST /upstreams/add', g.admin.post('/upstreams/add', { route: '/x', target: b!.url, weight: 5 }));
  const before = targetsByRoute(await listing(c, g.admin));
  await g.rewrite({ sites: [{ routes: [{ path: '/x', strategy: 'no-such-strategy', targets: [b!.url] }] }] });
  const res = await g.admin.post('/reload');
  t.is(res.status, 400, shown(res));
  t.deepEqual(targetsByRoute(await listing(c, g.admin, 'GET /upstreams after the refused reload')), before);
});

check('gateway/reload/unreadable-file/400-naming-path', GATEWAY, async (t, c) => {
  const [a] = await startUpstreams(c, 'a');
  const g = await startGateway(c, oneRoute([a!]));
  rmSync(g.configPath);
  const res = await g.admin.post('/reload');
  t.is(res.status, 400, shown(res));
  t.true(String(jsonObject(res)?.message).includes(g.configPath), `message: ${res.text}`);
});

check('gateway/reload/warnings-absent-when-none/no-warnings-key', GATEWAY, async (t, c) => {
  const { g } = await plainGateway(c);
  const body = await needOk(c, 'POST /reload', g.admin.post('/reload'));
  t.false('warnings' in body, JSON.stringify(body));
});

check('gateway/config/admin-token-reload/reload-refused-old-token-kept', GATEWAY, async (t, c) => {
  const [a] = await startUpstreams(c, 'a');
  const setup = oneRoute([a!]);
  const g = await startGateway(c, setup);
  const next = randomToken();
  await g.rewrite({ ...setup, admin: { tokenValue: next } });
  const res = await g.admin.post('/reload');
  if (errorBody(t, res, 400, 'POST /reload with global.admin.token changed in the file')) {
    const message = String(jsonObject(res)?.message);
    t.true(message.includes('global.admin.token'), `the message names global.admin.token: ${message}`);
    t.regex(message, /restart/i, 'the message says a restart is needed');
  }
  const old = await g.admin.get('/status');
  t.true(is2xx(old), `GET /status with the token the gateway started with: ${shown(old)}`);
  const fresh = await g.admin.get('/status', { token: next });
  t.is(fresh.status, 401, `GET /status with the token now in the file: ${shown(fresh)}`);
});
