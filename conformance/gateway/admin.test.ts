// The admin server itself (document 001, "What the service does", "Endpoints"): started only with
// `global.admin`, JSON objects in and out, no version segment in its paths; and the reference's choices for
// what the document leaves open (status codes, unknown paths and methods, malformed bodies).
import { allCalls } from './calls.ts';
import { check, type CaseContext, type HttpResponse } from '../harness/index.ts';
import { errorBody, is2xx, jsonObject, shown, successBody } from './admin-client.ts';
import { SECOND } from './tls.ts';
import { clientAddress, type Gateway, sharedGateway, startGateway } from './gateway.ts';
import { listeningPortsOver } from './listening.ts';
import { type GatewaySetup, targetUrl } from './setup.ts';
import { GATEWAY, needs, offers, purgeWithoutCacheIs501 } from './target.ts';
import { fared, send } from './traffic.ts';
import { sharedUpstreams, spareUrl, startUpstreams } from './upstream.ts';

/** How long the listening sockets of a gateway without admin are watched once it carries traffic. */
const SETTLE_MS = 1_500;

/** The file's shared gateway: `/api` and `/spare` (the route whose targets the cases add and remove). */
async function adminGateway(c: CaseContext): Promise<{ g: Gateway; spare: string }> {
  const [a, b] = await sharedUpstreams('admin', 'a', 'b');
  const g = await sharedGateway(c, 'admin', () => ({
    sites: [
      {
        routes: [
          { path: '/api', targets: [a!.url] },
          { path: '/spare', targets: [b!.url] },
        ],
        ...(offers('rate-limit') ? { rateLimit: { requests: 2, windowMs: 60_000 } } : {}),
      },
    ],
  }));
  return { g, spare: b!.url };
}

/** A gateway of the case's own whose every endpoint the case calls (shutdown last). */
async function throwaway(c: CaseContext): Promise<Gateway> {
  const [a, b] = await startUpstreams(c, 'a', 'b');
  const setup: GatewaySetup = {
    sites: [{ routes: [{ path: '/api', targets: [a!.url, b!.url] }], ...(offers('cache') ? { cache: { ttlMs: 60_000, maxEntries: 100 } } : {}) }],
  };
  return startGateway(c, setup);
}

const everyCall = (g: Gateway, existing: string) =>
  allCalls({
    route: '/api',
    existing,
    extra: spareUrl(),
    denyAdd: '192.0.2.10',
    denyDelete: '192.0.2.11',
    purgeUrl: `http://127.0.0.1:${g.rendered.sitePorts[0]}/api/x?y=1`,
  });

check('gateway/admin/started-only-with-global-admin/no-admin-section-no-admin-port', GATEWAY, async (t, c) => {
  const [a] = await startUpstreams(c, 'a');
  const g = await startGateway(c, { sites: [{ routes: [{ path: '/', targets: [a!.url] }] }], admin: false });
  // Started means its sites accept connections; an admin server opened later in start-up must be seen too, so
  // the data plane first carries a request, then the sockets are watched a while.
  await c.need('a request through the site', send(g.site(0), '/', [a!], g.hostHeader(0)).then((s) => (s.reached ? s : Promise.reject(new Error(fared(s))))));
  const ports = await listeningPortsOver(g.launched, SETTLE_MS);
  if (ports === undefined) return c.inconclusive('the processes of the target could not be found in /proc to list their listening sockets');
  t.deepEqual(ports, g.rendered.sitePorts, `without global.admin the gateway listened on ${ports.join(', ')} within ${SETTLE_MS} ms of carrying a request; its site listens on ${g.rendered.sitePorts.join(', ')}`);
});

check('gateway/admin/started-only-with-global-admin/admin-section-admin-answers', GATEWAY, async (t, c) => {
  const { g } = await adminGateway(c);
  const res = await g.admin.get('/status').catch((err: Error) => err);
  t.true(!(res instanceof Error) && is2xx(res), `GET /status on global.admin.bind ${g.admin.address}: ${res instanceof Error ? res.message : shown(res)}`);
});

check('gateway/admin/json-object-responses/every-endpoint-answers-an-object', GATEWAY, async (t, c) => {
  const g = await throwaway(c);
  const existing = targetUrl(g.rendered.neutral.sites[0]!.routes![0]!.targets[0]!);
  const calls = [...everyCall(g, existing)];
  // An error answer too, before shutdown.
  calls.splice(calls.length - 1, 0, { endpoint: calls[0]!.endpoint, call: { method: 'POST', path: '/ip-deny', body: { cidr: 'not-an-address' } } });
  for (const { call } of calls) {
    const res = await c.need(`${call.method} ${call.path}`, g.admin.call(call));
    t.true(jsonObject(res) !== undefined, `${call.method} ${call.path}: the body is not a JSON object: ${shown(res)}`);
  }
});

