import test from 'ava';
import { GatewayError } from '../runtime/gateway-runtime.ts';
import { ask, askMany, config, route, site, startGateway, startUpstream } from '../runtime/test-support.ts';

test('GET /__health__ answers before everything else, even for a denied client or an unknown host', async (t) => {
  const { gateway, port } = await startGateway(
    config([site({ host: 'only.test', ipDeny: ['127.0.0.0/8'], rateLimit: { site: { requests: 0, windowMs: 1000 }, routes: {}, store: 'memory' } })]),
  );
  try {
    const answer = await ask(port, '/__health__', { host: 'unknown.test' });
    t.is(answer.status, 200);
    t.is(answer.headers['content-type'], 'application/json');
    t.is(answer.body, '{"status":"ok"}');
  } finally {
    await gateway.shutdown();
  }
});

test('sites are chosen by exact host, else the port catch-all, else 404', async (t) => {
  const a = await startUpstream('a');
  const any = await startUpstream('any');
  const only = await startGateway(config([site({ host: 'a.test', routes: [route('/', [a.url])] })]));
  const both = await startGateway(
    config([site({ host: 'a.test', routes: [route('/', [a.url])] }), site({ routes: [route('/', [any.url])] })]),
  );
  try {
    t.is((await ask(only.port, '/', { host: 'A.test:80' })).body, 'a');
    t.is((await ask(only.port, '/', { host: 'b.test' })).status, 404);
    t.is((await ask(both.port, '/', { host: 'a.test' })).body, 'a');
    t.is((await ask(both.port, '/', { host: 'b.test' })).body, 'any');
  } finally {
    await only.gateway.shutdown();
    await both.gateway.shutdown();
    await a.close();
    await any.close();
  }
});

test('rate limits: 429 with Retry-After per client, counters summed per bucket, every bucket listed from start', async (t) => {
  const up = await startUpstream('up');
  const { gateway, port } = await startGateway(
    config([
      site({
        host: 'rl.test',
        routes: [route('/', [up.url]), route('/api', [up.url])],
        rateLimit: { site: { requests: 5, windowMs: 60_000 }, routes: { '/api': { requests: 2, windowMs: 60_000 } }, store: 'memory' },
      }),
      site({ routes: [route('/', [up.url])] }),
    ]),
  );
  try {
    t.deepEqual(gateway.rateLimits(), { 'rl.test:0': { '*': { passed: 0, rejected: 0 }, '/api': { passed: 0, rejected: 0 } } });
    const api = await askMany(port, '/api/x', 3, { host: 'rl.test' });
    t.deepEqual(
      api.map((a) => a.status),
      [200, 200, 429],
    );
    t.truthy(api[2]!.headers['retry-after']);
    t.true(Number(api[2]!.headers['retry-after']) >= 1);
    const other = await ask(port, '/api/x', { host: 'rl.test', localAddress: '127.0.0.2' });
    t.is(other.status, 200, 'another client has its own window');
    const site = await askMany(port, '/page', 3, { host: 'rl.test' });
    t.deepEqual(
      site.map((a) => a.status),
      [200, 200, 429],
    );
    t.deepEqual(gateway.rateLimits(), {
      'rl.test:0': { '*': { passed: 5, rejected: 1 }, '/api': { passed: 3, rejected: 1 } },
    });
    t.is((await ask(port, '/__health__', { host: 'rl.test' })).status, 200);
    t.is((await ask(port, '/page')).status, 200, 'the catch-all site has no limit');
  } finally {
    await gateway.shutdown();
    await up.close();
  }
});

test('ipFilter.deny and runtime denies answer 403; IPv4-mapped clients match IPv4 blocks', async (t) => {
  const up = await startUpstream('up');
  const { gateway, port } = await startGateway(
    config([site({ routes: [route('/', [up.url])], ipDeny: ['127.0.0.3/32'] })]),
  );
  const from = (address: string) => ask(port, '/', { localAddress: address });
  try {
    t.is((await from('127.0.0.3')).status, 403);
    t.is((await from('127.0.0.2')).status, 200);
    gateway.denyAdd('127.0.0.2');
    t.is((await from('127.0.0.2')).status, 403);
    t.is((await from('127.0.0.1')).status, 200);
    gateway.denyRemove('127.0.0.2/32');
    t.is((await from('127.0.0.2')).status, 200, 'removed by its normalised form');
    gateway.denyAdd('127.0.0.0/30');
    t.is((await from('127.0.0.1')).status, 403);
    gateway.denyRemove('127.0.0.1/30');
    t.is((await from('127.0.0.1')).status, 200, 'host bits are ignored when comparing blocks');
    gateway.denyRemove('127.0.0.3');
    t.is((await from('127.0.0.3')).status, 403, 'a config deny is not lifted by a runtime remove');
    gateway.denyAdd('::ffff:127.0.0.2');
    t.is((await from('127.0.0.2')).status, 403, 'an IPv4-mapped block matches the IPv4 client');
    gateway.denyAdd('2001:db8::/32');
    t.is(up.hits.length, 4);
    for (const bad of ['10.0.0.256', '10.0.0.0/33', 'fe80::/129', 'example.com', '10.1', '', '10.0.0.0/x']) {
      const error = t.throws(() => gateway.denyAdd(bad), { instanceOf: GatewayError });
      t.is(error?.code, 'bad-request', bad);
      t.throws(() => gateway.denyRemove(bad), { instanceOf: GatewayError });
    }
  } finally {
    await gateway.shutdown();
    await up.close();
  }
});

test('the metrics path serves Prometheus text with per-upstream counters', async (t) => {
  const up = await startUpstream('up');
  const { gateway, port } = await startGateway(
    config([site({ routes: [route('/', [up.url])], metricsPath: '/metrics' })]),
  );
  try {
    await askMany(port, '/x', 2);
    const answer = await ask(port, '/metrics');
    t.is(answer.status, 200);
    t.is(answer.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
    t.true(answer.body.includes(`gateway_upstream_requests_total{upstream="${up.url}"} 2`));
    t.true(answer.body.includes(`gateway_upstream_responses_total{upstream="${up.url}",class="2xx"} 2`));
    t.true(answer.body.includes('# TYPE gateway_inflight_requests gauge'));
    t.is(up.hits.length, 2, 'the metrics path is not proxied');
  } finally {
    await gateway.shutdown();
    await up.close();
  }
});
