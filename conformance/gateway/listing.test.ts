// GET /upstreams (document 001, "Upstream entry", "Route entry", "Upstream states"): the listing's shape,
// each field's type and meaning, read against traffic the case sends (each case through a route and
// upstream of its own on one shared gateway) and, where health checks are offered, probes of a second site.
import type { ExecutionContext } from 'ava';
import { check, type CaseContext } from '../harness/index.ts';
import { type Json, listing, needOk, sameUrl, successBody, type UpstreamsListing } from './admin-client.ts';
import { type Gateway, sharedGateway, startGateway } from './gateway.ts';
import { pollUntil, waitFor } from './poll.ts';
import { GATEWAY, needs, offers } from './target.ts';
import { freshPath } from './traffic.ts';
import { PROBE_PATH, sharedUpstreams, spareUrl, startUpstreams, type Upstream } from './upstream.ts';

/** Routes of site 0 (no health checks), one upstream each unless said. */
const ROUTES = ['wrr', 'lc', 'r5', 'h5', 'rs', 'r3', 'sel', 'last', 'slow', 'busy', 'ewma', 'idle', 'rt'] as const;
type RouteName = (typeof ROUTES)[number];
const PROBED_HOST = 'probed.test';
const STATES = ['healthy', 'busy', 'unhealthy', 'half-open', 'ejected'];
/** The longest a case holds a request at an upstream while it looks at the listing. */
const HOLD_MS = 15_000;

interface Listed {
  g: Gateway;
  up: Record<RouteName | 'wrr2' | 'p1' | 'pdown', Upstream>;
}

/** Site 0: a route per case; site 1 (host probed.test): a live and a dead upstream under health checks. */
async function listedGateway(c: CaseContext): Promise<Listed> {
  const ups = await sharedUpstreams('listing', ...ROUTES, 'wrr2', 'p1', 'pdown');
  const up = Object.fromEntries(ups.map((u) => [u.name, u])) as Listed['up'];
  up.r5.answer = (r) => ({ status: r.url.includes('/fail') ? 500 : 200 });
  up.h5.answer = () => ({ status: 500 });
  up.rs.answer = (r) => ({ status: Number(/\/s(\d{3})/.exec(r.url)?.[1] ?? 200) });
  up.r3.answer = (r) => ({ status: Number(/\/s(\d{3})/.exec(r.url)?.[1] ?? 200), headers: { location: '/elsewhere' } });
  up.ewma.answer = () => ({ delayMs: 60 });
  const g = await sharedGateway(c, 'listing', async () => {
    await up.pdown.kill();
    return {
      sites: [
        {
          routes: ROUTES.map((name) =>
            name === 'wrr'
              ? { path: '/wrr', strategy: 'weighted-round-robin', targets: [{ url: up.wrr.url, weight: 3 }, { url: up.wrr2.url }] }
              : name === 'lc'
                ? { path: '/lc', strategy: 'least-conn', targets: [up.lc.url] }
                : { path: `/${name}`, targets: [up[name].url] },
          ),
        },
        {
          host: PROBED_HOST,
          // `idle`'s URL again: one URL in two routes (of two sites).
          routes: [
            { path: '/p', targets: [up.p1.url, up.pdown.url] },
            { path: '/again', targets: [up.idle.url] },
          ],
          ...(offers('health-checks') ? { healthCheck: { path: PROBE_PATH, intervalMs: 200, timeoutMs: 2000, healthyThreshold: 1, unhealthyThreshold: 1 } } : {}),
        },
      ],
    };
  });
  return { g, up };
}

/** The upstream entry of `up` in a listing, or the case cannot judge. */
function entryOf(c: CaseContext, l: UpstreamsListing, up: Upstream): Json {
  const found = l.upstreams.find((e) => sameUrl(e.url, up.url));
  if (!found) return c.inconclusive(`GET /upstreams has no entry for ${up.url}: ${JSON.stringify(l.upstreams.map((e) => e.url))}`);
  return found;
}

