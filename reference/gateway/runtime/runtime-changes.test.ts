import test from 'ava';
import { GatewayError, type GatewayErrorCode } from './gateway-runtime.ts';
import { ask, askMany, config, count, route, site, startGateway, startUpstream } from './test-support.ts';

const codeOf = (fn: () => unknown): GatewayErrorCode | undefined => {
  try {
    fn();
  } catch (error) {
    if (error instanceof GatewayError) return error.code;
    throw error;
  }
  return undefined;
};

test('add puts the target on the route of every site having it (or the named site), listed last and picked', async (t) => {
  const a = await startUpstream('a');
  const b = await startUpstream('b');
  const { gateway, port } = await startGateway(
    config([
      site({ host: 'one.test', routes: [route('/api', [a.url]), route('/', [a.url])] }),
      site({ host: 'two.test', routes: [route('/api', [a.url])] }),
    ]),
  );
  try {
    gateway.addTarget({ site: undefined, route: '/api', target: b.url, weight: 2 });
    const { upstreams, routes } = gateway.upstreams();
    t.deepEqual(
      upstreams.map((u) => u.url),
      [a.url, b.url],
    );
    const added = upstreams[1]!;
    t.like(added, { healthy: true, state: 'healthy', latency_ms: null, consecutive_5xx: 0, selected: { total: 0, last_secs: 0 } });
    t.deepEqual(
      routes.map((r) => [r.site, r.path, r.targets.map((x) => `${x.url}@${x.weight}`)]),
      [
        ['one.test:0', '/api', [`${a.url}@1`, `${b.url}@2`]],
        ['one.test:0', '/', [`${a.url}@1`]],
        ['two.test:0', '/api', [`${a.url}@1`, `${b.url}@2`]],
      ],
    );
    t.is(gateway.status().configured_upstreams, 2);
    t.deepEqual(count((await askMany(port, '/api', 4, { host: 'two.test' })).map((x) => x.body)), { a: 2, b: 2 });

    gateway.addTarget({ site: 'ONE.test:0', route: '/', target: `${b.url}/`, weight: 1 });
    t.is(gateway.upstreams().routes[1]!.targets.length, 2);
    gateway.addTarget({ site: 'one.test:0', route: '/', target: b.url, weight: 7 });
    t.deepEqual(
      gateway.upstreams().routes[1]!.targets.map((x) => x.weight),
      [1, 7],
      'a duplicate add sets the weight, never lists twice',
    );
  } finally {
    await gateway.shutdown();
    await a.close();
    await b.close();
  }
});

test('remove answers false when the route lacks the target; removing the last target leaves 503', async (t) => {
  const a = await startUpstream('a');
  const { gateway, port } = await startGateway(config([site({ routes: [route('/', [a.url])] })]));
  try {
    t.false(gateway.removeTarget({ site: undefined, route: '/', target: 'http://127.0.0.1:1' }));
    t.true(gateway.removeTarget({ site: '*:0', route: '/', target: `${a.url}/` }));
    t.deepEqual(gateway.upstreams().routes[0]!.targets, []);
    t.deepEqual(gateway.upstreams().upstreams, [], 'a URL no route uses is no longer listed');
    t.is(gateway.status().configured_upstreams, 0);
    t.is((await ask(port, '/')).status, 503);
  } finally {
    await gateway.shutdown();
    await a.close();
  }
});

test('unknown route, site or target is not-found; bad fields are bad-request; nothing changes', async (t) => {
  const { gateway } = await startGateway(config([site({ routes: [route('/api', ['http://127.0.0.1:9'])] })]));
  try {
    const target = 'http://127.0.0.1:10';
    t.is(codeOf(() => gateway.addTarget({ site: undefined, route: '/nope', target, weight: 1 })), 'not-found');
    t.is(codeOf(() => gateway.addTarget({ site: 'x.test:0', route: '/api', target, weight: 1 })), 'not-found');
    t.is(codeOf(() => gateway.addTarget({ site: undefined, route: '/ap', target, weight: 1 })), 'not-found');
    t.is(codeOf(() => gateway.removeTarget({ site: undefined, route: '/nope', target })), 'not-found');
    t.is(codeOf(() => gateway.setWeight({ site: undefined, route: '/api', target, weight: 2 })), 'not-found');
    for (const weight of [0, -1, 1.5, 1001, Number.NaN, '2' as unknown as number]) {
      t.is(codeOf(() => gateway.addTarget({ site: undefined, route: '/api', target, weight })), 'bad-request');
      t.is(codeOf(() => gateway.setWeight({ site: undefined, route: '/api', target: 'http://127.0.0.1:9', weight })), 'bad-request');
    }
    for (const bad of ['ftp://x/', 'not a url', '/relative']) {
      t.is(codeOf(() => gateway.addTarget({ site: undefined, route: '/api', target: bad, weight: 1 })), 'bad-request');
    }
    t.is(codeOf(() => gateway.addTarget({ site: undefined, route: 'api', target, weight: 1 })), 'bad-request');
    t.deepEqual(gateway.upstreams().routes[0]!.targets.map((x) => [x.url, x.weight]), [['http://127.0.0.1:9', 1]]);
    t.is(codeOf(() => gateway.setWeight({ site: undefined, route: '/api', target: 'http://127.0.0.1:9/', weight: 5 })), undefined);
    t.is(gateway.upstreams().routes[0]!.targets[0]!.weight, 5);
  } finally {
    await gateway.shutdown();
  }
});