check('gateway/admin/json-request-bodies/json-object-bodies-accepted', GATEWAY, async (t, c) => {
  const { g } = await adminGateway(c);
  const target = spareUrl();
  const cidr = clientAddress();
  for (const [path, method, body] of [
    ['/upstreams/add', 'POST', { route: '/spare', target, weight: 2 }],
    ['/upstreams/weight', 'POST', { route: '/spare', target, weight: 3 }],
    ['/upstreams/remove', 'POST', { route: '/spare', target }],
    ['/ip-deny', 'POST', { cidr }],
    ['/ip-deny', 'DELETE', { cidr }],
  ] as const) {
    const res = await g.admin.call({ method, path, body, headers: { 'content-type': 'application/json' } });
    successBody(t, res, `${method} ${path} ${JSON.stringify(body)}`);
  }
});

check('gateway/versioning/no-path-version/endpoints-at-root', GATEWAY, async (t, c) => {
  const { g } = await adminGateway(c);
  for (const path of ['/status', '/upstreams', '/rate-limits']) successBody(t, await g.admin.get(path), `GET ${path}`);
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('gateway/admin/success-http-200/every-success-200-json', GATEWAY, async (t, c) => {
  const g = await throwaway(c);
  const existing = targetUrl(g.rendered.neutral.sites[0]!.routes![0]!.targets[0]!);
  for (const { endpoint, call } of everyCall(g, existing)) {
    if (endpoint.name === 'certs-reload' || (endpoint.name === 'cache-purge' && !offers('cache'))) continue;
    const res = await g.admin.call(call);
    t.is(res.status, 200, `${call.method} ${call.path}: ${shown(res)}`);
    t.regex(String(res.headers['content-type']), /^application\/json/, `${call.method} ${call.path}`);
  }
});

check('gateway/admin/unknown-path-404/error-body-names-path', GATEWAY, async (t, c) => {
  const { g } = await adminGateway(c);
  const res = await g.admin.get('/v1/status');
  const body = jsonObject(res);
  t.is(res.status, 404, shown(res));
  t.is(body?.status, 'error');
  t.true(String(body?.message).includes('/v1/status'), `message: ${body?.message}`);
});

check('gateway/admin/wrong-method-405/allow-header', GATEWAY, async (t, c) => {
  const { g } = await adminGateway(c);
  for (const [method, path, allowed] of [
    ['GET', '/reload', ['POST']],
    ['GET', '/ip-deny', ['POST', 'DELETE']],
    ['POST', '/status', ['GET']],
  ] as const) {
    const res = await g.admin.call({ method, path });
    t.is(res.status, 405, `${method} ${path}: ${shown(res)}`);
    t.is(jsonObject(res)?.status, 'error', `${method} ${path}: ${res.text}`);
    const allow = String(res.headers.allow ?? '')
      .split(',')
      .map((m) => m.trim());
    for (const m of allowed) t.true(allow.includes(m), `${method} ${path}: Allow ${res.headers.allow}`);
  }
});

check('gateway/admin/invalid-json-body-400/malformed-and-non-object', GATEWAY, async (t, c) => {
  const { g } = await adminGateway(c);
  for (const body of ['{"cidr": ', '["10.0.0.1"]', '"10.0.0.1"']) {
    const res = await g.admin.call({ method: 'POST', path: '/ip-deny', body, headers: { 'content-type': 'application/json' } });
    t.is(res.status, 400, `POST /ip-deny ${body}: ${shown(res)}`);
    t.is(jsonObject(res)?.status, 'error', `POST /ip-deny ${body}: ${res.text}`);
  }
});

check('gateway/admin/wrong-content-type-415/other-type-refused-none-parsed', GATEWAY, async (t, c) => {
  const { g } = await adminGateway(c);
  const cidr = clientAddress();
  const text = await g.admin.call({ method: 'POST', path: '/ip-deny', body: JSON.stringify({ cidr }), headers: { 'content-type': 'text/plain' } });
  t.is(text.status, 415, `text/plain: ${shown(text)}`);
  t.is(jsonObject(text)?.status, 'error', text.text);
  const charset = await g.admin.call({ method: 'POST', path: '/ip-deny', body: { cidr }, headers: { 'content-type': 'application/json; charset=utf-8' } });
  t.true(is2xx(charset), `application/json; charset=utf-8: ${shown(charset)}`);
  const body = JSON.stringify({ cidr });
  const none = await g.admin.http.request({
    method: 'DELETE',
    path: '/ip-deny',
    headers: { ...(g.admin.token ? { authorization: `Bearer ${g.admin.token}` } : {}), 'content-length': String(body.length) },
    body,
  });
  t.true(is2xx(none), `no Content-Type: ${shown(none)}`);
});

check('gateway/admin/unknown-body-fields-ignored/extra-fields-accepted', GATEWAY, async (t, c) => {
  const { g, spare } = await adminGateway(c);
  const weight = await g.admin.post('/upstreams/weight', { route: '/spare', target: spare, weight: 1, comment: 'extra', nested: { a: 1 } });
  t.true(is2xx(weight), `weight with extra fields: ${shown(weight)}`);
  const cidr = clientAddress();
  const deny = await g.admin.post('/ip-deny', { cidr, reason: 'extra' });
  t.true(is2xx(deny), `ip-deny with extra fields: ${shown(deny)}`);
  await g.admin.delete('/ip-deny', { cidr, reason: 'extra' });
});

check('gateway/admin/no-admin-rate-limit/site-limit-not-applied', needs('rate-limit'), async (t, c) => {
  const { g } = await adminGateway(c);
  const statuses: number[] = [];
  for (let i = 0; i < 8; i++) statuses.push((await g.admin.get('/rate-limits')).status);
  t.true(
    statuses.every((s) => s >= 200 && s < 300),
    `admin answers with a site limit of 2 requests per minute: ${statuses.join(', ')}`,
  );
});

check('gateway/errors/body-shape/documented-errors', GATEWAY, async (t, c) => {
  const { g } = await adminGateway(c);
  // The document's errors this gateway can give: an invalid CIDR, certificates without a TLS site, and a purge
  // without the cache feature where a config without a cache section lacks it (description cacheSectionAbsent).
  const errors: [string, HttpResponse][] = [
    ['POST /ip-deny of an invalid block', await g.admin.post('/ip-deny', { cidr: '300.1.1.1/8' })],
    ['POST /certs/reload without a TLS site', await g.admin.post('/certs/reload', { cert: 'x', key: 'y' })],
  ];
  if (purgeWithoutCacheIs501()) {
    errors.push(['DELETE /cache/purge without the cache feature', await g.admin.delete(`/cache/purge?url=${encodeURIComponent('http://127.0.0.1/api/x')}`)]);
  }
  for (const [what, res] of errors) {
    const body = jsonObject(res);
    t.true(body?.status === 'error' && typeof body.message === 'string', `${what}: ${shown(res)}`);
  }
});

// ---------------------------------------------------------------- errors of a gateway without cache and TLS

/** The 501 is judged where the gateway of this setup (no cache section) lacks the cache feature: a target
 * without `cache`, or one whose description does not say a cache section is not needed for it. */
const WITHOUT_CACHE_FEATURE = {
  ...GATEWAY,
  applicable: async () =>
    purgeWithoutCacheIs501() ? undefined : 'the description says the cache feature is there without a cache section (cacheSectionAbsent: available), and the target has it',
};

check('gateway/errors/cache-purge-no-feature-501/no-cache-configured', WITHOUT_CACHE_FEATURE, async (t, c) => {
  const { g } = await adminGateway(c);
  const url = `http://127.0.0.1:${g.rendered.sitePorts[0]}/api/x`;
  errorBody(t, await g.admin.delete(`/cache/purge?url=${encodeURIComponent(url)}`), 501, 'purge on a gateway without the cache feature');
});

check('gateway/errors/certs-no-tls-site-400/plain-sites-only', GATEWAY, async (t, c) => {
  const { g } = await adminGateway(c);
  const res = await g.admin.post('/certs/reload', { cert: SECOND.cert, key: SECOND.key });
  t.is(res.status, 400, shown(res));
});

check('gateway/certs/check-order-and-validity/fields-then-site', GATEWAY, async (t, c) => {
  const { g } = await adminGateway(c);
  const res = await g.admin.post('/certs/reload', { key: SECOND.key });
  t.is(res.status, 400);
  t.regex(String(jsonObject(res)?.message), /cert/, 'the missing field is reported before the missing TLS site');
});

check('gateway/admin/success-status-ok/status-ok-field', GATEWAY, async (t, c) => {
  const { g } = await adminGateway(c);
  const target = spareUrl();
  const cidr = clientAddress();
  for (const [method, path, body] of [
    ['POST', '/upstreams/add', { route: '/spare', target }],
    ['POST', '/upstreams/weight', { route: '/spare', target, weight: 2 }],
    ['POST', '/upstreams/remove', { route: '/spare', target }],
    ['POST', '/ip-deny', { cidr }],
    ['DELETE', '/ip-deny', { cidr }],
  ] as const) {
    const res = await g.admin.call({ method, path, body });
    t.is(jsonObject(res)?.status, 'ok', `${method} ${path}: ${shown(res)}`);
  }
});

check('gateway/admin/no-events/no-event-stream', GATEWAY, async (t, c) => {
  const { g } = await adminGateway(c);
  for (const path of ['/events', '/events/stream', '/subscribe', '/webhooks']) {
    const res = await g.admin.get(path);
    t.is(res.status, 404, `GET ${path}: ${shown(res)}`);
  }
});