const entryNow = async (c: CaseContext, g: Gateway, up: Upstream): Promise<Json> => entryOf(c, await listing(c, g.admin), up);

const isInteger = (v: unknown): boolean => Number.isInteger(v);

/** Sends `count` GETs under `prefix`, one after the other; each must be answered. */
async function traffic(c: CaseContext, g: Gateway, paths: string[]): Promise<void> {
  for (const path of paths) await c.need(`GET ${path}`, g.http.request({ path, timeoutMs: 10_000 }));
}

check('gateway/upstreams/list-shape/upstreams-and-routes-arrays', GATEWAY, async (t, c) => {
  const { g } = await listedGateway(c);
  const body = successBody(t, await g.admin.get('/upstreams'), 'GET /upstreams');
  t.true(Array.isArray(body?.upstreams), `upstreams: ${JSON.stringify(body?.upstreams)?.slice(0, 200)}`);
  t.true(Array.isArray(body?.routes), `routes: ${JSON.stringify(body?.routes)?.slice(0, 200)}`);
});

check('gateway/upstreams/entry-url/configured-urls-listed', GATEWAY, async (t, c) => {
  const { g, up } = await listedGateway(c);
  const l = await listing(c, g.admin);
  for (const e of l.upstreams) t.is(typeof e.url, 'string', JSON.stringify(e));
  for (const u of Object.values(up)) t.true(l.upstreams.some((e) => sameUrl(e.url, u.url)), `no upstream entry with url ${u.url}`);
});

check('gateway/upstreams/entry-healthy/boolean', GATEWAY, async (t, c) => {
  const { g } = await listedGateway(c);
  for (const e of (await listing(c, g.admin)).upstreams) t.is(typeof e.healthy, 'boolean', JSON.stringify(e));
});

check('gateway/upstreams/entry-healthy/failing-probes-false', needs('health-checks'), async (t, c) => {
  const { g, up } = await listedGateway(c);
  const down = await pollUntil(() => entryNow(c, g, up.pdown), (e) => e.healthy === false, 5000);
  t.true(down.met, `an upstream whose probes fail: ${JSON.stringify(down.value)}`);
  const live = await pollUntil(() => entryNow(c, g, up.p1), (e) => up.p1.probes.length > 1 && e.healthy === true, 5000);
  t.true(live.met, `an upstream passing its probes (${up.p1.probes.length} probes): ${JSON.stringify(live.value)}`);
});

check('gateway/upstreams/entry-state/one-of-the-states', GATEWAY, async (t, c) => {
  const { g } = await listedGateway(c);
  for (const e of (await listing(c, g.admin)).upstreams) t.true(STATES.includes(e.state as string), `state of ${e.url}: ${JSON.stringify(e.state)}`);
});

check('gateway/upstreams/entry-latency-ms/null-or-integer-null-before-probe', GATEWAY, async (t, c) => {
  const { g, up } = await listedGateway(c);
  const l = await listing(c, g.admin);
  for (const e of l.upstreams) t.true(e.latency_ms === null || isInteger(e.latency_ms), `latency_ms of ${e.url}: ${JSON.stringify(e.latency_ms)}`);
  // `idle` gets no traffic and its site has no health check: nothing has probed it unless it saw a request.
  const idle = entryOf(c, l, up.idle);
  if (up.idle.received.length === 0 && up.idle.probes.length === 0) t.is(idle.latency_ms, null, `an upstream never probed: ${JSON.stringify(idle)}`);
  else t.true(idle.latency_ms === null || isInteger(idle.latency_ms));
});

check('gateway/upstreams/entry-latency-ms/integer-after-probe', needs('health-checks'), async (t, c) => {
  const { g, up } = await listedGateway(c);
  const polled = await pollUntil(() => entryNow(c, g, up.p1), (e) => up.p1.probes.length > 1 && isInteger(e.latency_ms), 5000);
  t.true(polled.met, `latency_ms after ${up.p1.probes.length} probes: ${JSON.stringify(polled.value)}`);
});

