import { check, freePorts, type HttpResponse } from '../harness/index.ts';
import { fallThroughStatus, startSite } from './site.ts';
import { type Echo, startUpstream } from './upstream.ts';

const launch = { needs: ['launch'] };

/** Which upstream answered: its own header (set on every answer of the case's upstreams). */
const upstreamOf = (res: HttpResponse): string => String(res.headers['x-upstream'] ?? `none (${res.status})`);

check('static/proxy/string-target/everything-forwarded', launch, async (t, c) => {
  const up = await startUpstream(c, 'up');
  const site = await startSite(c, { config: { proxy: up.url } });
  const a = await site.http.get('/any/path?x=1');
  const b = await site.http.get('/');
  t.is(upstreamOf(a), 'up');
  t.is(upstreamOf(b), 'up');
  t.is(up.received.length, 2);
});

check('static/proxy/prefix-object/prefix-goes-to-its-target', launch, async (t, c) => {
  const a = await startUpstream(c, 'a');
  const b = await startUpstream(c, 'b');
  const site = await startSite(c, { config: { proxy: { '/api': a.url, '/auth': b.url } } });
  t.is(upstreamOf(await site.http.get('/api/users')), 'a');
  t.is(upstreamOf(await site.http.get('/auth/login')), 'b');
});

check('static/proxy/non-matching-not-forwarded/goes-to-unhandled', launch, async (t, c) => {
  const a = await startUpstream(c, 'a');
  const site = await startSite(c, { config: { proxy: { '/api': a.url } } });
  const res = await site.http.get('/elsewhere');
  t.is(a.received.length, 0);
  // The unhandled step's answer: that of a path nothing handles (its status is static/unhandled/default-404's).
  t.is(res.status, await fallThroughStatus(c, site));
});

check('static/proxy/round-robin/targets-in-turn', launch, async (t, c) => {
  const a = await startUpstream(c, 'a');
  const b = await startUpstream(c, 'b');
  const d = await startUpstream(c, 'c');
  const site = await startSite(c, { config: { proxy: { '/api': [a.url, b.url, d.url] } } });
  const seen: string[] = [];
  for (let i = 0; i < 7; i++) seen.push(upstreamOf(await site.http.get(`/api/${i}`)));
  // In turn, cycling; where the turn starts is static/proxy/round-robin-scope.
  const order = ['a', 'b', 'c'];
  const first = order.indexOf(seen[0] ?? '');
  t.deepEqual(
    seen,
    seen.map((_, i) => order[(Math.max(first, 0) + i) % 3]),
    'not the targets in turn',
  );
});

check('static/proxy/no-health-checks/down-target-keeps-its-turn', launch, async (t, c) => {
  const a = await startUpstream(c, 'a');
  const [deadPort] = await freePorts(1);
  const site = await startSite(c, { config: { proxy: { '/api': [a.url, `http://127.0.0.1:${deadPort}`] } } });
  // A failed request: a 5xx, or no answer at all. Where the turn starts is open.
  const outcomes: string[] = [];
  for (let i = 0; i < 4; i++) {
    const res = await site.http.get('/api/x').catch(() => undefined);
    outcomes.push(res === undefined || res.status >= 500 ? 'failed' : res.headers['x-upstream'] === 'a' ? 'a' : `other ${res.status}`);
  }
  t.true(
    ['a,failed,a,failed', 'failed,a,failed,a'].includes(outcomes.join(',')),
    `want the live and the dead target in turn: ${outcomes.join(', ')}`,
  );
});

check('static/proxy/array-of-prefix-objects/each-entry-forwarded', launch, async (t, c) => {
  const a = await startUpstream(c, 'a');
  const b = await startUpstream(c, 'b');
  const d = await startUpstream(c, 'c');
  const site = await startSite(c, { config: { proxy: [{ '/one': a.url }, { '/two': [b.url, d.url] }] } });
  t.is(upstreamOf(await site.http.get('/one/x')), 'a');
  const two = [upstreamOf(await site.http.get('/two/x')), upstreamOf(await site.http.get('/two/x'))];
  t.deepEqual([...two].sort(), ['b', 'c'], `/two's targets in turn: ${two.join(', ')}`);
});

