// Rate limits kept in Redis (rateLimit.store: redis): two gateways on one Redis limit a client as one, the
// buckets stay out of GET /rate-limits, and a Redis that is gone lets requests through (counted and logged)
// instead of holding them. Needs Debian's redis-server.
import test from 'ava';
import { hasRedisServer, startRedis } from '../../../conformance/harness/redis-server.ts';
import { ask, config, route, site, startGateway, startUpstream } from '../runtime/test-support.ts';

const serial = hasRedisServer() ? test.serial : test.skip;

serial('two gateways on one Redis limit a client as one; Redis buckets are not listed', async (t) => {
  const redis = await startRedis();
  const up = await startUpstream('up');
  const keyPrefix = `t${Date.now()}:`;
  const limited = (host: string) =>
    config([site({ host, routes: [route('/', [up.url])], rateLimit: { site: { requests: 4, windowMs: 60_000 }, routes: {}, store: 'redis' } })], {
      global: { admin: undefined, shutdownTimeoutSecs: 1, redis: { url: redis.url, keyPrefix } },
    });
  const one = await startGateway(limited('api.test'));
  const two = await startGateway(limited('api.test'));
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await ask(i % 2 === 0 ? one.port : two.port, '/x', { host: 'api.test' })).status);
    t.deepEqual(statuses, [200, 200, 200, 200, 429, 429, 429, 429, 429, 429]);
    t.deepEqual(one.gateway.rateLimits(), {});
    const refused = await ask(two.port, '/x', { host: 'api.test' });
    t.regex(String(refused.headers['retry-after']), /^\d+$/);

    await redis.kill();
    const passed = await ask(one.port, '/x', { host: 'api.test' });
    t.is(passed.status, 200, 'Redis gone: the request is let through');
  } finally {
    await one.gateway.shutdown();
    await two.gateway.shutdown();
    await up.close();
    await redis.close();
  }
});
