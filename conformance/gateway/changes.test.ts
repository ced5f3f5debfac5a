// Runtime upstream changes (document 001, POST /upstreams/add, /remove, /weight and behaviour rule 2): the
// fields each call requires, its answer, and its effect in GET /upstreams and on the data plane. One shared
// gateway with two sites (one.test, two.test) having the same routes; each case changes only its own route.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { check, type CaseContext, type HttpResponse } from '../harness/index.ts';
import { is2xx, jsonObject, listing, needOk, routeTargets, sameUrl, shown, successBody, type UpstreamsListing } from './admin-client.ts';
import { type Gateway, restartGateway, sharedGateway, startGateway } from './gateway.ts';
import type { RouteSetup } from './setup.ts';
import { GATEWAY } from './target.ts';
import { send } from './traffic.ts';
import { sharedUpstreams, spareUrl, startUpstreams, type Upstream } from './upstream.ts';

const HOSTS = ['one.test', 'two.test'];
/** Routes of the shared gateway, one per case, each with one configured target (its own upstream). */
const ROUTES = ['req', 'treq', 'dflt', 'all', 'resp', 'vis', 'rm', 'rmf', 'nf', 'wf', 'wr', 'dup', 'init', 'rso', 'last', 'mf', 'inv', 'unk', 'cmp'] as const;
type RouteName = (typeof ROUTES)[number];
const KEEPS_ANOTHER = new Set<RouteName>(['rm', 'rmf', 'rso', 'cmp']);

interface Changes {
  g: Gateway;
  up: Record<RouteName, Upstream>;
  /** The site labels, as the document writes them (host:port). */
  labels: string[];
}

async function changesGateway(c: CaseContext): Promise<Changes> {
  const ups = await sharedUpstreams('changes', ...ROUTES);
  const up = Object.fromEntries(ups.map((u) => [u.name, u])) as Changes['up'];
  // Routes a case removes its upstream from keep a second target (an address nothing is sent to): whether a
  // route may lose its last target is gateway/upstreams/remove-last-target, judged on /last alone.
  const routes: RouteSetup[] = ROUTES.map((name) => ({
    path: `/${name}`,
    strategy: 'round-robin',
    targets: KEEPS_ANOTHER.has(name) ? [up[name].url, spareUrl()] : [up[name].url],
  }));
  const g = await sharedGateway(c, 'changes', () => ({ sites: HOSTS.map((host) => ({ host, routes })) }));
  return { g, up, labels: HOSTS.map((host, i) => `${host}:${g.rendered.sitePorts[i]}`) };
}

/** The targets of `route` on every site: label -> sorted [url, weight] (URLs as WHATWG URLs). */
function targetsOf(l: UpstreamsListing, route: string): Record<string, [string, number][]> {
  const out: Record<string, [string, number][]> = {};
  for (const r of l.routes.filter((x) => x.path === route)) {
    out[r.site] = (r.targets ?? []).map((x): [string, number] => [new URL(x.url).href, x.weight]).sort(([a], [b]) => a.localeCompare(b));
  }
  return out;
}

const snapshot = async (c: CaseContext, g: Gateway, route: string, what = 'GET /upstreams'): Promise<Record<string, [string, number][]>> =>
  targetsOf(await listing(c, g.admin, what), route);

const weightIn = (l: UpstreamsListing, route: string, site: string, url: string): number | undefined =>
  [...(routeTargets(l, route, site) ?? new Map<string, number>())].find(([u]) => sameUrl(u, url))?.[1];

check('gateway/upstreams/add-route-required/refused-without-route', GATEWAY, async (t, c) => {
  const { g } = await changesGateway(c);
  const before = await snapshot(c, g, '/req');
  const res = await g.admin.post('/upstreams/add', { target: spareUrl() });
  t.false(is2xx(res), `add without route: ${shown(res)}`);
  t.deepEqual(await snapshot(c, g, '/req', 'GET /upstreams after'), before, 'a refused add changed the listing');
  const ok = await g.admin.post('/upstreams/add', { route: '/req', target: spareUrl() });
  t.true(is2xx(ok), `add with route "/req": ${shown(ok)}`);
});

check('gateway/upstreams/add-target-required/refused-without-target', GATEWAY, async (t, c) => {
  const { g } = await changesGateway(c);
  const before = await snapshot(c, g, '/treq');
  const res = await g.admin.post('/upstreams/add', { route: '/treq' });
  t.false(is2xx(res), `add without target: ${shown(res)}`);
  t.deepEqual(await snapshot(c, g, '/treq', 'GET /upstreams after'), before, 'a refused add changed the listing');
});

