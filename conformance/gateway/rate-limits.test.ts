// GET /rate-limits (document 001, "Rate-limit counters", behaviour rule 4, "Limits"). One shared gateway whose
// site (host rl.test) has a route bucket per case, so the counts of one case are its own; the site-level
// bucket (`*`) is shared, and judged only for its shape. Reload and restart cases start their own gateway.
import { check, type CaseContext } from '../harness/index.ts';
import { startRedis } from '../harness/redis-server.ts';
import { type Json, needOk, successBody } from './admin-client.ts';
import { clientAddress, type Gateway, restartGateway, sharedGateway, startGateway } from './gateway.ts';
import type { SiteSetup } from './setup.ts';
import { needs } from './target.ts';
import { fared, send } from './traffic.ts';
import { sharedUpstreams, startUpstreams, type Upstream } from './upstream.ts';

const RATE = needs('rate-limit');
const HOST = 'rl.test';
/** Route buckets, one per case: [route, requests allowed per minute]. */
const BUCKETS = [
  ['/pr', 3],
  ['/agg', 1000],
  ['/mono', 1000],
  ['/shape', 1000],
  ['/r429', 1],
] as const;
type Bucket = { passed: unknown; rejected: unknown };

const site = (up: Upstream, host?: string): SiteSetup => ({
  ...(host ? { host } : {}),
  routes: [...BUCKETS.map(([path]) => ({ path, targets: [up.url] })), { path: '/free', targets: [up.url] }],
  rateLimit: {
    requests: 100_000,
    windowMs: 60_000,
    routes: Object.fromEntries(BUCKETS.map(([path, requests]) => [path, { requests, windowMs: 60_000 }])),
  },
});

async function rateGateway(c: CaseContext): Promise<{ g: Gateway; up: Upstream; label: string }> {
  const [up] = await sharedUpstreams('rate', 'up');
  const g = await sharedGateway(c, 'rate', () => ({ sites: [site(up!, HOST)] }));
  return { g, up: up!, label: `${HOST}:${g.rendered.sitePorts[0]}` };
}

const counters = (c: CaseContext, g: Gateway, what = 'GET /rate-limits'): Promise<Json> => needOk(c, what, g.admin.get('/rate-limits'));

/** The bucket `route` of site `label`, or the case cannot judge. */
function bucketOf(c: CaseContext, all: Json, label: string, route: string): Bucket {
  const found = (all[label] as Record<string, Bucket> | undefined)?.[route];
  if (!found) return c.inconclusive(`GET /rate-limits has no bucket ${route} under ${label}: ${JSON.stringify(all)}`);
  return found;
}

/** The two counters of a bucket (a bucket may carry more fields: the document names these two). */
const countsOf = (b: Bucket): Bucket => ({ passed: b.passed, rejected: b.rejected });

/** Sends `n` requests to `route` (from `addr` when given), one after the other. */
async function hit(c: CaseContext, g: Gateway, up: Upstream, route: string, n: number, addr?: string): Promise<void> {
  for (let i = 0; i < n; i++) {
    const client = addr ? g.from(addr) : g.http;
    await c.need(`request ${i + 1} to ${route}`, send(client, route, [up], g.hostHeader(0)));
  }
}

check('gateway/rate-limits/get-counters/object', RATE, async (t, c) => {
  const { g } = await rateGateway(c);
  const body = successBody(t, await g.admin.get('/rate-limits'), 'GET /rate-limits');
  t.true(body !== undefined);
});

check('gateway/rate-limits/keyed-by-site/site-labels', RATE, async (t, c) => {
  const { g, label } = await rateGateway(c);
  const all = await counters(c, g);
  t.true(label in all, `no key ${label}: ${JSON.stringify(Object.keys(all))}`);
  for (const key of Object.keys(all)) t.true(key === label || key.startsWith('*'), `a key that is no site label of this gateway: ${key}`);
});

