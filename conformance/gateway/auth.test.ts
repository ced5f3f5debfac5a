// Admin API authentication (document 001, "Authentication"): bearer token only, 401 without the right one
// and nothing changed, open without a configured token. Cases that only make refused calls share one gateway
// (each on a route, client addresses and cached URL of its own); cases whose authorised calls change the
// gateway start their own.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { type AdminCall, ENDPOINTS, type Endpoint, is2xx, jsonObject, listing, needOk, routeTargets, shown } from './admin-client.ts';
import { allCalls, type CallSubjects, callOf } from './calls.ts';
import { check, type CaseContext, type HttpResponse } from '../harness/index.ts';
import { clientAddress, type Gateway, sharedGateway, startGateway } from './gateway.ts';
import type { GatewaySetup, SiteSetup } from './setup.ts';
import { GATEWAY, offers } from './target.ts';
import { fared, freshPath, send } from './traffic.ts';
import { sharedUpstreams, spareUrl, type Upstream } from './upstream.ts';

/** Routes of the shared gateway: one per case whose refused calls name it, and `/d`, never changed, for
 * the data-plane requests that show denies and cached entries. */
const ROUTES = ['/m', '/w', '/b', '/d'] as const;
const DATA = '/d';
const CACHEABLE = { 'cache-control': 'public, max-age=300' };

function siteOf(ups: Upstream[]): SiteSetup {
  return {
    routes: ROUTES.map((path, i) => ({ path, targets: [ups[i]!.url] })),
    ...(offers('cache') ? { cache: { ttlMs: 300_000, maxEntries: 1000 } } : {}),
  };
}

async function authGateway(c: CaseContext): Promise<{ g: Gateway; ups: Upstream[] }> {
  const ups = await sharedUpstreams('auth', ...ROUTES.map((r) => r.slice(1)));
  for (const up of ups) up.answer = () => ({ headers: CACHEABLE });
  const g = await sharedGateway(c, 'auth', () => ({ sites: [siteOf(ups)] }));
  return { g, ups };
}

const subjects = (g: Gateway, route: string, existing: string): CallSubjects => ({
  route,
  existing,
  extra: spareUrl(),
  denyAdd: clientAddress(),
  denyDelete: clientAddress(),
  purgeUrl: `http://127.0.0.1:${g.rendered.sitePorts[0]}${route}/cached`,
});

/** A cached entry under `route` (the upstream saw the first GET only), for "purge had no effect". */
async function primeCache(c: CaseContext, g: Gateway, up: Upstream, route: string): Promise<string> {
  const path = freshPath(route);
  await c.need(`GET ${path}`, g.http.get(path));
  await c.need(`GET ${path} again`, g.http.get(path));
  const seen = up.got(path).length;
  if (seen !== 1) c.inconclusive(`the cache did not serve a repeated GET of ${path} (the upstream saw it ${seen} times): purge's effect cannot be judged`);
  return path;
}

/** What a refused call must have left as it was: the route's targets, denies, a cached entry, the server. */
interface Witness {
  targets: [string, number][];
  allowed: string;
  denied: string;
  cached: string | undefined;
}

const sortedTargets = (m: Map<string, number> | undefined): [string, number][] => [...(m ?? new Map<string, number>())].sort(([a], [b]) => a.localeCompare(b));

/** Sets up what refused calls must leave alone: an override on the route (a reload would drop it), a denied
 * address (a delete would lift it), an allowed one (an add would deny it), a cached entry. */