check('gateway/upstreams/entry-ewma-latency-ms/number-from-traffic', GATEWAY, async (t, c) => {
  const { g, up } = await listedGateway(c);
  const before = await entryNow(c, g, up.ewma);
  t.is(typeof before.ewma_latency_ms, 'number', `ewma_latency_ms: ${JSON.stringify(before.ewma_latency_ms)}`);
  await traffic(c, g, [1, 2, 3, 4, 5].map(() => freshPath('/ewma')));
  const after = await entryNow(c, g, up.ewma);
  t.true(typeof after.ewma_latency_ms === 'number' && after.ewma_latency_ms > 0, `ewma_latency_ms after five answers taking 60 ms (no probes on this site): ${JSON.stringify(after.ewma_latency_ms)}`);
});

check('gateway/upstreams/entry-consecutive-failures/counts-failed-probes', needs('health-checks'), async (t, c) => {
  const { g, up } = await listedGateway(c);
  const down = await pollUntil(() => entryNow(c, g, up.pdown), (e) => isInteger(e.consecutive_failures) && (e.consecutive_failures as number) >= 2, 5000);
  t.true(down.met, `an upstream down since start, after several probe cycles: ${JSON.stringify(down.value)}`);
  const live = await pollUntil(() => entryNow(c, g, up.p1), (e) => up.p1.probes.length > 0 && e.consecutive_failures === 0, 5000);
  t.true(live.met, `an upstream answering every probe: ${JSON.stringify(live.value)}`);
});

check('gateway/upstreams/entry-consecutive-successes/counts-passed-probes', needs('health-checks'), async (t, c) => {
  const { g, up } = await listedGateway(c);
  const live = await pollUntil(() => entryNow(c, g, up.p1), (e) => isInteger(e.consecutive_successes) && (e.consecutive_successes as number) >= 2, 5000);
  t.true(live.met, `an upstream passing every probe, after several cycles: ${JSON.stringify(live.value)}`);
  const down = await pollUntil(() => entryNow(c, g, up.pdown), (e) => e.consecutive_successes === 0, 2000);
  t.true(down.met, `an upstream failing every probe: ${JSON.stringify(down.value)}`);
});

check('gateway/upstreams/entry-consecutive-5xx/counts-since-last-success', GATEWAY, async (t, c) => {
  const { g, up } = await listedGateway(c);
  await traffic(c, g, [freshPath('/r5/ok')]);
  await traffic(c, g, [1, 2, 3].map(() => freshPath('/r5/fail')));
  t.is((await entryNow(c, g, up.r5)).consecutive_5xx, 3, 'after three 500 answers');
  await traffic(c, g, [freshPath('/r5/ok')]);
  t.is((await entryNow(c, g, up.r5)).consecutive_5xx, 0, 'after a 200 answer');
});

/** Sends `path` through the gateway and holds it at `upstream` while `look` runs (at most HOLD_MS), then lets
 * it answer and waits for the answer. */
async function holding(c: CaseContext, g: Gateway, upstream: Upstream, path: string, look: () => Promise<void>): Promise<void> {
  let release = (): void => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
    setTimeout(resolve, HOLD_MS).unref();
  });
  upstream.answer = () => ({ until: held });
  const pending = g.http.request({ path, timeoutMs: HOLD_MS + 5000 }).catch(() => undefined);
  try {
    if (!(await waitFor(() => upstream.got(path).length > 0, 5000))) c.inconclusive(`${path} did not reach the upstream`);
    await look();
  } finally {
    release();
    await pending;
  }
}

check('gateway/upstreams/entry-active-connections/in-flight-requests', GATEWAY, async (t, c) => {
  const { g, up } = await listedGateway(c);
  t.is((await entryNow(c, g, up.slow)).active_connections, 0, 'before any request');
  const path = freshPath('/slow');
  await holding(c, g, up.slow, path, async () => {
    t.is((await entryNow(c, g, up.slow)).active_connections, 1, 'while one request waits on the upstream');
  });
  const after = await pollUntil(() => entryNow(c, g, up.slow), (e) => e.active_connections === 0, 2000);
  t.true(after.met, `after the answer: ${JSON.stringify(after.value)}`);
});