check('gateway/upstreams/add-weight-default/weight-one', GATEWAY, async (t, c) => {
  const { g, labels } = await changesGateway(c);
  const target = spareUrl();
  await needOk(c, 'POST /upstreams/add without weight', g.admin.post('/upstreams/add', { route: '/dflt', target, site: labels[0] }));
  t.is(weightIn(await listing(c, g.admin), '/dflt', labels[0]!, target), 1);
});

check('gateway/upstreams/add-site-omitted-all-sites/added-on-every-site', GATEWAY, async (t, c) => {
  const { g, labels } = await changesGateway(c);
  const target = spareUrl();
  await needOk(c, 'POST /upstreams/add without site', g.admin.post('/upstreams/add', { route: '/all', target, weight: 2 }));
  const l = await listing(c, g.admin);
  for (const label of labels) t.is(weightIn(l, '/all', label, target), 2, `on site ${label}: ${JSON.stringify(targetsOf(l, '/all'))}`);
});

check('gateway/upstreams/add-response/fields-echoed', GATEWAY, async (t, c) => {
  const { g, labels } = await changesGateway(c);
  const target = spareUrl();
  const omitted = successBody(t, await g.admin.post('/upstreams/add', { route: '/resp', target, weight: 4 }), 'add without site');
  t.like(omitted ?? {}, { site: '*', route: '/resp', weight: 4 }, JSON.stringify(omitted));
  t.true(sameUrl(omitted?.target, target), `target: ${JSON.stringify(omitted?.target)}`);
  t.true(omitted !== undefined && 'status' in omitted, `status: ${JSON.stringify(omitted)}`);
  const second = spareUrl();
  const given = successBody(t, await g.admin.post('/upstreams/add', { route: '/resp', target: second, site: labels[1] }), 'add with site');
  t.like(given ?? {}, { site: labels[1], route: '/resp', weight: 1 }, JSON.stringify(given));
  t.true(given !== undefined && 'status' in given, `status: ${JSON.stringify(given)}`);
});

check('gateway/upstreams/add-visible-in-listing/listed-and-picked', GATEWAY, async (t, c) => {
  const { g, labels } = await changesGateway(c);
  const [extra] = await startUpstreams(c, 'added');
  await needOk(c, 'POST /upstreams/add', g.admin.post('/upstreams/add', { route: '/vis', target: extra!.url, weight: 2, site: labels[0] }));
  t.is(weightIn(await listing(c, g.admin), '/vis', labels[0]!, extra!.url), 2, 'the added target with its weight');
  for (let i = 0; i < 8; i++) await c.need('a request to /vis', send(g.site(0), '/vis', [extra!], g.hostHeader(0)));
  t.true(extra!.received.length > 0, 'eight requests on a round-robin route over two targets: none reached the added one');
});

check('gateway/upstreams/remove-fields/route-and-target-required-site-optional', GATEWAY, async (t, c) => {
  const { g, up, labels } = await changesGateway(c);
  const before = await snapshot(c, g, '/rmf');
  for (const body of [{ target: up.rmf.url }, { route: '/rmf' }]) {
    const res = await g.admin.post('/upstreams/remove', body);
    t.false(is2xx(res), `remove ${JSON.stringify(body)}: ${shown(res)}`);
  }
  t.deepEqual(await snapshot(c, g, '/rmf', 'GET /upstreams after the refused removes'), before);
  const withSite = await g.admin.post('/upstreams/remove', { route: '/rmf', target: up.rmf.url, site: labels[0] });
  t.true(is2xx(withSite), `remove with site: ${shown(withSite)}`);
});

check('gateway/upstreams/remove-response/fields-and-removed', GATEWAY, async (t, c) => {
  const { g, up } = await changesGateway(c);
  const body = successBody(t, await g.admin.post('/upstreams/remove', { route: '/rm', target: up.rm.url }), 'remove');
  // The value of `site` when none was sent is stated for add only (upstreams/remove-site-omitted).
  t.like(body ?? {}, { removed: true, route: '/rm' }, JSON.stringify(body));
  t.is(typeof body?.site, 'string', JSON.stringify(body));
  t.true(sameUrl(body?.target, up.rm.url), `target: ${JSON.stringify(body?.target)}`);
  t.true(body !== undefined && 'status' in body, JSON.stringify(body));
  const l = await listing(c, g.admin, 'GET /upstreams after the remove');
  for (const [site, targets] of Object.entries(targetsOf(l, '/rm'))) t.false(targets.some(([u]) => sameUrl(u, up.rm.url)), `still listed on ${site}`);
});

