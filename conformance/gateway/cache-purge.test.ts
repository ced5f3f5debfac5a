// DELETE /cache/purge (document 001, behaviour rule 3, "Errors"): one shared gateway with the in-memory cache;
// each case caches URLs of its own (a path of its own under /c) and reads off the upstream whether a request
// was served from the cache. The upstream marks its answers cacheable for a gateway that wants it said.
import { check, type CaseContext } from '../harness/index.ts';
import { jsonObject, needOk, successBody } from './admin-client.ts';
import { startRedis } from '../harness/redis-server.ts';
import { type Gateway, sharedGateway, startGateway } from './gateway.ts';
import { needs } from './target.ts';
import { freshPath } from './traffic.ts';
import { sharedUpstreams, startUpstreams, type Upstream } from './upstream.ts';

const CACHE = needs('cache');

async function cacheGateway(c: CaseContext): Promise<{ g: Gateway; up: Upstream }> {
  const [up] = await sharedUpstreams('cache', 'up');
  up!.answer = () => ({ headers: { 'cache-control': 'public, max-age=300' } });
  const g = await sharedGateway(c, 'cache', () => ({ sites: [{ routes: [{ path: '/c', targets: [up!.url] }], cache: { ttlMs: 300_000, maxEntries: 1000 } }] }));
  return { g, up: up! };
}

/** How often the upstream has seen the request sent as path+query `path`. */
const fetched = (up: Upstream, path: string): number => up.got(path).length;

/** GETs `path` twice: the second must come from the cache (else the case cannot judge a purge). */
async function cached(c: CaseContext, g: Gateway, up: Upstream, path: string): Promise<void> {
  await c.need(`GET ${path}`, g.http.get(path));
  await c.need(`GET ${path} again`, g.http.get(path));
  if (fetched(up, path) !== 1) c.inconclusive(`the cache did not serve a repeated GET of ${path} (the upstream saw it ${fetched(up, path)} times)`);
}

const fullUrl = (g: Gateway, path: string, port: boolean = true): string => `http://127.0.0.1${port ? `:${g.rendered.sitePorts[0]}` : ''}${path}`;
const purge = (g: Gateway, url: string) => g.admin.delete(`/cache/purge?url=${encodeURIComponent(url)}`);

check('gateway/cache-purge/url-query-parameter/full-url-names-entry', CACHE, async (t, c) => {
  const { g, up } = await cacheGateway(c);
  const path = `${freshPath('/c')}?lang=en&page=2`;
  await cached(c, g, up, path);
  const body = successBody(t, await purge(g, fullUrl(g, path)), `purge of ${fullUrl(g, path)}`);
  t.is(body?.purged, true, JSON.stringify(body));
  await g.http.get(path);
  t.is(fetched(up, path), 2, 'after the purge the URL was fetched from the upstream again');
});

check('gateway/cache-purge/response/status-purged-url', CACHE, async (t, c) => {
  const { g, up } = await cacheGateway(c);
  const path = freshPath('/c');
  await cached(c, g, up, path);
  const body = successBody(t, await purge(g, fullUrl(g, path)), 'purge');
  t.true(body !== undefined && 'status' in body, JSON.stringify(body));
  t.is(typeof body?.purged, 'boolean', JSON.stringify(body));
  t.is(typeof body?.url, 'string', JSON.stringify(body));
});

check('gateway/cache-purge/purged-false-when-absent/never-cached', CACHE, async (t, c) => {
  const { g } = await cacheGateway(c);
  const body = successBody(t, await purge(g, fullUrl(g, freshPath('/c'))), 'purge of a URL never requested');
  t.is(body?.purged, false, JSON.stringify(body));
});

check('gateway/cache-purge/removes-entry/next-request-from-upstream', CACHE, async (t, c) => {
  const { g, up } = await cacheGateway(c);
  const path = freshPath('/c');
  await cached(c, g, up, path);
  await needOk(c, 'the purge', purge(g, fullUrl(g, path)));
  await g.http.get(path);
  t.is(fetched(up, path), 2, 'the request after the purge was served from the cache');
});

check('gateway/cache-purge/query-distinguishes/other-query-kept', CACHE, async (t, c) => {
  const { g, up } = await cacheGateway(c);
  const base = freshPath('/c');
  const [one, two] = [`${base}?v=1`, `${base}?v=2`];
  await cached(c, g, up, one);
  await cached(c, g, up, two);
  await needOk(c, `purge of ${one}`, purge(g, fullUrl(g, one)));
  await g.http.get(one);
  await g.http.get(two);
  t.is(fetched(up, one), 2, `${one}, purged, is fetched again`);
  t.is(fetched(up, two), 1, `${two}, not purged, still comes from the cache`);
});

check('gateway/cache-purge/port-ignored/url-without-port', CACHE, async (t, c) => {
  const { g, up } = await cacheGateway(c);
  const path = freshPath('/c');
  await cached(c, g, up, path);
  const body = successBody(t, await purge(g, fullUrl(g, path, false)), `purge of ${fullUrl(g, path, false)} (no port)`);
  t.is(body?.purged, true, JSON.stringify(body));
  await g.http.get(path);
  t.is(fetched(up, path), 2, 'the entry cached through the port was purged by the URL without it');
});

