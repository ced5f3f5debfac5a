// The public side the document names (document 001, "What the service does"): GET /__health__, the metrics
// path, requests forwarded by route; and the reference's choices for what it leaves open (status codes,
// prefix matching, no usable target). One shared gateway; a second site carries a rate limit.
import { randomBytes } from 'node:crypto';
import { check, type CaseContext } from '../harness/index.ts';
import { is2xx, jsonObject, shown } from './admin-client.ts';
import { type Gateway, sharedGateway } from './gateway.ts';
import type { GatewaySetup } from './setup.ts';
import { GATEWAY, needs, offers } from './target.ts';
import { fared, send } from './traffic.ts';
import { sharedUpstreams, type Upstream } from './upstream.ts';

const METRICS_PATH = '/stats/prom';

async function planeGateway(c: CaseContext): Promise<{ g: Gateway; up: Record<string, Upstream> }> {
  const ups = await sharedUpstreams('plane', 'a', 'b', 'api', 'v2', 'gone', 'dead');
  const up = Object.fromEntries(ups.map((u) => [u.name, u]));
  const g = await sharedGateway(c, 'plane', async () => {
    await up.dead!.kill();
    return planeSetup(up);
  });
  return { g, up };
}

function planeSetup(up: Record<string, Upstream>): GatewaySetup {
  return {
    sites: [
      {
        routes: [
          { path: '/a', targets: [up.a!.url] },
          { path: '/b', targets: [up.b!.url] },
          { path: '/api', targets: [up.api!.url] },
          { path: '/api/v2', targets: [up.v2!.url] },
          { path: '/gone', targets: [up.gone!.url] },
          { path: '/dead', targets: [up.dead!.url] },
        ],
        ...(offers('metrics') ? { metrics: { path: METRICS_PATH } } : {}),
      },
      // Site 1: a rate limit, and metrics without a path; site 2: no metrics section.
      {
        routes: [{ path: '/', targets: [up.a!.url] }],
        ...(offers('rate-limit') ? { rateLimit: { requests: 1, windowMs: 60_000 } } : {}),
        ...(offers('metrics') ? { metrics: {} } : {}),
      },
      { routes: [{ path: '/nothing', targets: [up.a!.url] }] },
    ],
  };
}

check('gateway/data-plane/health-endpoint/status-ok-object', GATEWAY, async (t, c) => {
  const { g } = await planeGateway(c);
  const res = await g.http.get('/__health__');
  t.is(jsonObject(res)?.status, 'ok', `GET /__health__: ${shown(res)}`);
});

check('gateway/data-plane/metrics-path/served-at-configured-path', needs('metrics'), async (t, c) => {
  const { g } = await planeGateway(c);
  await c.need('a request to /a', send(g.http, '/a', []));
  const res = await g.http.get(METRICS_PATH);
  t.true(res.status >= 200 && res.status < 300 && res.body.length > 0, `GET ${METRICS_PATH}: ${shown(res)}`);
});

check('gateway/data-plane/proxy-by-route/prefix-to-its-target', GATEWAY, async (t, c) => {
  const { g, up } = await planeGateway(c);
  const all = Object.values(up);
  const a = await send(g.http, '/a', all);
  const b = await send(g.http, '/b', all);
  t.deepEqual(a.by, ['a'], fared(a));
  t.deepEqual(b.by, ['b'], fared(b));
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('gateway/data-plane/health-response-details/200-json-exact-before-limits', GATEWAY, async (t, c) => {
  const { g } = await planeGateway(c);
  const res = await g.http.get('/__health__');
  t.is(res.status, 200);
  t.regex(String(res.headers['content-type']), /^application\/json/);
  t.is(res.text, '{"status":"ok"}');
  const limited = g.site(1);
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) statuses.push((await limited.get('/__health__')).status);
  t.deepEqual(statuses, [200, 200, 200, 200], 'on a site limited to one request a minute');
});

check('gateway/data-plane/metrics-format/prometheus-text-default-path', needs('metrics'), async (t, c) => {
  const { g } = await planeGateway(c);
  const res = await g.http.get(METRICS_PATH);
  t.regex(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  t.is((await g.site(1).get('/metrics')).status, 200, 'metrics without a path');
  t.is((await g.site(2).get('/metrics')).status, 404, 'no metrics section');
});

check('gateway/data-plane/route-prefix-matching/segment-boundary-longest-wins-path-unchanged', GATEWAY, async (t, c) => {
  const { g, up } = await planeGateway(c);
  const all = Object.values(up);
  const v2 = await send(g.http, '/api/v2', all);
  t.deepEqual(v2.by, ['v2'], `/api/v2/… goes to the longer prefix: ${fared(v2)}`);
  t.deepEqual(v2.arrived, [v2.path], 'forwarded with its path unchanged');
  const v1 = await send(g.http, '/api/v1', all);
  t.deepEqual(v1.by, ['api'], fared(v1));
  t.deepEqual(v1.arrived, [v1.path], 'forwarded with its path unchanged');
  const apix = await send(g.http, '/apix', all);
  t.deepEqual(apix.by, [], `/apix… is not under /api: ${fared(apix)}`);
  // The prefix itself matches its route; a query tells this request apart.
  const exact = `/api?r=${randomBytes(6).toString('hex')}`;
  const res = await g.http.get(exact);
  t.deepEqual(
    all.flatMap((u) => u.received.filter((r) => r.url.endsWith(exact.slice(exact.indexOf('?')))).map((r) => `${u.name} ${r.url}`)),
    [`api ${exact}`],
    `GET ${exact}: ${res.status}`,
  );
});

check('gateway/data-plane/no-upstream-available-503/removed-503-unreachable-502', GATEWAY, async (t, c) => {
  const { g, up } = await planeGateway(c);
  // "All removed" needs the last target removed, itself a choice (gateway/upstreams/remove-last-target): a
  // gateway refusing it does not reach this state this way, said as a failed check.
  const removed = await g.admin.post('/upstreams/remove', { route: '/gone', target: up.gone!.url });
  if (t.true(is2xx(removed), `removing the only target of /gone: ${shown(removed)}`)) {
    const none = await send(g.http, '/gone', []);
    t.is(none.res?.status, 503, fared(none));
  }
  const unreachable = await send(g.http, '/dead', []);
  t.is(unreachable.res?.status, 502, fared(unreachable));
});
