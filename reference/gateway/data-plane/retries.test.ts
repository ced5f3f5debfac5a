import test from 'ava';
import { ask, config, deadUrl, route, site, startGateway, startUpstream, until } from '../runtime/test-support.ts';

test('a connection failure is retried on another target', async (t) => {
  const dead = await deadUrl();
  const b = await startUpstream('b');
  const { gateway, port } = await startGateway(config([site({ routes: [route('/', [dead, b.url])], retries: 1 })]));
  try {
    const answer = await ask(port, '/x');
    t.is(answer.status, 200);
    t.is(answer.body, 'b');
    const [deadEntry, bEntry] = gateway.upstreams().upstreams;
    t.is(deadEntry!.selected.total, 1);
    t.is(bEntry!.selected.total, 1);
    t.is(gateway.status().retry_inflight, 0);
  } finally {
    await gateway.shutdown();
    await b.close();
  }
});

test('502/503/504 answers are retried on another target; retry_inflight counts the retry under way', async (t) => {
  const held: Array<() => void> = [];
  const a = await startUpstream('a', (_req, res) => res.writeHead(503).end('a-503'));
  const b = await startUpstream('b', (_req, res) => held.push(() => res.end('b')));
  const { gateway, port } = await startGateway(config([site({ routes: [route('/', [a.url, b.url])], retries: 1 })]));
  try {
    const pending = ask(port, '/x');
    await until(() => held.length === 1, 3000, 'the retry to reach b');
    t.is(gateway.status().retry_inflight, 1);
    t.is(gateway.status().inflight, 1);
    held[0]!();
    const answer = await pending;
    t.is(answer.status, 200);
    t.is(answer.body, 'b');
    await until(() => gateway.status().inflight === 0);
    t.is(gateway.status().retry_inflight, 0);
    t.is(gateway.upstreams().upstreams[0]!.responses['5xx'], 1);
  } finally {
    for (const release of held) release();
    await gateway.shutdown();
    await a.close();
    await b.close();
  }
});

test('without retries, or with no other target, the failure reaches the client; 500 is not retried', async (t) => {
  const a = await startUpstream('a', (_req, res) => res.writeHead(502).end('a-502'));
  const c = await startUpstream('c', (_req, res) => res.writeHead(500).end('c-500'));
  const b = await startUpstream('b');
  const { gateway, port } = await startGateway(
    config([
      site({
        routes: [route('/none', [a.url, b.url]), route('/single', [a.url]), route('/500', [c.url, b.url])],
        retries: 0,
      }),
      site({ host: 'retry.test', routes: [route('/single', [a.url]), route('/500', [c.url, b.url])], retries: 2 }),
    ]),
  );
  try {
    t.is((await ask(port, '/none')).body, 'a-502');
    t.is((await ask(port, '/single', { host: 'retry.test' })).body, 'a-502');
    t.is((await ask(port, '/500', { host: 'retry.test' })).body, 'c-500');
    t.is(b.hits.length, 0);
  } finally {
    await gateway.shutdown();
    await Promise.all([a, b, c].map((u) => u.close()));
  }
});

test('a request body is streamed to the upstream and not retried', async (t) => {
  const dead = await deadUrl();
  const echo = await startUpstream('echo', (_req, res, hit) => res.end(`got ${hit.body.length}`));
  const { gateway, port } = await startGateway(
    config([site({ routes: [route('/up', [echo.url]), route('/dead', [dead, echo.url])], retries: 1 })]),
  );
  try {
    const body = 'x'.repeat(200_000);
    const answer = await ask(port, '/up', { method: 'POST', body });
    t.is(answer.body, 'got 200000');
    t.is((await ask(port, '/dead', { method: 'POST', body: 'abc' })).status, 502);
  } finally {
    await gateway.shutdown();
    await echo.close();
  }
});