async function witness(c: CaseContext, g: Gateway, up: Upstream, route: string, s: CallSubjects): Promise<Witness> {
  // `up` serves DATA; the override goes on the case's own `route`.
  await needOk(c, `POST /upstreams/add (with the token) of an override on ${route}`, g.admin.post('/upstreams/add', { route, target: spareUrl() }));
  await needOk(c, `POST /ip-deny (with the token) of ${s.denyDelete}`, g.admin.post('/ip-deny', { cidr: s.denyDelete }));
  c.defer(async () => {
    await g.admin.delete('/ip-deny', { cidr: s.denyDelete }).catch(() => undefined);
  });
  const denied = await c.need(`a request from ${s.denyDelete}`, send(g.from(s.denyDelete), DATA, [up]));
  if (denied.reached) c.inconclusive(`POST /ip-deny of ${s.denyDelete} (with the token) did not deny it: ${fared(denied)}`);
  const allowed = await c.need(`a request from ${s.denyAdd}`, send(g.from(s.denyAdd), DATA, [up]));
  if (!allowed.reached) c.inconclusive(`a request from ${s.denyAdd} did not reach the upstream: ${fared(allowed)}`);
  const cached = offers('cache') ? await primeCache(c, g, up, DATA) : undefined;
  const targets = sortedTargets(routeTargets(await listing(c, g.admin), route));
  if (targets.length === 0) c.inconclusive(`GET /upstreams lists no targets for ${route}`);
  return { targets, allowed: s.denyAdd, denied: s.denyDelete, cached };
}

/** Checks (node:assert, for properties) that `endpoint`'s refused call changed nothing it could change. */
async function assertUnchanged(c: CaseContext, g: Gateway, up: Upstream, route: string, w: Witness, e: Endpoint): Promise<void> {
  const name = e.name;
  if (['upstreams-add', 'upstreams-remove', 'upstreams-weight', 'reload'].includes(name)) {
    const now = sortedTargets(routeTargets(await listing(c, g.admin, 'GET /upstreams (with the token)'), route));
    assert.deepEqual(now, w.targets, `${name} refused, yet the targets of ${route} changed`);
  } else if (name === 'ip-deny-add') {
    const s = await send(g.from(w.allowed), DATA, [up]);
    assert.ok(s.reached, `ip-deny refused, yet ${w.allowed} is now denied: ${fared(s)}`);
  } else if (name === 'ip-deny-delete') {
    const s = await send(g.from(w.denied), DATA, [up]);
    assert.ok(!s.reached, `ip-deny delete refused, yet ${w.denied} is no longer denied: ${fared(s)}`);
  } else if (name === 'cache-purge' && w.cached) {
    const before = up.got(w.cached).length;
    await g.http.get(w.cached);
    assert.equal(up.got(w.cached).length, before, `purge refused, yet ${w.cached} was fetched from the upstream again`);
  } else if (name === 'shutdown') {
    const res = await g.admin.get('/status');
    assert.ok(is2xx(res), `shutdown refused, yet GET /status (with the token) answers ${shown(res)}`);
  }
}

const withPurgeOf = (s: CallSubjects, w: Witness, g: Gateway): CallSubjects =>
  w.cached ? { ...s, purgeUrl: `http://127.0.0.1:${g.rendered.sitePorts[0]}${w.cached}` } : s;

check('gateway/auth/missing-token-401/every-endpoint-refused-unchanged', GATEWAY, async (t, c) => {
  const { g, ups } = await authGateway(c);
  const up = ups[3]!;
  const s0 = subjects(g, '/m', ups[0]!.url);
  const w = await witness(c, g, up, '/m', s0);
  const s = withPurgeOf(s0, w, g);
  for (const { endpoint, call } of allCalls(s)) {
    const res = await g.admin.call({ ...call, token: null });
    t.is(res.status, 401, `${call.method} ${call.path} without Authorization: ${shown(res)}`);
    await assertUnchanged(c, g, up, '/m', w, endpoint).then(
      () => t.pass(),
      (err: Error) => t.fail(err.message),
    );
  }
});

/** Near misses of the right token: each is sent to every endpoint in every run. */
const nearMisses = (right: string): string[] =>
  [right.toUpperCase(), `${right}x`, right.slice(0, -1), ` ${right}x`, right.slice(1), 'null', 'undefined', '*'].filter((tok) => tok.trim() !== right);

/** Arbitrary header-safe tokens other than the right one. */
const otherTokens = (right: string): fc.Arbitrary<string> => fc.stringMatching(/^[A-Za-z0-9._~+/=-]{1,48}$/).filter((tok) => tok.trim() !== right);