check('gateway/upstreams/entry-ejected/boolean-false-without-ejection', GATEWAY, async (t, c) => {
  const { g } = await listedGateway(c);
  for (const e of (await listing(c, g.admin)).upstreams) t.is(e.ejected, false, `no outlier detection is configured: ${JSON.stringify(e)}`);
});

check('gateway/upstreams/entry-responses/lifetime-class-counters', GATEWAY, async (t, c) => {
  const { g, up } = await listedGateway(c);
  await traffic(c, g, ['/rs/s200', '/rs/s200', '/rs/s404', '/rs/s500', '/rs/s503'].map((p) => freshPath(p)));
  const e = await entryNow(c, g, up.rs);
  t.deepEqual(
    { '2xx': (e.responses as Json)?.['2xx'], '4xx': (e.responses as Json)?.['4xx'], '5xx': (e.responses as Json)?.['5xx'] },
    { '2xx': 2, '4xx': 1, '5xx': 2 },
    `responses after two 200s, a 404, a 500 and a 503: ${JSON.stringify(e.responses)}`,
  );
});

check('gateway/upstreams/entry-selected-total/times-picked', GATEWAY, async (t, c) => {
  const { g, up } = await listedGateway(c);
  await traffic(c, g, [1, 2, 3].map(() => freshPath('/sel')));
  const e = await entryNow(c, g, up.sel);
  t.is((e.selected as Json)?.total, 3, `selected after three requests to its only route: ${JSON.stringify(e.selected)}`);
});

check('gateway/upstreams/entry-selected-last-secs/unix-seconds-of-last-pick', GATEWAY, async (t, c) => {
  const { g, up } = await listedGateway(c);
  const from = Math.floor(Date.now() / 1000);
  await traffic(c, g, [freshPath('/last')]);
  const to = Math.ceil(Date.now() / 1000);
  const last = ((await entryNow(c, g, up.last)).selected as Json)?.last_secs;
  t.true(typeof last === 'number' && last >= from && last <= to, `last_secs ${last}, the request was sent between ${from} and ${to}`);
});

check('gateway/versioning/v1-1-fields-present/every-entry', GATEWAY, async (t, c) => {
  const { g } = await listedGateway(c);
  for (const e of (await listing(c, g.admin)).upstreams) {
    for (const field of ['state', 'ewma_latency_ms', 'consecutive_5xx', 'active_connections', 'responses', 'selected']) {
      t.true(field in e, `${e.url} lacks ${field}`);
    }
  }
});

// ---------------------------------------------------------------- route entries

/** The route entry of `path` on site `site` (any site when undefined). */
function routeOf(c: CaseContext, l: UpstreamsListing, path: string, site?: string): UpstreamsListing['routes'][number] {
  const found = l.routes.find((r) => r.path === path && (site === undefined || r.site === site));
  if (!found) return c.inconclusive(`GET /upstreams has no route ${path}: ${JSON.stringify(l.routes.map((r) => [r.site, r.path]))}`);
  return found;
}

check('gateway/routes/field-site/host-port-label', GATEWAY, async (t, c) => {
  const { g } = await listedGateway(c);
  const l = await listing(c, g.admin);
  for (const r of l.routes) t.is(typeof r.site, 'string', JSON.stringify(r));
  const probed = l.routes.find((r) => r.path === '/p');
  t.is(probed?.site, `${PROBED_HOST}:${g.rendered.sitePorts[1]}`, `the route of site ${PROBED_HOST}: ${JSON.stringify(probed)}`);
});

check('gateway/routes/field-path/route-prefix', GATEWAY, async (t, c) => {
  const { g } = await listedGateway(c);
  const paths = (await listing(c, g.admin)).routes.map((r) => r.path);
  t.deepEqual([...paths].sort(), [...ROUTES.map((r) => `/${r}`), '/p', '/again'].sort());
});