check('gateway/upstreams/remove-not-found-false/absent-target', GATEWAY, async (t, c) => {
  const { g } = await changesGateway(c);
  const body = successBody(t, await g.admin.post('/upstreams/remove', { route: '/nf', target: spareUrl() }), 'remove of a target the route lacks');
  t.is(body?.removed, false, JSON.stringify(body));
});

check('gateway/upstreams/weight-fields/weight-required-integer', GATEWAY, async (t, c) => {
  const { g, up, labels } = await changesGateway(c);
  const before = await snapshot(c, g, '/wf');
  for (const body of [{ route: '/wf', target: up.wf.url }, { target: up.wf.url, weight: 2 }, { route: '/wf', weight: 2 }, { route: '/wf', target: up.wf.url, weight: 'heavy' }]) {
    const res = await g.admin.post('/upstreams/weight', body);
    t.false(is2xx(res), `weight ${JSON.stringify(body)}: ${shown(res)}`);
  }
  t.deepEqual(await snapshot(c, g, '/wf', 'GET /upstreams after the refused calls'), before);
  const ok = await g.admin.post('/upstreams/weight', { route: '/wf', target: up.wf.url, weight: 5, site: labels[1] });
  t.true(is2xx(ok), `weight with site: ${shown(ok)}`);
  t.is(weightIn(await listing(c, g.admin), '/wf', labels[1]!, up.wf.url), 5);
});

check('gateway/upstreams/weight-response/fields-and-new-weight', GATEWAY, async (t, c) => {
  const { g, up, labels } = await changesGateway(c);
  const body = successBody(t, await g.admin.post('/upstreams/weight', { route: '/wr', target: up.wr.url, weight: 6, site: labels[0] }), 'weight');
  t.like(body ?? {}, { site: labels[0], route: '/wr', weight: 6 }, JSON.stringify(body));
  t.true(sameUrl(body?.target, up.wr.url), `target: ${JSON.stringify(body?.target)}`);
  t.true(body !== undefined && 'status' in body, JSON.stringify(body));
});

// ---------------------------------------------------------------- weights and strategies (own gateway)

/** Counts which of `ups` got each of `n` requests to `route`. */
async function shares(c: CaseContext, g: Gateway, route: string, ups: Upstream[], n: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = Object.fromEntries(ups.map((u) => [u.name, 0]));
  for (let i = 0; i < n; i++) {
    const s = await c.need(`request ${i + 1} to ${route}`, send(g.http, route, ups));
    if (!s.reached) c.inconclusive(`a request to ${route} reached no upstream: ${s.res?.status} ${s.res?.text.slice(0, 200)}`);
    for (const name of s.by) counts[name]! += 1;
  }
  return counts;
}

/** The file's balancing gateway: /w (weighted-round-robin over three upstreams), /r (round-robin over two
 * others); each case changes the weights of its own route only. */
async function balanceGateway(c: CaseContext): Promise<{ g: Gateway; wrr: Upstream[]; rr: Upstream[] }> {
  const ups = await sharedUpstreams('balance', 'a', 'b', 'c', 'd', 'e');
  const [wrr, rr] = [ups.slice(0, 3), ups.slice(3)];
  const g = await sharedGateway(c, 'balance', () => ({
    sites: [
      {
        routes: [
          { path: '/w', strategy: 'weighted-round-robin', targets: wrr.map((u) => u.url) },
          { path: '/r', strategy: 'round-robin', targets: rr.map((u) => u.url) },
        ],
      },
    ],
  }));
  return { g, wrr, rr };
}

check('gateway/upstreams/weight-wrr-only/shares-follow-weights', { ...GATEWAY, timeoutMs: 90_000 }, async (t, c) => {
  const { g, wrr: ups } = await balanceGateway(c);
  await c.property(
    fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 })),
    async (weights) => {
      for (const [i, up] of ups.entries()) {
        const res = await g.admin.post('/upstreams/weight', { route: '/w', target: up.url, weight: weights[i] });
        assert.ok(is2xx(res), `weight ${weights[i]} for ${up.name}: ${shown(res)}`);
      }
      const sum = weights.reduce((a, b) => a + b, 0);
      const n = sum * 8;
      const counts = await shares(c, g, '/w', ups, n);
      for (const [i, up] of ups.entries()) {
        const want = (n * weights[i]!) / sum;
        assert.ok(Math.abs(counts[up.name]! - want) <= Math.max(1, want * 0.1), `weights ${weights.join(':')}, ${n} requests: ${JSON.stringify(counts)}`);
      }
    },
    { numRuns: 8 },
  );
  t.pass();
});

