import test from 'ava';
import { GatewayError } from '../runtime/gateway-runtime.ts';
import { ask, config, route, site, startGateway, startUpstream } from '../runtime/test-support.ts';
import { type CachedResponse, MAX_VARIANTS, ResponseCache } from './response-cache.ts';

test('GET 200 answers are cached per scheme, host, path and query; purge ignores the port', async (t) => {
  let n = 0;
  const up = await startUpstream('up', (req, res) => res.end(`${req.url} #${++n}`));
  const { gateway, port } = await startGateway(
    config([site({ routes: [route('/', [up.url])], cache: { ttlMs: 60_000, maxEntries: 100, store: 'memory' } })]),
  );
  try {
    const first = await ask(port, '/a?x=1', { host: 'shop.test' });
    t.is(first.body, '/a?x=1 #1');
    t.is(first.headers['x-cache'], 'MISS');
    const again = await ask(port, '/a?x=1', { host: 'shop.test:9999' });
    t.is(again.body, '/a?x=1 #1', 'the Host port is not part of the key');
    t.is(again.headers['x-cache'], 'HIT');
    t.is((await ask(port, '/a?x=2', { host: 'shop.test' })).body, '/a?x=2 #2');
    t.is((await ask(port, '/a?x=1', { method: 'HEAD', host: 'shop.test' })).headers['x-cache'], 'HIT');

    t.false(gateway.purge('http://shop.test/a?x=3'));
    t.false(gateway.purge('https://shop.test/a?x=1'), 'the scheme is part of the key');
    t.true(gateway.purge('http://shop.test:8080/a?x=1'));
    t.false(gateway.purge('http://shop.test/a?x=1'), 'already purged');
    t.is((await ask(port, '/a?x=1', { host: 'shop.test' })).body, '/a?x=1 #3');
    t.is((await ask(port, '/a?x=2', { host: 'shop.test' })).body, '/a?x=2 #2', 'the other query stays cached');
    t.is(up.hits.length, 3);
  } finally {
    await gateway.shutdown();
    await up.close();
  }
});

test('only GET/HEAD 200 answers without no-store are stored; Vary variants are dropped together', async (t) => {
  let n = 0;
  const up = await startUpstream('up', (req, res) => {
    n++;
    if (req.url === '/404') res.writeHead(404).end(`missing #${n}`);
    else if (req.url === '/nostore') res.writeHead(200, { 'cache-control': 'no-store' }).end(`nostore #${n}`);
    else if (req.url === '/vary') res.writeHead(200, { vary: 'Accept-Language' }).end(`${req.headers['accept-language']} #${n}`);
    else res.end(`${req.method} #${n}`);
  });
  const { gateway, port } = await startGateway(
    config([site({ routes: [route('/', [up.url])], cache: { ttlMs: 60_000, maxEntries: 100, store: 'memory' } })]),
  );
  try {
    await ask(port, '/404');
    t.is((await ask(port, '/404')).status, 404);
    await ask(port, '/nostore');
    t.is((await ask(port, '/nostore')).headers['x-cache'], 'MISS');
    await ask(port, '/post', { method: 'POST' });
    t.is((await ask(port, '/post', { method: 'POST' })).body, 'POST #6');
    const en = await ask(port, '/vary', { headers: { 'accept-language': 'en' } });
    const fr = await ask(port, '/vary', { headers: { 'accept-language': 'fr' } });
    t.not(en.body, fr.body);
    t.is((await ask(port, '/vary', { headers: { 'accept-language': 'en' } })).body, en.body);
    t.is((await ask(port, '/vary', { headers: { 'accept-language': 'fr' } })).body, fr.body);
    t.true(gateway.purge('http://127.0.0.1/vary'));
    t.is((await ask(port, '/vary', { headers: { 'accept-language': 'fr' } })).headers['x-cache'], 'MISS');
    t.is((await ask(port, '/vary', { headers: { 'accept-language': 'en' } })).headers['x-cache'], 'MISS');
  } finally {
    await gateway.shutdown();
    await up.close();
  }
});

test('entries expire after ttlMs and the oldest go beyond maxEntries', async (t) => {
  let n = 0;
  const up = await startUpstream('up', (req, res) => res.end(`${req.url} #${++n}`));
  const { gateway, port } = await startGateway(
    config([site({ routes: [route('/', [up.url])], cache: { ttlMs: 300, maxEntries: 2, store: 'memory' } })]),
  );
  try {
    await ask(port, '/1');
    await ask(port, '/2');
    await ask(port, '/3');
    t.is((await ask(port, '/3')).headers['x-cache'], 'HIT');
    t.is((await ask(port, '/1')).headers['x-cache'], 'MISS', '/1 was pushed out');
    await new Promise((resolve) => setTimeout(resolve, 350));
    t.is((await ask(port, '/3')).headers['x-cache'], 'MISS', 'expired');
  } finally {
    await gateway.shutdown();
    await up.close();
  }
});

test('purge without any cache is not-implemented; an invalid URL is bad-request', async (t) => {
  const { gateway } = await startGateway(config([site({ routes: [route('/', [])] })]));
  try {
    t.is(t.throws(() => gateway.purge('http://x.test/'), { instanceOf: GatewayError })?.code, 'not-implemented');
  } finally {
    await gateway.shutdown();
  }
  const cached = await startGateway(config([site({ routes: [], cache: { ttlMs: 1000, maxEntries: 1, store: 'memory' } })]));
  try {
    t.is(t.throws(() => cached.gateway.purge('not a url'), { instanceOf: GatewayError })?.code, 'bad-request');
  } finally {
    await cached.gateway.shutdown();
  }
});

test('the in-memory cache keeps its bytes under its budget, the newest first, and at most MAX_VARIANTS per key', (t) => {
  const entry = (bytes: number, vary = ''): CachedResponse => ({
    status: 200,
    headers: {},
    body: Buffer.alloc(bytes),
    storedAt: 0,
    expires: 60_000,
    method: 'GET',
    vary: vary === '' ? [] : ['accept-language'],
    varyValues: vary === '' ? [] : [vary],
    identity: '',
  });
  const cache = new ResponseCache(60_000, 1_000, 10 * 1024);
  for (let i = 0; i < 30; i++) cache.store(`k${i}`, entry(1024));
  t.true(cache.bytes <= 10 * 1024, `${cache.bytes} bytes`);
  t.truthy(cache.get('k29', 'GET', {}, 1, ''));
  t.is(cache.get('k0', 'GET', {}, 1, ''), undefined);
  t.is(cache.get('k29', 'GET', {}, 1, 'another identity'), undefined, 'another identity is not served');
  const many = new ResponseCache(60_000, 1_000, 1024 * 1024);
  for (let i = 0; i < 100; i++) many.store('v', entry(10, `x-${i}`));
  t.truthy(many.get('v', 'GET', { 'accept-language': 'x-99' }, 1, ''));
  t.is(many.get('v', 'GET', { 'accept-language': `x-${99 - MAX_VARIANTS}` }, 1, ''), undefined);
});