check('gateway/cache-purge/port-ignored/other-port-same-entry', CACHE, async (t, c) => {
  const { g, up } = await cacheGateway(c);
  const path = freshPath('/c');
  await cached(c, g, up, path);
  const body = successBody(t, await purge(g, `http://127.0.0.1:1${path}`), 'purge with another port');
  t.is(body?.purged, true, JSON.stringify(body));
});

check('gateway/cache-purge/in-memory-only/in-memory-entry-purged', CACHE, async (t, c) => {
  const { g, up } = await cacheGateway(c);
  const path = freshPath('/c');
  await cached(c, g, up, path);
  const body = successBody(t, await purge(g, fullUrl(g, path)), 'purge of an in-memory entry');
  t.is(body?.purged, true, JSON.stringify(body));
});

// ---------------------------------------------------------------- a Redis-backed cache

const REDIS_CACHE = { needs: [...needs('cache', 'redis').needs!, 'redis-server'] };

/** `count` gateways whose site keeps its cache in one Redis (the neutral form's global.redis and
 * cache.store), routing /c to an upstream that marks its answers cacheable. */
async function redisCacheGateways(c: CaseContext, count: number): Promise<{ gateways: Gateway[]; up: Upstream }> {
  const redis = await startRedis();
  c.defer(() => redis.close());
  const [up] = await startUpstreams(c, 'up');
  up!.answer = () => ({ headers: { 'cache-control': 'public, max-age=300' } });
  const setup = {
    global: { redis: { url: redis.url, keyPrefix: `conformance-${Date.now()}:` } },
    sites: [{ routes: [{ path: '/c', targets: [up!.url] }], cache: { ttlMs: 300_000, store: 'redis' } }],
  };
  const gateways: Gateway[] = [];
  for (let i = 0; i < count; i++) gateways.push(await startGateway(c, setup));
  return { gateways, up: up! };
}

/** GETs `path` until it is served from the cache (the write is not waited for); the case cannot judge a
 * purge without that. */
async function cachedAt(c: CaseContext, g: Gateway, up: Upstream, path: string): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await c.need(`GET ${path}`, g.http.get(path));
    if (i >= 1 && fetched(up, path) === 1) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  c.inconclusive(`the Redis-backed cache did not serve a repeated GET of ${path} (the upstream saw it ${fetched(up, path)} times)`);
}

check('gateway/cache-purge/in-memory-only/redis-entry-outlives-purge', REDIS_CACHE, async (t, c) => {
  const { gateways, up } = await redisCacheGateways(c, 1);
  const g = gateways[0]!;
  const path = freshPath('/c');
  await cachedAt(c, g, up, path);
  await purge(g, fullUrl(g, path));
  await g.http.get(path);
  t.is(fetched(up, path), 1, 'after a purge, the Redis-backed entry was fetched from the upstream again');
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('gateway/cache-purge/redis-store/entries-shared-by-instances', REDIS_CACHE, async (t, c) => {
  const { gateways, up } = await redisCacheGateways(c, 2);
  const path = freshPath('/c');
  await c.need(`GET ${path} through the first gateway`, gateways[0]!.http.get(path));
  // The entry is written after the answer: a moment for it to land.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const second = await gateways[1]!.http.get(path);
  t.is(second.status, 200);
  t.is(fetched(up, path), 1, 'the second gateway fetched the URL itself instead of serving the shared entry');
});

check('gateway/cache-purge/redis-backend/501', REDIS_CACHE, async (t, c) => {
  const { gateways } = await redisCacheGateways(c, 1);
  const g = gateways[0]!;
  const res = await purge(g, fullUrl(g, '/c/x'));
  t.is(res.status, 501, res.text);
  t.regex(String(jsonObject(res)?.message), /redis/i);
});

check('gateway/cache-purge/missing-or-invalid-url-400/names-url', CACHE, async (t, c) => {
  const { g } = await cacheGateway(c);
  for (const path of ['/cache/purge', '/cache/purge?url=not-a-url', '/cache/purge?url=%2Fc%2Fx']) {
    const res = await g.admin.delete(path);
    t.is(res.status, 400, `${path}: ${res.status} ${res.text}`);
    t.regex(String(jsonObject(res)?.message), /url/, path);
  }
});

check('gateway/cache-purge/url-echo-and-variants/echo-and-head-dropped', CACHE, async (t, c) => {
  const { g, up } = await cacheGateway(c);
  const path = freshPath('/c');
  await cached(c, g, up, path);
  await g.http.request({ method: 'HEAD', path });
  const url = `${fullUrl(g, path)}`;
  const body = await needOk(c, 'purge', purge(g, url));
  t.is(body.url, url);
  await g.http.request({ method: 'HEAD', path });
  t.true(fetched(up, path) >= 2, 'HEAD after the purge reached the upstream');
});
