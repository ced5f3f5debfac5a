// The request- and answer-side sections named by document 001 ("Config sections named by the API":
// requestTransform, responseTransform, securityHeaders, cors, maskErrors, limits; and fallback among the other
// keys). The document names them
// only, so what each does is the reference's choice (catalog gateway/site-filters/*, unspecified): these
// cases are informational, and each section is a capability rendered through the target's adapter. A
// request-side change is judged at the recording upstream, an answer-side one at the client.
import { request as httpRequest } from 'node:http';
import { type CaseContext, check } from '../harness/index.ts';
import { type Gateway, sharedGateway } from './gateway.ts';
import type { SiteSetup } from './setup.ts';
import { type Feature, needs, offers } from './target.ts';
import { fared, freshPath, send } from './traffic.ts';
import { type Answer, type Received, sharedUpstreams, type Upstream } from './upstream.ts';

const ORIGIN = 'https://app.test';
const CSP = "default-src 'self'";
const BOUND = 1024;
/** The limits site's upstreamTimeoutMs: long enough that a busy machine answers an ordinary request well
 * within it (500 ms was not, with the whole run on two cores). */
const UPSTREAM_TIMEOUT_MS = 2_000;
/** Longer than UPSTREAM_TIMEOUT_MS, short enough for the shared upstream to be done soon. */
const SLOW_MS = 6_000;

/** The shared upstream's answers: `/err/` a 500 with a body and a header of its own, `/slow/` late, else 200
 * with a Server-Timing header and an X-Frame-Options of its own. */
function answer(r: Received): Answer {
  if (r.url.includes('/err/')) return { status: 500, headers: { 'x-internal': 'db-7', 'content-type': 'text/plain' }, body: 'Traceback: secret stack' };
  if (r.url.includes('/slow/')) return { until: new Promise((resolve) => setTimeout(resolve, SLOW_MS)) };
  return { headers: { 'server-timing': 'db;dur=7', 'x-frame-options': 'ALLOWALL' }, body: 'fine' };
}

const FALLBACK = { status: 410, body: 'nothing here', headers: { 'X-Fallback': 'yes' } };

const SECTIONS: [Feature, Partial<SiteSetup>][] = [
  ['request-transform', { requestTransform: { setHeaders: { 'X-Env': 'suite' }, removeHeaders: ['X-Secret'] } }],
  ['response-transform', { responseTransform: { setHeaders: { 'X-Served-By': 'gateway' }, removeHeaders: ['Server-Timing'] } }],
  ['security-headers', { securityHeaders: { contentSecurityPolicy: CSP } }],
  ['cors', { cors: { allowOrigins: [ORIGIN], exposeHeaders: ['X-Total'] } }],
  ['mask-errors', { maskErrors: true }],
  ['limits', { limits: { maxBodyBytes: BOUND, upstreamTimeoutMs: UPSTREAM_TIMEOUT_MS } }],
  // Its route is /api (below), so that other paths reach the fallback.
  ['fallback', { fallback: FALLBACK }],
];

/** One site per section the target offers, all routing / to the shared upstream `a`. */
async function filtersGateway(c: CaseContext): Promise<{ g: Gateway; a: Upstream; site: Partial<Record<Feature, number>> }> {
  const [a] = await sharedUpstreams('site-filters', 'a');
  a!.answer = answer;
  const offered = SECTIONS.filter(([feature]) => offers(feature));
  const g = await sharedGateway(c, 'site-filters', () => ({
    sites: offered.map(([feature, section]) => ({ routes: [{ path: feature === 'fallback' ? '/api' : '/', targets: [a!.url] }], ...section })),
  }));
  return { g, a: a!, site: Object.fromEntries(offered.map(([feature], i) => [feature, i])) };
}

check('gateway/site-filters/request-transform/headers-set-and-removed-upstream', needs('request-transform'), async (t, c) => {
  const { g, a, site } = await filtersGateway(c);
  const sent = await send(g.site(site['request-transform']), '/', [a], { 'x-secret': 'token-1', 'x-env': 'client', 'x-kept': 'yes' });
  t.true(sent.reached, fared(sent));
  const got = a.got(sent.path)[0]?.headers ?? {};
  t.is(got['x-env'], 'suite', 'the set header replaces the client\'s');
  t.is(got['x-secret'], undefined, 'the removed header does not reach the upstream');
  t.is(got['x-kept'], 'yes', 'other headers pass');
});

check('gateway/site-filters/response-transform/headers-set-and-removed-for-client', needs('response-transform'), async (t, c) => {
  const { g, a, site } = await filtersGateway(c);
  const sent = await send(g.site(site['response-transform']), '/', [a]);
  t.is(sent.res?.status, 200, fared(sent));
  t.is(sent.res?.headers['x-served-by'], 'gateway');
  t.is(sent.res?.headers['server-timing'], undefined, 'the removed header does not reach the client');
  t.is(sent.res?.text, 'fine');
});