check('gateway/routes/field-strategy/configured-strategy', GATEWAY, async (t, c) => {
  const { g } = await listedGateway(c);
  const l = await listing(c, g.admin);
  t.is(routeOf(c, l, '/wrr').strategy, 'weighted-round-robin');
  t.is(routeOf(c, l, '/lc').strategy, 'least-conn');
  for (const r of l.routes) t.is(typeof r.strategy, 'string', JSON.stringify(r));
});

check('gateway/routes/field-targets/one-per-target-with-runtime-changes', GATEWAY, async (t, c) => {
  const { g, up } = await listedGateway(c);
  const wrr = routeOf(c, await listing(c, g.admin), '/wrr');
  t.true(Array.isArray(wrr.targets) && wrr.targets.length === 2, `/wrr has two targets: ${JSON.stringify(wrr.targets)}`);
  const added = spareUrl();
  await needOk(c, 'POST /upstreams/add to /rt', g.admin.post('/upstreams/add', { route: '/rt', target: added }));
  const rt = routeOf(c, await listing(c, g.admin, 'GET /upstreams after the add'), '/rt');
  const urls = (rt.targets ?? []).map((x) => x.url);
  t.true(urls.some((u) => sameUrl(u, up.rt.url)) && urls.some((u) => sameUrl(u, added)) && urls.length === 2, `/rt after adding a target: ${JSON.stringify(rt.targets)}`);
});

/** Checks one field of every route target. */
function everyTarget(field: string, ok: (v: unknown) => boolean, what: string) {
  return async (t: ExecutionContext, c: CaseContext) => {
    const { g } = await listedGateway(c);
    for (const r of (await listing(c, g.admin)).routes) {
      for (const x of r.targets ?? []) t.true(ok(x[field]), `${r.path} target ${x.url}: ${field} ${JSON.stringify(x[field])} is not ${what}`);
    }
  };
}

check('gateway/routes/target-url/string', GATEWAY, everyTarget('url', (v) => typeof v === 'string', 'a string'));
check('gateway/routes/target-healthy/boolean', GATEWAY, everyTarget('healthy', (v) => typeof v === 'boolean', 'a boolean'));
check('gateway/routes/target-latency-ms/integer-or-null', GATEWAY, everyTarget('latency_ms', (v) => v === null || isInteger(v), 'an integer or null'));
check('gateway/routes/target-consecutive-failures/integer', GATEWAY, everyTarget('consecutive_failures', isInteger, 'an integer'));
check('gateway/routes/target-consecutive-successes/integer', GATEWAY, everyTarget('consecutive_successes', isInteger, 'an integer'));

check('gateway/routes/target-weight/configured-weights', GATEWAY, async (t, c) => {
  const { g, up } = await listedGateway(c);
  const wrr = routeOf(c, await listing(c, g.admin), '/wrr');
  const weightOf = (u: Upstream) => wrr.targets.find((x) => sameUrl(x.url, u.url))?.weight;
  t.is(weightOf(up.wrr), 3);
  t.is(weightOf(up.wrr2), 1, 'a target without weight');
});

// ---------------------------------------------------------------- states seen in the listing

check('gateway/upstream-state/state-values/every-entry', GATEWAY, async (t, c) => {
  const { g } = await listedGateway(c);
  for (let i = 0; i < 3; i++) {
    for (const e of (await listing(c, g.admin)).upstreams) t.true(STATES.includes(e.state as string), `state of ${e.url}: ${JSON.stringify(e.state)}`);
  }
});

check('gateway/upstream-state/busy/active-connection', GATEWAY, async (t, c) => {
  const { g, up } = await listedGateway(c);
  const path = freshPath('/busy');
  await holding(c, g, up.busy, path, async () => {
    t.is((await entryNow(c, g, up.busy)).state, 'busy', 'while a request waits on the upstream');
  });
});

