// What the document leaves open about a request's reading and whom an answer is for (catalog
// gateway/data-plane/request-target-normalised, cache-per-identity, site-auth/forward-auth-request): the
// reference's choices, each an informational case, as users of a gateway expect them (a request routed one
// way is not limited, cached or forwarded another; an answer fetched for one client is not served to another;
// a header only the auth service may give is not the client's). One departure is a line of the report,
// never a failure.
import { randomBytes } from 'node:crypto';
import { check } from '../harness/index.ts';
import { startGateway } from './gateway.ts';
import { GATEWAY, needs } from './target.ts';
import { fared, freshPath, send } from './traffic.ts';
import { startUpstreams } from './upstream.ts';

const marker = (): string => `t-${randomBytes(6).toString('hex')}`;

check('gateway/data-plane/request-target-normalised/dot-segments-not-routed-by-raw-prefix', GATEWAY, async (t, c) => {
  const [a, b] = await startUpstreams(c, 'a', 'b');
  const g = await startGateway(c, { admin: false, sites: [{ routes: [{ path: '/a', targets: [a!.url] }, { path: '/b', targets: [b!.url] }] }] });
  for (const dots of ['..', '%2e%2e', '.%2E']) {
    const mark = marker();
    const res = await c.need(`GET /a/${dots}/b/${mark}`, g.http.get(`/a/${dots}/b/${mark}`));
    const byA = a!.received.filter((r) => r.url.includes(mark));
    t.deepEqual(byA.map((r) => r.url), [], `/a/${dots}/b/${mark} (answered ${res.status}) reached the /a route as ${byA.map((r) => r.url)}`);
    const byB = b!.received.filter((r) => r.url.includes(mark));
    t.true(byB.every((r) => !r.url.includes(dots)), `the /b route got the dot segments: ${byB.map((r) => r.url)}`);
  }
});

check('gateway/data-plane/request-target-normalised/above-root-400', GATEWAY, async (t, c) => {
  const [a] = await startUpstreams(c, 'a');
  const g = await startGateway(c, { admin: false, sites: [{ routes: [{ path: '/', targets: [a!.url] }] }] });
  const mark = marker();
  const res = await c.need('GET above the root', g.http.get(`/x/../../${mark}`));
  t.is(res.status, 400, `/x/../../${mark}`);
  t.false(a!.received.some((r) => r.url.includes(mark)), 'the upstream was asked');
});

check('gateway/data-plane/cache-per-identity/api-keys-not-shared', needs('cache', 'api-key'), async (t, c) => {
  const [up] = await startUpstreams(c, 'up');
  up!.answer = () => ({ headers: { 'cache-control': 'public, max-age=300' } });
  const g = await startGateway(c, {
    admin: false,
    sites: [{ routes: [{ path: '/', targets: [up!.url] }], cache: { ttlMs: 300_000 }, apiKey: { header: 'X-API-Key', keys: ['key-alice-31f', 'key-bob-9c2'] } }],
  });
  const path = freshPath('/');
  await c.need('GET with alice’s key', g.http.get(path, { 'x-api-key': 'key-alice-31f' }));
  await c.need('GET with alice’s key again', g.http.get(path, { 'x-api-key': 'key-alice-31f' }));
  if (up!.got(path).length !== 1) c.inconclusive(`the cache did not serve alice's repeated GET of ${path} (the upstream saw it ${up!.got(path).length} times)`);
  await c.need('GET with bob’s key', g.http.get(path, { 'x-api-key': 'key-bob-9c2' }));
  t.is(up!.got(path).length, 2, `bob's GET of ${path} was answered from alice's cached answer`);
});

check('gateway/site-auth/forward-auth-request/unanswered-copy-header-not-the-clients', needs('forward-auth'), async (t, c) => {
  const [a, auth] = await startUpstreams(c, 'a', 'auth');
  auth!.answer = () => ({ status: 200, body: '{}' });
  const g = await startGateway(c, { admin: false, sites: [{ routes: [{ path: '/', targets: [a!.url] }], forwardAuth: { url: `${auth!.url}/verify`, copyHeaders: ['X-User'] } }] });
  const sent = await send(g.http, '/', [a!], { 'x-user': 'root' });
  if (!sent.reached) c.inconclusive(`the request did not reach the upstream (gateway/site-auth/forward-auth): ${fared(sent)}`);
  t.is(a!.got(sent.path)[0]?.headers['x-user'], undefined, 'the client’s own X-User reached the upstream, though the auth service did not answer one');
});