check('gateway/auth/wrong-token-401/any-wrong-token-any-endpoint', { ...GATEWAY, timeoutMs: 90_000 }, async (t, c) => {
  const { g, ups } = await authGateway(c);
  const up = ups[3]!;
  const s0 = subjects(g, '/w', ups[1]!.url);
  const w = await witness(c, g, up, '/w', s0);
  const s = withPurgeOf(s0, w, g);
  const right = g.admin.token!;
  /** One call with `token` instead of the right one: 401, and nothing it could change changed (node:assert). */
  const refused = async (endpoint: Endpoint, token: string): Promise<void> => {
    const call = callOf(endpoint, { ...s, denyAdd: w.allowed });
    const res = await g.admin.call({ ...call, headers: { authorization: `Bearer ${token}` }, token: null });
    assert.equal(res.status, 401, `${call.method} ${call.path} with Bearer ${JSON.stringify(token)}: ${shown(res)}`);
    await assertUnchanged(c, g, up, '/w', w, endpoint);
  };
  // The matrix, whole in every run: every endpoint with every near miss (a departure for one endpoint or one
  // kind of miss is caught each time, not in some runs).
  const problems: string[] = [];
  for (const endpoint of ENDPOINTS) {
    for (const token of nearMisses(right)) {
      await refused(endpoint, token).catch((err: unknown) => {
        if (!(err instanceof assert.AssertionError)) throw err;
        problems.push(err.message);
      });
    }
  }
  t.deepEqual(problems, [], `${problems.length} of ${ENDPOINTS.length * nearMisses(right).length} calls with a near miss of the token`);
  // Then arbitrary tokens, each on every endpoint.
  await c.property(
    otherTokens(right),
    async (token) => {
      for (const endpoint of ENDPOINTS) await refused(endpoint, token);
    },
    { numRuns: 5 },
  );
});