check('gateway/upstream-state/healthy/passing-and-idle', GATEWAY, async (t, c) => {
  const { g, up } = await listedGateway(c);
  await traffic(c, g, [freshPath('/lc')]);
  const e = await pollUntil(() => entryNow(c, g, up.lc), (x) => x.state === 'healthy', 2000);
  t.true(e.met, `an upstream that answered and has no request in flight: ${JSON.stringify(e.value)}`);
});

check('gateway/upstream-state/unhealthy/failing-probes', needs('health-checks'), async (t, c) => {
  const { g, up } = await listedGateway(c);
  const e = await pollUntil(() => entryNow(c, g, up.pdown), (x) => x.state === 'unhealthy', 5000);
  t.true(e.met, `an upstream failing every probe: ${JSON.stringify(e.value)}`);
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('gateway/upstreams/entry-selected-never/zero-total-zero-secs', GATEWAY, async (t, c) => {
  const { g, up } = await listedGateway(c);
  t.deepEqual((await entryNow(c, g, up.idle)).selected, { total: 0, last_secs: 0 });
});

check('gateway/upstreams/entry-responses-other-classes/three-keys-3xx-uncounted', GATEWAY, async (t, c) => {
  const { g, up } = await listedGateway(c);
  await traffic(c, g, [freshPath('/r3/s302'), freshPath('/r3/s200')]);
  const e = await entryNow(c, g, up.r3);
  t.deepEqual(e.responses, { '2xx': 1, '4xx': 0, '5xx': 0 });
});

check('gateway/upstreams/entry-per-distinct-url/once-and-counted-once', GATEWAY, async (t, c) => {
  const { g, up } = await listedGateway(c);
  // Other cases add targets meanwhile: a listing between two equal status counts.
  const counted = () => needOk(c, 'GET /status', g.admin.get('/status')).then((x) => x.configured_upstreams);
  let [before, l, after] = [await counted(), await listing(c, g.admin), await counted()];
  for (let i = 0; i < 5 && before !== after; i++) [before, l, after] = [after, await listing(c, g.admin), await counted()];
  const urls = l.upstreams.map((e) => new URL(String(e.url)).href);
  t.is(urls.filter((u) => u === new URL(up.idle.url).href).length, 1, 'a URL of two routes');
  t.is(new Set(urls).size, urls.length, 'every URL once');
  t.is(after, l.upstreams.length);
});

check('gateway/routes/strategy-set/default-round-robin-and-random', GATEWAY, async (t, c) => {
  const { g } = await listedGateway(c);
  t.is(routeOf(c, await listing(c, g.admin), '/sel').strategy, 'round-robin', 'a route without strategy');
  // `random` is the reference's own: a gateway of its own, since another gateway may refuse the config.
  const [rnd] = await startUpstreams(c, 'rnd');
  const own = await startGateway(c, { sites: [{ routes: [{ path: '/rnd', strategy: 'random', targets: [rnd!.url] }] }] }).catch((err: Error) => err);
  if (!t.false(own instanceof Error, `a route with strategy random was refused: ${own instanceof Error ? own.message : ''}`) || own instanceof Error) return;
  t.is(routeOf(c, await listing(c, own.admin), '/rnd').strategy, 'random');
});

check('gateway/routes/site-label-without-host/star-port', GATEWAY, async (t, c) => {
  const { g } = await listedGateway(c);
  t.is(routeOf(c, await listing(c, g.admin), '/sel').site, `*:${g.rendered.sitePorts[0]}`);
});

check('gateway/upstream-state/healthy-flag-meaning/no-checks-always-healthy-unprobed', GATEWAY, async (t, c) => {
  const { g, up } = await listedGateway(c);
  await traffic(c, g, [freshPath('/h5')]);
  const e = await entryNow(c, g, up.lc);
  t.like(e, { healthy: true, latency_ms: null }, 'an upstream of a site without health checks');
  t.is((await entryNow(c, g, up.h5)).healthy, true, 'a 500 answer does not clear healthy without health checks');
});