check('gateway/rate-limits/keyed-by-route/route-prefixes-and-site-bucket', RATE, async (t, c) => {
  const { g, up, label } = await rateGateway(c);
  await hit(c, g, up, '/shape', 1);
  const routes = Object.keys((await counters(c, g))[label] ?? {});
  t.true(routes.includes('/shape'), `route bucket /shape: ${JSON.stringify(routes)}`);
  t.true(routes.includes('*'), `site bucket *: ${JSON.stringify(routes)}`);
});

check('gateway/rate-limits/passed-rejected/integer-counters', RATE, async (t, c) => {
  const { g, up, label } = await rateGateway(c);
  await hit(c, g, up, '/pr', 5);
  const all = await counters(c, g);
  t.deepEqual(countsOf(bucketOf(c, all, label, '/pr')), { passed: 3, rejected: 2 }, 'five requests through a bucket of three a minute');
  for (const [route, b] of Object.entries((all[label] ?? {}) as Record<string, Bucket>)) {
    t.true(Number.isInteger(b.passed) && Number.isInteger(b.rejected), `${route}: ${JSON.stringify(b)}`);
  }
});

check('gateway/rate-limits/aggregated-no-client-keys/sums-over-clients', RATE, async (t, c) => {
  const { g, up, label } = await rateGateway(c);
  const clients = [clientAddress(), clientAddress(), clientAddress()];
  for (const addr of clients) await hit(c, g, up, '/agg', 2, addr);
  const res = await g.admin.get('/rate-limits');
  const all = await counters(c, g);
  t.is(bucketOf(c, all, label, '/agg').passed, 6, 'two requests from each of three clients');
  for (const addr of clients) t.false(res.text.includes(addr), `the answer shows the client ${addr}: ${res.text.slice(0, 400)}`);
});

check('gateway/rate-limits/in-memory-buckets-only/site-and-route-buckets', RATE, async (t, c) => {
  const { g, up, label } = await rateGateway(c);
  await hit(c, g, up, '/shape', 1);
  const all = await counters(c, g);
  const allowed = new Set(['*', ...BUCKETS.map(([path]) => path)]);
  for (const key of Object.keys((all[label] ?? {}) as Json)) t.true(allowed.has(key), `a bucket that is neither the site's nor a route's: ${key}`);
});

check('gateway/rate-limits/monotonic-unbounded/never-decrease', RATE, async (t, c) => {
  const { g, up, label } = await rateGateway(c);
  let last = -1;
  for (let i = 0; i < 8; i++) {
    await hit(c, g, up, '/mono', 1);
    const passed = bucketOf(c, await counters(c, g), label, '/mono').passed as number;
    t.true(passed > last, `passed went from ${last} to ${passed} after request ${i + 1}`);
    last = passed;
  }
});