check('static/proxy/request-relayed/method-headers-body-both-ways', launch, async (t, c) => {
  const up = await startUpstream(c, 'up', () => ({ status: 201, headers: { 'x-reply': 'yes' }, body: 'CREATED' }));
  const site = await startSite(c, { config: { proxy: { '/api': up.url } } });
  const res = await site.http.request({
    method: 'PUT',
    path: '/api/items/7',
    headers: { 'x-test': 'relay', 'content-type': 'text/plain' },
    body: 'payload ü',
  });
  t.is(res.status, 201);
  t.is(res.headers['x-reply'], 'yes');
  t.is(res.text, 'CREATED');
  if (!t.is(up.received.length, 1, 'requests that reached the upstream')) return;
  const got = up.received[0]!;
  t.is(got.method, 'PUT');
  t.is(got.headers['x-test'], 'relay');
  t.is(got.body, 'payload ü');
});

// A DELETE or OPTIONS body sent chunked (no Content-Length) is a body like any other: found by mutation
// testing (tools/mutate/answers/static.yaml), the reference dropped it as http-proxy does.
check('static/proxy/request-relayed/delete-and-options-chunked-bodies', launch, async (t, c) => {
  const up = await startUpstream(c, 'up');
  const site = await startSite(c, { config: { proxy: { '/api': up.url } } });
  for (const method of ['DELETE', 'OPTIONS']) {
    const headers = { 'transfer-encoding': 'chunked', 'content-type': 'text/plain' };
    await c.need(`${method} with a chunked body`, site.http.request({ method, path: '/api/items/7', headers, body: `${method} payload` }));
  }
  t.deepEqual(
    up.received.map((r) => [r.method, r.body]),
    [
      ['DELETE', 'DELETE payload'],
      ['OPTIONS', 'OPTIONS payload'],
    ],
  );
});

check('static/proxy/prefix-forwarded/full-path-and-query', launch, async (t, c) => {
  const up = await startUpstream(c, 'up');
  const site = await startSite(c, { config: { proxy: { '/api': up.url } } });
  t.is((await site.http.get('/api/users?page=2')).json<Echo>().url, '/api/users?page=2');
});

check('static/proxy/prefix-matching/segment-boundary-longest-wins', launch, async (t, c) => {
  const a = await startUpstream(c, 'a');
  const b = await startUpstream(c, 'b');
  const site = await startSite(c, { config: { proxy: { '/api': a.url, '/api/v2': b.url } } });
  t.is((await site.http.get('/api/v2/x')).json<Echo>().upstream, 'b');
  t.is((await site.http.get('/api/v1/x')).json<Echo>().upstream, 'a');
  t.is((await site.http.get('/apix')).status, 404);
});

check('static/proxy/round-robin-scope/per-prefix', launch, async (t, c) => {
  const a = await startUpstream(c, 'a');
  const b = await startUpstream(c, 'b');
  const site = await startSite(c, { config: { proxy: { '/one': [a.url, b.url], '/two': [a.url, b.url] } } });
  const seen = [
    (await site.http.get('/one/x')).json<Echo>().upstream,
    (await site.http.get('/two/x')).json<Echo>().upstream,
    (await site.http.get('/one/x')).json<Echo>().upstream,
  ];
  t.deepEqual(seen, ['a', 'a', 'b']);
});

check('static/proxy/host-and-forwarded-headers/target-host-and-x-forwarded', launch, async (t, c) => {
  const up = await startUpstream(c, 'up');
  const site = await startSite(c, { config: { proxy: up.url } });
  const echo = (await site.http.get('/x', { host: 'front.test' })).json<Echo>();
  t.is(echo.headers.host, `127.0.0.1:${up.port}`);
  t.truthy(echo.headers['x-forwarded-for']);
  t.is(echo.headers['x-forwarded-host'], 'front.test');
});

check('static/proxy/upstream-unreachable/502', launch, async (t, c) => {
  const [deadPort] = await freePorts(1);
  const site = await startSite(c, { config: { proxy: `http://127.0.0.1:${deadPort}`, healthCheck: true } });
  t.is((await site.http.get('/x')).status, 502);
  t.is((await site.http.get('/__health__')).status, 200, 'the server did not survive');
});
