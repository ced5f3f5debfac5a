// GET /rate-limits (document 001, "Rate-limit counters", behaviour rule 4, "Limits"). One shared gateway whose
// site (host rl.test) has a route bucket per case, so the counts of one case are its own; the site-level
// bucket (`*`) is shared, and judged only for its shape. Reload and restart cases start their own gateway.
// Whether a bucket is listed before it has counted anything is gateway/rate-limits/empty-and-untouched-buckets:
// a must-case sends its own traffic before it looks for a bucket, and takes a bucket missing after a reset
// for one at zero.
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
  ['/labels', 1000],
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

/** The bucket `route` of site `label` as listed (undefined when it is not). */
const listedBucket = (all: Json, label: string, route: string): Bucket | undefined => (all[label] as Record<string, Bucket> | undefined)?.[route];

/** The buckets of site `label` after traffic went through it, or the case cannot judge: a site missing from the
 * listing then is gateway/rate-limits/keyed-by-site's to judge. */
function bucketsOf(c: CaseContext, all: Json, label: string): Record<string, Bucket> {
  const buckets = all[label];
  if (typeof buckets !== 'object' || buckets === null) {
    return c.inconclusive(`GET /rate-limits has no site ${label} after requests to it (clause gateway/rate-limits/keyed-by-site): ${JSON.stringify(all)}`);
  }
  return buckets as Record<string, Bucket>;
}

/** The bucket `route` of site `label` after traffic went through it, or the case cannot judge: a bucket missing
 * then is gateway/rate-limits/keyed-by-route's to judge. */
function bucketOf(c: CaseContext, all: Json, label: string, route: string): Bucket {
  const found = bucketsOf(c, all, label)[route];
  if (!found) return c.inconclusive(`GET /rate-limits has no bucket ${route} under ${label} after requests through it (clause gateway/rate-limits/keyed-by-route): ${JSON.stringify(all)}`);
  return found;
}

/** The counters of bucket `route` after a reset: a bucket no longer listed has counted nothing since (whether
 * it stays listed at zero is gateway/rate-limits/empty-and-untouched-buckets). */
const countsAfterReset = (all: Json, label: string, route: string): Bucket => countsOf(listedBucket(all, label, route) ?? { passed: 0, rejected: 0 });

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
  const { g, up, label } = await rateGateway(c);
  // A request of its own first: a gateway may list a site only once one of its buckets has counted something.
  await hit(c, g, up, '/labels', 1);
  const all = await counters(c, g);
  t.true(label in all, `no key ${label}: ${JSON.stringify(Object.keys(all))}`);
  for (const key of Object.keys(all)) t.true(key === label || key.startsWith('*'), `a key that is no site label of this gateway: ${key}`);
});

check('gateway/rate-limits/keyed-by-route/route-prefixes-and-site-bucket', RATE, async (t, c) => {
  const { g, up, label } = await rateGateway(c);
  await hit(c, g, up, '/shape', 1);
  const routes = Object.keys(bucketsOf(c, await counters(c, g), label));
  t.true(routes.includes('/shape'), `route bucket /shape: ${JSON.stringify(routes)}`);
  t.true(routes.includes('*'), `site bucket *: ${JSON.stringify(routes)}`);
});

check('gateway/rate-limits/passed-rejected/integer-counters', RATE, async (t, c) => {
  const { g, up, label } = await rateGateway(c);
  await hit(c, g, up, '/pr', 5);
  const all = await counters(c, g);
  t.deepEqual(countsOf(bucketOf(c, all, label, '/pr')), { passed: 3, rejected: 2 }, 'five requests through a bucket of three a minute');
  for (const [route, b] of Object.entries(bucketsOf(c, all, label))) {
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
  for (const key of Object.keys(bucketsOf(c, all, label))) t.true(allowed.has(key), `a bucket that is neither the site's nor a route's: ${key}`);
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
  /** Counters of /pr once requests went through it: at zero they show no traffic to reset (passed-rejected). */
  const counted = async (when: string): Promise<void> => {
    const b = countsOf(bucketOf(c, await counters(c, g, `GET /rate-limits ${when}`), label, '/pr'));
    if (b.passed === 0 && b.rejected === 0) c.inconclusive(`requests ${when} left /pr at zero (clause gateway/rate-limits/passed-rejected): ${JSON.stringify(b)}`);
  };
  await hit(c, g, up!, '/pr', 4);
  await counted('before the reload');
  await needOk(c, 'POST /reload', g.admin.post('/reload'));
  t.deepEqual(countsAfterReset(await counters(c, g, 'GET /rate-limits after the reload'), label, '/pr'), { passed: 0, rejected: 0 }, 'after a reload');
  await hit(c, g, up!, '/pr', 2);
  await counted('before the restart');
  const again = await restartGateway(c, g);
  t.deepEqual(countsAfterReset(await counters(c, again, 'GET /rate-limits after the restart'), label, '/pr'), { passed: 0, rejected: 0 }, 'after a restart');
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('gateway/rate-limits/empty-and-untouched-buckets/listed-at-zero-and-empty-object', RATE, async (t, c) => {
  const [up] = await startUpstreams(c, 'up');
  const g = await startGateway(c, { sites: [site(up!, HOST), { routes: [{ path: '/', targets: [up!.url] }] }] });
  const all = await counters(c, g);
  const label = `${HOST}:${g.rendered.sitePorts[0]}`;
  // A bucket left out is the choice this clause records, not a case that cannot judge.
  const untouched = listedBucket(all, label, '/mono');
  t.deepEqual(untouched && countsOf(untouched), { passed: 0, rejected: 0 }, `the untouched bucket /mono of ${label}: ${JSON.stringify(all)}`);
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