check('gateway/rate-limits/reset-on-restart-or-reload/zero-after-each', RATE, async (t, c) => {
  const [up] = await startUpstreams(c, 'up');
  const setup = { sites: [site(up!, HOST)] };
  const g = await startGateway(c, setup);
  const label = `${HOST}:${g.rendered.sitePorts[0]}`;
  const zero = (all: Json) => countsOf(bucketOf(c, all, label, '/pr'));
  await hit(c, g, up!, '/pr', 4);
  const before = zero(await counters(c, g));
  if (before.passed === 0 && before.rejected === 0) c.inconclusive(`four requests left /pr at zero: ${JSON.stringify(before)}`);
  await needOk(c, 'POST /reload', g.admin.post('/reload'));
  t.deepEqual(zero(await counters(c, g, 'GET /rate-limits after the reload')), { passed: 0, rejected: 0 }, 'after a reload');
  await hit(c, g, up!, '/pr', 2);
  const again = await restartGateway(c, g);
  t.deepEqual(zero(await counters(c, again, 'GET /rate-limits after the restart')), { passed: 0, rejected: 0 }, 'after a restart');
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('gateway/rate-limits/empty-and-untouched-buckets/listed-at-zero-and-empty-object', RATE, async (t, c) => {
  const [up] = await startUpstreams(c, 'up');
  const g = await startGateway(c, { sites: [site(up!, HOST), { routes: [{ path: '/', targets: [up!.url] }] }] });
  const all = await counters(c, g);
  const label = `${HOST}:${g.rendered.sitePorts[0]}`;
  t.deepEqual(countsOf(bucketOf(c, all, label, '/mono')), { passed: 0, rejected: 0 });
  t.deepEqual(Object.keys(all), [label], 'a site without rate limits is not listed');
  const bare = await startGateway(c, { sites: [{ routes: [{ path: '/', targets: [up!.url] }] }] });
  t.deepEqual(await counters(c, bare), {});
});

check('gateway/rate-limits/data-plane-429/retry-after-and-refusing-bucket', RATE, async (t, c) => {
  const { g, up, label } = await rateGateway(c);
  const addr = clientAddress();
  await hit(c, g, up, '/r429', 1, addr);
  const refused = await send(g.from(addr), '/r429', [up], g.hostHeader(0));
  t.is(refused.res?.status, 429, fared(refused));
  t.truthy(refused.res?.headers['retry-after'], 'Retry-After');
  t.deepEqual(countsOf(bucketOf(c, await counters(c, g), label, '/r429')), { passed: 1, rejected: 1 });
});

check('gateway/rate-limits/in-memory-buckets-only/consumer-limits-left-out', needs('rate-limit', 'consumers'), async (t, c) => {
  const [up] = await startUpstreams(c, 'up');
  const g = await startGateway(c, {
    sites: [{ host: HOST, routes: [{ path: '/', targets: [up!.url] }], consumers: [{ name: 'carol', apiKeys: ['ck-carol'], rateLimit: { requests: 1, windowMs: 60_000 } }] }],
  });
  for (let i = 0; i < 2; i++) await c.need(`request ${i + 1} as carol`, send(g.site(0), '/', [up!], { ...g.hostHeader(0), 'x-api-key': 'ck-carol' }));
  const all = await counters(c, g);
  const label = `${HOST}:${g.rendered.sitePorts[0]}`;
  t.deepEqual(Object.keys((all[label] ?? {}) as Json), [], `carol's limit is listed: ${JSON.stringify(all)}`);
});

// ---------------------------------------------------------------- Redis-backed limits

const REDIS = { needs: [...needs('rate-limit', 'redis').needs!, 'redis-server'] };

/** A gateway whose site keeps a limit of `requests` a minute in the Redis at `url` (the neutral form's
 * global.redis and rateLimit.store). */
const redisSetup = (up: Upstream, url: string, requests: number) => ({
  global: { redis: { url, keyPrefix: `conformance-${Date.now()}:` } },
  sites: [{ host: HOST, routes: [{ path: '/', targets: [up.url] }], rateLimit: { requests, windowMs: 60_000, store: 'redis' } }],
});

check('gateway/rate-limits/in-memory-buckets-only/redis-buckets-left-out', REDIS, async (t, c) => {
  const redis = await startRedis();
  c.defer(() => redis.close());
  const [up] = await startUpstreams(c, 'up');
  const g = await startGateway(c, redisSetup(up!, redis.url, 100));
  await hit(c, g, up!, '/', 2);
  const all = await counters(c, g);
  const label = `${HOST}:${g.rendered.sitePorts[0]}`;
  t.deepEqual(Object.keys((all[label] ?? {}) as Json), [], `the Redis-backed buckets of ${label} are listed: ${JSON.stringify(all)}`);
});

check('gateway/rate-limits/redis-store/two-instances-limited-as-one', REDIS, async (t, c) => {
  const redis = await startRedis();
  c.defer(() => redis.close());
  const [up] = await startUpstreams(c, 'up');
  const setup = redisSetup(up!, redis.url, 4);
  const gateways = [await startGateway(c, setup), await startGateway(c, setup)];
  const statuses: (number | undefined)[] = [];
  for (let i = 0; i < 10; i++) statuses.push((await send(gateways[i % 2]!.site(0), '/', [up!], gateways[i % 2]!.hostHeader(0))).res?.status);
  t.deepEqual(statuses, [200, 200, 200, 200, 429, 429, 429, 429, 429, 429], 'ten requests alternating between two gateways, four allowed a minute');
});
