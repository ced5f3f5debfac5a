import test from 'ava';
import { ask, askMany, config, route, site, sleep, startGateway, startUpstream, until } from '../runtime/test-support.ts';

const HEALTH = { path: '/health', intervalMs: 30, timeoutMs: 200, healthyThreshold: 2, unhealthyThreshold: 2 };

test('active health checks flip healthy/unhealthy by the thresholds; unhealthy targets are skipped', async (t) => {
  let failing = false;
  const a = await startUpstream('a', (req, res) => {
    if (req.url === '/health' && failing) res.writeHead(500).end();
    else res.end('a');
  });
  const b = await startUpstream('b');
  const { gateway, port } = await startGateway(
    config([site({ routes: [route('/', [a.url, b.url])], healthCheck: HEALTH })]),
  );
  const entryA = () => gateway.upstreams().upstreams[0]!;
  try {
    await until(() => gateway.status().total_probed_upstreams === 2, 3000, 'both upstreams probed');
    t.is(typeof entryA().latency_ms, 'number');
    t.is(gateway.upstreams().routes[0]!.targets[0]!.latency_ms, entryA().latency_ms);
    failing = true;
    await until(() => entryA().consecutive_failures >= 2, 3000, 'two failed probes');
    t.is(entryA().state, 'unhealthy');
    t.false(entryA().healthy);
    t.is(entryA().consecutive_successes, 0);
    t.is(gateway.status().healthy_upstreams, 1);
    t.deepEqual(
      (await askMany(port, '/', 4)).map((x) => x.body),
      ['b', 'b', 'b', 'b'],
    );
    failing = false;
    await until(() => entryA().consecutive_successes >= 2, 3000, 'two good probes');
    t.is(entryA().state, 'healthy');
    t.true(entryA().healthy);
    t.is(gateway.status().healthy_upstreams, 2);
    const c = await startUpstream('c');
    try {
      gateway.addTarget({ site: undefined, route: '/', target: c.url, weight: 1 });
      await until(() => gateway.status().total_probed_upstreams === 3, 3000, 'the added target probed');
      t.true(c.hits.some((hit) => hit.url === '/health'));
    } finally {
      await c.close();
    }
  } finally {
    await gateway.shutdown();
    await a.close();
    await b.close();
  }
});

test('a probe that times out fails; without healthCheck nothing is probed', async (t) => {
  const hang = await startUpstream('hang', () => {});
  const plain = await startUpstream('plain');
  const { gateway } = await startGateway(
    config([
      site({ routes: [route('/', [hang.url])], healthCheck: { ...HEALTH, timeoutMs: 50, unhealthyThreshold: 1 } }),
      site({ port: 0, host: 'other.test', routes: [route('/', [plain.url])] }),
    ]),
  );
  try {
    await until(() => gateway.upstreams().upstreams[0]!.state === 'unhealthy', 3000, 'the hanging upstream unhealthy');
    const other = gateway.upstreams().upstreams[1]!;
    t.is(other.latency_ms, null);
    t.true(other.healthy);
    t.is(gateway.status().total_probed_upstreams, 1);
  } finally {
    await gateway.shutdown();
    await hang.close();
    await plain.close();
  }
});

test('outlier detection: ejected after consecutive 5xx, half-open after the backoff, healthy after a good probe request', async (t) => {
  let broken = true;
  const a = await startUpstream('a', (_req, res) => (broken ? res.writeHead(500).end('a-500') : res.end('a')));
  const b = await startUpstream('b');
  const { gateway, port } = await startGateway(
    config([
      site({
        routes: [route('/', [a.url, b.url])],
        outlierDetection: { consecutive5xx: 2, baseEjectionMs: 400, maxEjectionMs: 1000 },
      }),
    ]),
  );
  const entryA = () => gateway.upstreams().upstreams[0]!;
  try {
    const answers = await askMany(port, '/', 4);
    t.deepEqual(
      answers.map((x) => x.body),
      ['a-500', 'b', 'a-500', 'b'],
    );
    t.is(entryA().state, 'ejected');
    t.true(entryA().ejected);
    t.is(entryA().consecutive_5xx, 2);
    t.true(entryA().healthy, 'ejection does not clear healthy');
    t.deepEqual(
      (await askMany(port, '/', 3)).map((x) => x.body),
      ['b', 'b', 'b'],
    );
    await sleep(450);
    t.is(entryA().state, 'half-open');
    t.false(entryA().ejected);
    broken = false;
    const probe = await askMany(port, '/', 2);
    t.true(probe.some((x) => x.body === 'a'));
    t.is(entryA().state, 'healthy');
    t.is(entryA().consecutive_5xx, 0);
  } finally {
    await gateway.shutdown();
    await a.close();
    await b.close();
  }
});

test('a failed half-open probe ejects again with a doubled backoff', async (t) => {
  const a = await startUpstream('a', (_req, res) => res.writeHead(503).end('a-503'));
  const { gateway, port } = await startGateway(
    config([
      site({
        routes: [route('/', [a.url])],
        outlierDetection: { consecutive5xx: 1, baseEjectionMs: 300, maxEjectionMs: 1200 },
      }),
    ]),
  );
  const state = () => gateway.upstreams().upstreams[0]!.state;
  try {
    t.is((await ask(port, '/')).status, 503);
    t.is(state(), 'ejected');
    t.is((await ask(port, '/')).status, 503, 'no usable target: the gateway answers 503 itself');
    t.is(a.hits.length, 1);
    await sleep(330);
    t.is(state(), 'half-open');
    t.is((await ask(port, '/')).body, 'a-503', 'the half-open probe reaches the upstream');
    t.is(state(), 'ejected');
    await sleep(330);
    t.is(state(), 'ejected', 'the second backoff is doubled (600 ms)');
    await sleep(330);
    t.is(state(), 'half-open');
  } finally {
    await gateway.shutdown();
    await a.close();
  }
});

test('a killed upstream is ejected and recovers through half-open once it is back', async (t) => {
  const a = await startUpstream('a');
  const b = await startUpstream('b');
  const port0 = a.port;
  const { gateway, port } = await startGateway(
    config([
      site({
        routes: [route('/', [a.url, b.url])],
        outlierDetection: { consecutive5xx: 1, baseEjectionMs: 400, maxEjectionMs: 400 },
        retries: 1,
      }),
    ]),
  );
  const entryA = () => gateway.upstreams().upstreams[0]!;
  try {
    await a.close();
    const answers = await askMany(port, '/', 3);
    t.deepEqual(
      answers.map((x) => [x.status, x.body]),
      [
        [200, 'b'],
        [200, 'b'],
        [200, 'b'],
      ],
    );
    t.is(entryA().state, 'ejected');
    const back = await startUpstream('a again', undefined, port0);
    try {
      await sleep(450);
      t.is(entryA().state, 'half-open');
      await askMany(port, '/', 2);
      t.is(entryA().state, 'healthy');
    } finally {
      await back.close();
    }
  } finally {
    await gateway.shutdown();
    await b.close();
  }
});
