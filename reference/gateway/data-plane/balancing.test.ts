import test from 'ava';
import { ask, askMany, config, count, route, site, startGateway, startUpstream, until } from '../runtime/test-support.ts';

test('round-robin shares requests evenly and counts selections', async (t) => {
  const ups = await Promise.all(['a', 'b', 'c'].map((name) => startUpstream(name)));
  const { gateway, port } = await startGateway(config([site({ routes: [route('/', ups.map((u) => u.url))] })]));
  try {
    const answers = await askMany(port, '/x', 9);
    t.deepEqual(count(answers.map((a) => a.body)), { a: 3, b: 3, c: 3 });
    const { upstreams } = gateway.upstreams();
    t.deepEqual(
      upstreams.map((u) => [u.url, u.selected.total, u.responses['2xx']]),
      ups.map((u) => [u.url, 3, 3]),
    );
    t.true(upstreams.every((u) => Math.abs(u.selected.last_secs - Date.now() / 1000) < 5));
    t.true(upstreams.every((u) => u.ewma_latency_ms > 0 && u.latency_ms === null));
  } finally {
    await gateway.shutdown();
    await Promise.all(ups.map((u) => u.close()));
  }
});

test('weighted-round-robin shares follow the weights; other strategies ignore them', async (t) => {
  const a = await startUpstream('a');
  const b = await startUpstream('b');
  const targets = [
    { url: a.url, weight: 3 },
    { url: b.url, weight: 1 },
  ];
  const { gateway, port } = await startGateway(
    config([
      site({
        routes: [
          { path: '/w', strategy: 'weighted-round-robin', stripPrefix: false, targets },
          { path: '/r', strategy: 'round-robin', stripPrefix: false, targets },
        ],
      }),
    ]),
  );
  try {
    t.deepEqual(count((await askMany(port, '/w', 40)).map((x) => x.body)), { a: 30, b: 10 });
    t.deepEqual(count((await askMany(port, '/r', 40)).map((x) => x.body)), { a: 20, b: 20 });
    gateway.setWeight({ site: undefined, route: '/w', target: b.url, weight: 3 });
    t.deepEqual(count((await askMany(port, '/w', 40)).map((x) => x.body)), { a: 20, b: 20 });
  } finally {
    await gateway.shutdown();
    await a.close();
    await b.close();
  }
});

test('least-conn sends to the upstream with fewer requests in flight', async (t) => {
  const held: Array<() => void> = [];
  const slow = await startUpstream('slow', (_req, res) => held.push(() => res.end('slow')));
  const fast = await startUpstream('fast');
  const { gateway, port } = await startGateway(
    config([site({ routes: [route('/', [slow.url, fast.url], { strategy: 'least-conn' })] })]),
  );
  try {
    const first = ask(port, '/one');
    await until(() => held.length === 1, 3000, 'the slow upstream to hold a request');
    const entry = gateway.upstreams().upstreams[0]!;
    t.is(entry.active_connections, 1);
    t.is(entry.state, 'busy');
    t.is(gateway.status().inflight, 1);
    const next = await askMany(port, '/more', 4);
    t.deepEqual(
      next.map((a) => a.body),
      ['fast', 'fast', 'fast', 'fast'],
    );
    held[0]!();
    t.is((await first).body, 'slow');
    await until(() => gateway.status().inflight === 0);
    t.is(gateway.upstreams().upstreams[0]!.state, 'healthy');
  } finally {
    for (const release of held) release();
    await gateway.shutdown();
    await slow.close();
    await fast.close();
  }
});

test('random reaches every target', async (t) => {
  const ups = await Promise.all(['a', 'b'].map((name) => startUpstream(name)));
  const { gateway, port } = await startGateway(
    config([site({ routes: [route('/', ups.map((u) => u.url), { strategy: 'random' })] })]),
  );
  try {
    const seen = count((await askMany(port, '/', 40)).map((x) => x.body));
    t.true((seen['a'] ?? 0) > 0 && (seen['b'] ?? 0) > 0, JSON.stringify(seen));
  } finally {
    await gateway.shutdown();
    await Promise.all(ups.map((u) => u.close()));
  }
});

test('routes match the longest prefix on a segment boundary and forward the path unchanged', async (t) => {
  const api = await startUpstream('api');
  const apiV2 = await startUpstream('v2');
  const root = await startUpstream('root');
  const { gateway, port } = await startGateway(
    config([
      site({
        routes: [route('/', [root.url]), route('/api', [api.url]), route('/api/v2', [apiV2.url])],
      }),
    ]),
  );
  try {
    t.is((await ask(port, '/api')).body, 'api');
    t.is((await ask(port, '/api/x?q=1')).body, 'api');
    t.is((await ask(port, '/api/v2/y')).body, 'v2');
    t.is((await ask(port, '/apix')).body, 'root');
    t.deepEqual(
      api.hits.map((h) => h.url),
      ['/api', '/api/x?q=1'],
    );
    t.is(api.hits[0]!.headers['x-forwarded-for'], '127.0.0.1');
  } finally {
    await gateway.shutdown();
    await Promise.all([api, apiV2, root].map((u) => u.close()));
  }
});

test('a route with stripPrefix forwards the rest of the path (always from /), its query kept; other routes forward it unchanged', async (t) => {
  const up = await startUpstream('up');
  const { gateway, port } = await startGateway(
    config([
      site({
        routes: [
          route('/api', [up.url], { stripPrefix: true }),
          route('/v1/', [up.url], { stripPrefix: true }),
          route('/keep', [up.url]),
        ],
      }),
    ]),
  );
  try {
    for (const path of ['/api', '/api/x/y?q=1', '/api?q=2', '/v1/z', '/keep/b']) t.is((await ask(port, path)).status, 200, path);
    t.deepEqual(
      up.hits.map((h) => h.url),
      ['/', '/x/y?q=1', '/?q=2', '/z', '/keep/b'],
    );
  } finally {
    await gateway.shutdown();
    await up.close();
  }
});

test('no route is 404, no target left is 503, an unreachable target is 502', async (t) => {
  const { gateway, port } = await startGateway(
    config([site({ routes: [route('/empty', []), route('/dead', ['http://127.0.0.1:1'])] })]),
  );
  try {
    t.is((await ask(port, '/other')).status, 404);
    t.is((await ask(port, '/empty')).status, 503);
    t.is((await ask(port, '/dead')).status, 502);
    const entry = gateway.upstreams().upstreams[0]!;
    t.deepEqual(entry.responses, { '2xx': 0, '4xx': 0, '5xx': 0 });
    t.is(entry.consecutive_5xx, 1);
  } finally {
    await gateway.shutdown();
  }
});