check('gateway/upstreams/weight-wrr-only/round-robin-ignores-weights', GATEWAY, async (t, c) => {
  const { g, rr: ups } = await balanceGateway(c);
  await needOk(c, 'POST /upstreams/weight', g.admin.post('/upstreams/weight', { route: '/r', target: ups[0]!.url, weight: 5 }));
  const counts = await shares(c, g, '/r', ups, 12);
  t.true(Math.abs(counts.d! - counts.e!) <= 1, `round-robin after weight 5 on d: ${JSON.stringify(counts)}`);
});

check('gateway/upstreams/runtime-in-memory-only/file-untouched-gone-after-restart', GATEWAY, async (t, c) => {
  const [a] = await startUpstreams(c, 'a');
  const g = await startGateway(c, { sites: [{ routes: [{ path: '/x', targets: [a!.url] }] }] });
  const before = readFileSync(g.configPath, 'utf8');
  const added = spareUrl();
  await needOk(c, 'POST /upstreams/add', g.admin.post('/upstreams/add', { route: '/x', target: added, weight: 3 }));
  await needOk(c, 'POST /upstreams/weight', g.admin.post('/upstreams/weight', { route: '/x', target: a!.url, weight: 9 }));
  t.is(readFileSync(g.configPath, 'utf8'), before, 'the config file changed');
  const again = await restartGateway(c, g);
  const l = await listing(c, again.admin, 'GET /upstreams after the restart');
  const targets = targetsOf(l, '/x');
  t.deepEqual(Object.values(targets), [[[new URL(a!.url).href, 1]]], `after a restart: ${JSON.stringify(targets)}`);
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

const messageOf = (res: HttpResponse): string => String(jsonObject(res)?.message);

check('gateway/upstreams/add-duplicate-target/listed-once-reweighted', GATEWAY, async (t, c) => {
  const { g, up, labels } = await changesGateway(c);
  const res = await g.admin.post('/upstreams/add', { route: '/dup', target: up.dup.url, weight: 5, site: labels[0] });
  t.is(res.status, 200, shown(res));
  const targets = targetsOf(await listing(c, g.admin), '/dup')[labels[0]!];
  t.deepEqual(targets, [[new URL(up.dup.url).href, 5]]);
});

check('gateway/upstreams/add-new-target-initial-state/healthy-null-zero', GATEWAY, async (t, c) => {
  const { g } = await changesGateway(c);
  const target = spareUrl();
  await needOk(c, 'POST /upstreams/add', g.admin.post('/upstreams/add', { route: '/init', target }));
  const e = (await listing(c, g.admin)).upstreams.find((x) => sameUrl(x.url, target));
  t.like(e ?? {}, { healthy: true, state: 'healthy', latency_ms: null, consecutive_failures: 0, consecutive_successes: 0, consecutive_5xx: 0, active_connections: 0, ejected: false });
  // The counters (last_secs of an upstream never picked is gateway/upstreams/entry-selected-never).
  const responses = (e?.responses ?? {}) as Record<string, unknown>;
  t.deepEqual({ '2xx': responses['2xx'], '4xx': responses['4xx'], '5xx': responses['5xx'] }, { '2xx': 0, '4xx': 0, '5xx': 0 }, JSON.stringify(e?.responses));
  t.is((e?.selected as Record<string, unknown> | undefined)?.total, 0, JSON.stringify(e?.selected));
});

check('gateway/upstreams/remove-site-omitted/every-site-star', GATEWAY, async (t, c) => {
  const { g, up } = await changesGateway(c);
  const body = await needOk(c, 'POST /upstreams/remove', g.admin.post('/upstreams/remove', { route: '/rso', target: up.rso.url }));
  t.is(body.site, '*');
  const left = targetsOf(await listing(c, g.admin), '/rso');
  t.is(Object.keys(left).length, 2, JSON.stringify(left));
  for (const [site, targets] of Object.entries(left)) t.false(targets.some(([u]) => sameUrl(u, up.rso.url)), `still listed on ${site}: ${JSON.stringify(left)}`);
});

check('gateway/upstreams/remove-last-target/empty-route-503', GATEWAY, async (t, c) => {
  const { g, up, labels } = await changesGateway(c);
  // The removal of the last target is the choice judged here: a refusal is a failed check, not a setup error.
  const removed = await g.admin.post('/upstreams/remove', { route: '/last', target: up.last.url, site: labels[0] });
  if (!t.true(is2xx(removed), `removing the last target of /last on ${labels[0]}: ${shown(removed)}`)) return;
  t.deepEqual(targetsOf(await listing(c, g.admin), '/last')[labels[0]!], []);
  const s = await send(g.site(0), '/last', [up.last], g.hostHeader(0));
  t.is(s.res?.status, 503);
});

check('gateway/upstreams/weight-range/1-to-1000-integers', GATEWAY, async (t, c) => {
  const { g, up } = await changesGateway(c);
  for (const weight of [0, -1, 1.5, '2', 1001]) {
    const res = await g.admin.post('/upstreams/weight', { route: '/wr', target: up.wr.url, weight });
    t.is(res.status, 400, `weight ${JSON.stringify(weight)}: ${shown(res)}`);
    t.regex(messageOf(res), /weight/);
  }
  t.is((await g.admin.post('/upstreams/weight', { route: '/wr', target: up.wr.url, weight: 1000 })).status, 200, 'weight 1000');
});

check('gateway/upstreams/missing-field-400/names-field', GATEWAY, async (t, c) => {
  const { g, up } = await changesGateway(c);
  for (const [field, path, body] of [
    ['route', '/upstreams/add', { target: spareUrl() }],
    ['target', '/upstreams/remove', { route: '/mf' }],
    ['weight', '/upstreams/weight', { route: '/mf', target: up.mf.url }],
  ] as const) {
    const res = await g.admin.post(path, body);
    t.is(res.status, 400, `${path} without ${field}: ${shown(res)}`);
    t.regex(messageOf(res), new RegExp(field));
  }
});

check('gateway/upstreams/invalid-field-400/names-field-and-reason', GATEWAY, async (t, c) => {
  const { g } = await changesGateway(c);
  for (const [field, body] of [
    ['target', { route: '/inv', target: 'not a url' }],
    ['target', { route: '/inv', target: 'ftp://127.0.0.1:21' }],
    ['route', { route: 42, target: spareUrl() }],
  ] as const) {
    const res = await g.admin.post('/upstreams/add', body);
    t.is(res.status, 400, `${JSON.stringify(body)}: ${shown(res)}`);
    t.regex(messageOf(res), new RegExp(field));
  }
});

check('gateway/upstreams/unknown-route-404/add-remove-weight', GATEWAY, async (t, c) => {
  const { g } = await changesGateway(c);
  for (const kind of ['add', 'remove', 'weight']) {
    const res = await g.admin.post(`/upstreams/${kind}`, { route: '/no-such-route', target: spareUrl(), weight: 2 });
    t.is(res.status, 404, `${kind}: ${shown(res)}`);
    t.regex(messageOf(res), /\/no-such-route/);
  }
});

check('gateway/upstreams/unknown-site-404/names-label', GATEWAY, async (t, c) => {
  const { g } = await changesGateway(c);
  const res = await g.admin.post('/upstreams/add', { route: '/unk', target: spareUrl(), site: 'nowhere.test:1' });
  t.is(res.status, 404, shown(res));
  t.regex(messageOf(res), /nowhere\.test:1/);
});

check('gateway/upstreams/weight-unknown-target-404/names-target', GATEWAY, async (t, c) => {
  const { g } = await changesGateway(c);
  const target = spareUrl();
  const res = await g.admin.post('/upstreams/weight', { route: '/unk', target, weight: 2 });
  t.is(res.status, 404, shown(res));
  t.true(messageOf(res).includes(target), messageOf(res));
});

check('gateway/upstreams/target-comparison/normalised-echoed-as-sent', GATEWAY, async (t, c) => {
  const { g, up, labels } = await changesGateway(c);
  const sent = `HTTP://127.0.0.1:${up.cmp.port}/`;
  const body = await needOk(c, 'POST /upstreams/remove', g.admin.post('/upstreams/remove', { route: '/cmp', target: sent, site: labels[0] }));
  t.is(body.removed, true, JSON.stringify(body));
  t.is(body.target, sent);
});