/** A JWT (HS256, signed with the token) whose claims carry the token. */
function jwtCarrying(token: string): string {
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const head = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'admin', token, exp: Math.floor(Date.now() / 1000) + 3600 })}`;
  return `${head}.${createHmac('sha256', token).update(head).digest('base64url')}`;
}

check('gateway/auth/bearer-only/token-in-other-forms-refused', GATEWAY, async (t, c) => {
  const { g, ups } = await authGateway(c);
  const up = ups[3]!;
  const token = g.admin.token!;
  const b64 = (v: string) => Buffer.from(v).toString('base64');
  const forms: [string, Partial<AdminCall>][] = [
    ['basic user:token', { headers: { authorization: `Basic ${b64(`admin:${token}`)}` } }],
    ['basic token:', { headers: { authorization: `Basic ${b64(`${token}:`)}` } }],
    ['basic token', { headers: { authorization: `Basic ${b64(token)}` } }],
    ['cookie token', { headers: { cookie: `token=${token}` } }],
    ['cookie admin_token', { headers: { cookie: `admin_token=${token}; session=${token}` } }],
    ['cookie authorization', { headers: { cookie: `Authorization=Bearer%20${token}` } }],
    ['jwt carrying the token', { headers: { authorization: `Bearer ${jwtCarrying(token)}` } }],
    ['x-api-key', { headers: { 'x-api-key': token } }],
    ['token without scheme', { headers: { authorization: token } }],
  ];
  for (const [form, extra] of forms) {
    const status = await g.admin.call({ method: 'GET', path: '/status', token: null, ...extra });
    t.is(status.status, 401, `GET /status with the token as ${form}: ${shown(status)}`);
    const addr = clientAddress();
    const deny = await g.admin.call({ method: 'POST', path: '/ip-deny', body: { cidr: addr }, token: null, ...extra });
    t.is(deny.status, 401, `POST /ip-deny with the token as ${form}: ${shown(deny)}`);
    const s = await send(g.from(addr), DATA, [up]);
    t.true(s.reached, `POST /ip-deny with the token as ${form} took effect: ${fared(s)}`);
  }
  const query = await g.admin.call({ method: 'GET', path: `/status?token=${token}&access_token=${token}`, token: null });
  t.is(query.status, 401, `GET /status with the token in the query: ${shown(query)}`);
});

check('gateway/errors/unauthorized-401/absent-or-incorrect-token', GATEWAY, async (t, c) => {
  const { g } = await authGateway(c);
  const absent = await g.admin.get('/upstreams', { token: null });
  const wrong = await g.admin.get('/upstreams', { token: `${g.admin.token}-wrong` });
  t.is(absent.status, 401, `without a token: ${shown(absent)}`);
  t.is(wrong.status, 401, `with a wrong token: ${shown(wrong)}`);
});

/** A gateway of the case's own (its authorised calls change it), with two targets on /o. */
async function ownGateway(c: CaseContext, token: string | null | undefined): Promise<{ g: Gateway; s: CallSubjects }> {
  const ups = await sharedUpstreams('own', 'o1', 'o2');
  const setup: GatewaySetup = { sites: [{ routes: [{ path: '/o', targets: ups.map((u) => u.url) }] }], admin: { token } };
  const g = await startGateway(c, setup);
  return { g, s: subjects(g, '/o', ups[0]!.url) };
}

check('gateway/auth/token-required-on-every-request/each-endpoint-needs-bearer', GATEWAY, async (t, c) => {
  const { g, s } = await ownGateway(c, undefined);
  const calls = allCalls(s);
  for (const { call } of calls) {
    const res = await g.admin.call({ ...call, token: null });
    t.is(res.status, 401, `${call.method} ${call.path} without Authorization: ${shown(res)}`);
  }
  for (const { call } of calls) {
    const res = await g.admin.call(call);
    t.not(res.status, 401, `${call.method} ${call.path} with Authorization: Bearer <token>: ${shown(res)}`);
  }
});

check('gateway/auth/no-token-open/requests-accepted-without-authorization', GATEWAY, async (t, c) => {
  const { g, s } = await ownGateway(c, null);
  /** Valid calls whose success the document gives (purge needs the cache feature, certs a TLS site). */
  const succeeding = new Set(['status', 'reload', 'upstreams', 'upstreams-add', 'upstreams-weight', 'upstreams-remove', 'rate-limits', 'ip-deny-add', 'ip-deny-delete', 'shutdown']);
  for (const { endpoint, call } of allCalls(s)) {
    const res: HttpResponse = await g.admin.call({ ...call, token: null });
    if (succeeding.has(endpoint.name)) t.true(is2xx(res), `${call.method} ${call.path} without Authorization: want a success, got ${shown(res)}`);
    else t.not(res.status, 401, `${call.method} ${call.path} without Authorization: ${shown(res)}`);
  }
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('gateway/auth/header-parsing/scheme-any-case-and-spaces', GATEWAY, async (t, c) => {
  const { g } = await authGateway(c);
  const token = g.admin.token!;
  for (const value of [`bearer ${token}`, `BEARER ${token}`, `Bearer   ${token}`]) {
    const res = await g.admin.call({ method: 'GET', path: '/status', token: null, headers: { authorization: value } });
    t.true(is2xx(res), `Authorization: ${value.replace(token, '<token>')}: ${shown(res)}`);
  }
});

check('gateway/auth/before-routing/unknown-path-and-wrong-method-401', GATEWAY, async (t, c) => {
  const { g } = await authGateway(c);
  const unknown = await g.admin.get('/no-such-endpoint', { token: null });
  const method = await g.admin.get('/reload', { token: null });
  t.is(unknown.status, 401, `GET /no-such-endpoint without a token: ${shown(unknown)}`);
  t.is(method.status, 401, `GET /reload without a token: ${shown(method)}`);
});

check('gateway/errors/unauthorized-body/reference-body-and-challenge', GATEWAY, async (t, c) => {
  const { g } = await authGateway(c);
  const absent = await g.admin.get('/status', { token: null });
  const wrong = await g.admin.get('/status', { token: 'wrong' });
  for (const [what, res] of [['without a token', absent], ['with a wrong token', wrong]] as const) {
    t.is(res.status, 401, what);
    t.deepEqual(jsonObject(res), { status: 'error', message: 'unauthorized' }, `${what}: ${res.text}`);
    t.regex(String(res.headers['content-type']), /^application\/json/, what);
    t.regex(String(res.headers['www-authenticate']), /^Bearer\b/, what);
  }
});