check('gateway/site-filters/security-headers/defaults-and-csp-replace-upstream', needs('security-headers'), async (t, c) => {
  const { g, a, site } = await filtersGateway(c);
  const sent = await send(g.site(site['security-headers']), '/', [a]);
  t.is(sent.res?.status, 200, fared(sent));
  t.like(sent.res?.headers, {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'content-security-policy': CSP,
  });
  t.is(sent.res?.headers['strict-transport-security'], undefined, 'no HSTS on a plain-HTTP site');
});

check('gateway/site-filters/cors/preflight-answered-and-origin-allowed', needs('cors'), async (t, c) => {
  const { g, a, site } = await filtersGateway(c);
  const client = g.site(site.cors);
  const path = freshPath('/');
  const ask = { origin: ORIGIN, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'x-token' };
  const preflight = await client.request({ method: 'OPTIONS', path, headers: ask });
  t.is(preflight.status, 204);
  t.like(preflight.headers, { 'access-control-allow-origin': ORIGIN, 'access-control-allow-headers': 'x-token' });
  t.regex(String(preflight.headers['access-control-allow-methods']), /\bPUT\b/);
  t.is(a.got(path).length, 0, 'the preflight is not forwarded');
  const other = await client.request({ method: 'OPTIONS', path, headers: { ...ask, origin: 'https://evil.test' } });
  t.is(other.headers['access-control-allow-origin'], undefined, 'no Allow-Origin for an origin not allowed');
  const sent = await send(client, '/', [a], { origin: ORIGIN });
  t.like(sent.res?.headers, { 'access-control-allow-origin': ORIGIN, 'access-control-expose-headers': 'x-total' });
  t.regex(String(sent.res?.headers.vary), /\bOrigin\b/i);
  const stranger = await send(client, '/', [a], { origin: 'https://evil.test' });
  t.true(stranger.reached, 'a request of another origin is still passed on (the browser enforces CORS)');
  t.is(stranger.res?.headers['access-control-allow-origin'], undefined);
});

check('gateway/site-filters/mask-errors/upstream-5xx-replaced', needs('mask-errors'), async (t, c) => {
  const { g, a, site } = await filtersGateway(c);
  const sent = await send(g.site(site['mask-errors']), '/err', [a]);
  t.true(sent.reached, fared(sent));
  t.is(sent.res?.status, 500, fared(sent));
  t.false(String(sent.res?.text).includes('secret stack'), `the upstream's body reached the client: ${fared(sent)}`);
  t.is(sent.res?.headers['x-internal'], undefined, "the upstream's headers reached the client");
  const fine = await send(g.site(site['mask-errors']), '/', [a]);
  t.is(fine.res?.text, 'fine', 'a 200 passes unchanged');
});

check('gateway/site-filters/limits/declared-body-over-bound-413-not-forwarded', needs('limits'), async (t, c) => {
  const { g, a, site } = await filtersGateway(c);
  const client = g.site(site.limits);
  const path = freshPath('/');
  const big = await client.request({ method: 'POST', path, body: 'x'.repeat(BOUND + 1) });
  t.is(big.status, 413);
  t.is(a.got(path).length, 0, 'the upstream was not asked');
  const small = freshPath('/');
  t.is((await client.request({ method: 'POST', path: small, body: 'x'.repeat(BOUND) })).status, 200, 'a body at the bound passes');
});

check('gateway/site-filters/limits/chunked-body-over-bound-413', needs('limits'), async (t, c) => {
  const { g, site } = await filtersGateway(c);
  const port = g.rendered.sitePorts[site.limits!]!;
  const status = await new Promise<number | string>((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: freshPath('/'), headers: { 'transfer-encoding': 'chunked', ...g.hostHeader(site.limits) } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', (error) => resolve(`no answer: ${error.message}`));
    // Four chunks of half the bound: the answer may come before the last is written.
    let n = 0;
    const write = (): void => {
      if (n++ === 4) return void req.end();
      req.write('y'.repeat(BOUND / 2), () => setTimeout(write, 20));
    };
    write();
  });
  t.is(status, 413);
});

check('gateway/site-filters/limits/no-answer-in-time-504', needs('limits'), async (t, c) => {
  const { g, a, site } = await filtersGateway(c);
  const sent = await send(g.site(site.limits), '/slow', [a]);
  t.true(sent.reached, fared(sent));
  t.is(sent.res?.status, 504, fared(sent));
});

check('gateway/site-filters/fallback/unmatched-path-gets-configured-answer', needs('fallback'), async (t, c) => {
  const { g, a, site } = await filtersGateway(c);
  const client = g.site(site.fallback);
  const other = await send(client, '/elsewhere', [a]);
  t.false(other.reached, fared(other));
  t.is(other.res?.status, FALLBACK.status, fared(other));
  t.is(other.res?.text, FALLBACK.body);
  t.is(other.res?.headers['x-fallback'], 'yes');
  const routed = await send(client, '/api', [a]);
  t.true(routed.reached && routed.res?.status === 200, `a routed path is still proxied: ${fared(routed)}`);
});
