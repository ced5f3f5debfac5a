import assert from 'node:assert/strict';
import fc from 'fast-check';
import { check } from '../harness/index.ts';
import { startSlot } from '../harness/launch.ts';
import { multipart } from './description.ts';
import { basic, ICON, isRedirect, SECURITY_HEADERS, shellScript } from './fixtures.ts';
import { fallThroughStatus, startSite } from './site.ts';
import { startUpstream } from './upstream.ts';

const launch = { needs: ['launch'] };
const AUTH = { users: { ann: 'secret' } };
const CREDS = { authorization: basic('ann', 'secret') };
/** Success where the document gives no status (health, favicon, CGI and upload answers). */
const ok = (status: number): boolean => status >= 200 && status < 300;
// The redirect rules below give no status: any redirect status shows the redirects step answered (which
// status a rule without one gets is static/redirects/default-status-301).

check('static/order/response-time-before-cors/preflight-has-response-time', launch, async (t, c) => {
  const site = await startSite(c, { config: { responseTime: true, cors: true } });
  const res = await site.http.request({
    method: 'OPTIONS',
    path: '/anything',
    headers: { origin: 'http://other.test', 'access-control-request-method': 'PUT' },
  });
  t.truthy(res.headers['access-control-allow-origin'], 'the preflight was not answered by cors');
  t.truthy(res.headers['x-response-time']);
});

check('static/order/helmet-before-favicon/favicon-has-security-headers', launch, async (t, c) => {
  const site = await startSite(c, { config: { helmet: true, favicon: 'icon.ico' }, files: { 'icon.ico': ICON } });
  const res = await site.http.get('/favicon.ico');
  t.deepEqual(new Uint8Array(res.body), ICON, 'not the icon');
  t.true(
    SECURITY_HEADERS.some((h) => res.headers[h] !== undefined),
    `no security header on /favicon.ico: ${Object.keys(res.headers).join(', ')}`,
  );
});

check('static/order/cors-before-basic-auth/401-has-cors-headers', launch, async (t, c) => {
  const site = await startSite(c, { config: { cors: true, basicAuth: AUTH } });
  const res = await site.http.get('/x', { origin: 'http://other.test' });
  t.is(res.status, 401);
  t.truthy(res.headers['access-control-allow-origin']);
});

check('static/order/favicon-before-health/icon-wins-on-same-path', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { favicon: 'icon.ico', healthCheck: { path: '/favicon.ico' } },
    files: { 'icon.ico': ICON },
  });
  const res = await site.http.get('/favicon.ico');
  t.true(ok(res.status), `status ${res.status}`);
  t.deepEqual(new Uint8Array(res.body), ICON);
});

check('static/order/favicon-before-basic-auth/icon-without-credentials', launch, async (t, c) => {
  const site = await startSite(c, { config: { favicon: 'icon.ico', basicAuth: AUTH }, files: { 'icon.ico': ICON } });
  const res = await site.http.get('/favicon.ico');
  t.true(ok(res.status), `status ${res.status}`);
  t.deepEqual(new Uint8Array(res.body), ICON);
});

check('static/order/health-before-rate-limit/no-429-and-no-allowance-used', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { healthCheck: true, rateLimit: { limit: 2 }, folders: 'public' },
    files: { 'public/a.txt': 'a' },
  });
  const health: number[] = [];
  for (let i = 0; i < 4; i++) health.push((await site.http.get('/__health__')).status);
  const files = [(await site.http.get('/a.txt')).status, (await site.http.get('/a.txt')).status];
  t.true(health.every(ok), `health answers past a limit of 2: ${health.join(', ')}`);
  t.deepEqual(files, [200, 200], 'health requests used up the allowance');
});

check('static/order/health-before-basic-auth/health-without-credentials', launch, async (t, c) => {
  const site = await startSite(c, { config: { healthCheck: true, basicAuth: AUTH } });
  const health = await site.http.get('/__health__');
  t.true(ok(health.status) && health.text.includes('"ok"'), `health without credentials: ${health.status} ${health.text.slice(0, 200)}`);
  t.is((await site.http.get('/other')).status, 401);
});

check('static/order/rate-limit-before-basic-auth/over-limit-gets-429-not-401', launch, async (t, c) => {
  const site = await startSite(c, { config: { rateLimit: { limit: 2 }, basicAuth: AUTH } });
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) statuses.push((await site.http.get('/x')).status);
  t.deepEqual(statuses, [401, 401, 429], 'failed-auth requests must count and the limit must answer first');
});

check('static/order/basic-auth-before-redirects/401-before-redirect', launch, async (t, c) => {
  const site = await startSite(c, { config: { basicAuth: AUTH, redirects: { '/old': '/new' } } });
  t.is((await site.http.get('/old')).status, 401);
  const status = (await site.http.get('/old', CREDS)).status;
  t.true(isRedirect(status), `with credentials: ${status}, not a redirect`);
});

check('static/order/headers-before-redirects/redirect-carries-custom-headers', launch, async (t, c) => {
  const site = await startSite(c, { config: { headers: { 'X-Site': 'conform' }, redirects: { '/old': '/new' } } });
  const res = await site.http.get('/old');
  t.true(isRedirect(res.status), `${res.status}, not a redirect`);
  t.is(res.headers['x-site'], 'conform');
});

check('static/order/redirects-before-static/redirect-wins-over-file', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { folders: 'public', redirects: { '/page.html': '/other.html' } },
    files: { 'public/page.html': 'FILE' },
  });
  const res = await site.http.get('/page.html');
  t.true(isRedirect(res.status), `${res.status}, not a redirect`);
  t.is(res.headers.location, '/other.html');
});

check('static/order/static-before-cgi/file-wins-over-script', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { folders: 'public', cgi: { path: '/cgi-bin', dir: 'scripts' } },
    files: { 'public/cgi-bin/run.sh': 'STATIC COPY', 'scripts/run.sh': shellScript('echo SCRIPT RAN') },
  });
  const res = await site.http.get('/cgi-bin/run.sh');
  t.is(res.text, 'STATIC COPY');
});

check('static/order/cgi-before-upload/script-wins-over-uploaded-file', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { cgi: { path: '/files', dir: 'scripts' }, upload: { path: '/files', dir: 'stored' } },
    files: { 'scripts/run.sh': shellScript('echo SCRIPT RAN'), 'stored/run.sh': 'UPLOADED COPY' },
  });
  const res = await site.http.get('/files/run.sh');
  t.true(ok(res.status) && res.text.includes('SCRIPT RAN'), `want the script's output: ${res.status} ${res.text.slice(0, 200)}`);
});

check('static/order/upload-before-proxy/upload-not-forwarded', launch, async (t, c) => {
  const upstream = await startUpstream(c, 'up');
  const site = await startSite(c, { config: { upload: { path: '/upload', dir: 'uploads' }, proxy: upstream.url } });
  const { body, contentType } = multipart([{ name: 'a.txt', type: 'text/plain', content: 'hello' }]);
  const res = await site.http.request({ method: 'POST', path: '/upload', headers: { 'content-type': contentType }, body });
  t.true(ok(res.status), `the upload feature did not take it: ${res.status} ${res.text.slice(0, 200)}`);
  t.is(res.headers['x-upstream'], undefined, 'answered by the upstream');
  t.is(upstream.received.length, 0, 'the upload was forwarded upstream');
});

check('static/order/static-wins-over-proxy/file-served-upstream-untouched', launch, async (t, c) => {
  const upstream = await startUpstream(c, 'up');
  const site = await startSite(c, {
    config: { folders: 'public', proxy: { '/api': upstream.url } },
    files: { 'public/api/data.json': '{"from":"file"}' },
  });
  const res = await site.http.get('/api/data.json');
  t.is(res.text, '{"from":"file"}');
  t.is(upstream.received.length, 0);
});

check('static/order/proxy-before-unhandled/upstream-404-passed-through', launch, async (t, c) => {
  const upstream = await startUpstream(c, 'up', () => ({ status: 404, body: 'UPSTREAM 404' }));
  const site = await startSite(c, {
    config: { proxy: { '/api': upstream.url }, unhandled: { '*': { status: 404, send: 'LOCAL' } } },
  });
  const res = await site.http.get('/api/missing');
  t.is(res.status, 404);
  t.is(res.text, 'UPSTREAM 404');
});

check('static/order/unhandled-last/only-when-nothing-handled', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { folders: 'public', redirects: { '/r': '/x' }, unhandled: { '*': { status: 418, send: 'LAST' } } },
    files: { 'public/f.txt': 'F' },
  });
  t.is((await site.http.get('/f.txt')).text, 'F');
  const redirect = (await site.http.get('/r')).status;
  t.true(isRedirect(redirect), `/r: ${redirect}, not a redirect`);
  const miss = await site.http.get('/nothing-here');
  t.is(miss.status, 418);
  t.is(miss.text, 'LAST');
});

check('static/order/unconfigured-skipped/no-feature-side-effects', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'public' }, files: { 'public/f.txt': 'F' } });
  const res = await site.http.get('/f.txt', { origin: 'http://other.test', 'accept-encoding': 'gzip' });
  t.is(res.status, 200);
  for (const h of ['x-response-time', 'access-control-allow-origin', 'x-content-type-options', 'content-encoding', 'www-authenticate']) {
    t.is(res.headers[h], undefined, `unexpected ${h}`);
  }
  // The built-in paths fall through as a path nothing handles does (its status: static/unhandled/default-404).
  const other = await fallThroughStatus(c, site);
  t.is((await site.http.get('/__health__')).status, other);
  t.is((await site.http.get('/__hot-reload__/client.js')).status, other);
  t.is((await site.http.get('/favicon.ico')).status, other);
});

// Property: for any combination of health, rate limit, basic auth, a redirect, a file and a proxy, and any
// sequence of requests, each answer is the one the documented order predicts.
interface Features {
  health: boolean;
  limit: number | undefined;
  auth: boolean;
  redirect: boolean;
  file: boolean;
  proxy: boolean;
}
interface Req {
  path: '/__health__' | '/page.txt';
  creds: boolean;
}
type Answer = 'health' | 'rate-limited' | 'unauthorized' | 'redirect' | 'static' | 'proxy' | 'unhandled';

function predict(f: Features, requests: Req[]): Answer[] {
  let counted = 0;
  return requests.map((r) => {
    if (f.health && r.path === '/__health__') return 'health';
    if (f.limit !== undefined && ++counted > f.limit) return 'rate-limited';
    if (f.auth && !r.creds) return 'unauthorized';
    if (f.redirect && r.path === '/page.txt') return 'redirect';
    if (f.file && r.path === '/page.txt') return 'static';
    if (f.proxy) return 'proxy';
    return 'unhandled';
  });
}

function classify(status: number, headers: Record<string, unknown>, text: string): Answer | string {
  if (headers['x-upstream']) return 'proxy';
  if (status === 429) return 'rate-limited';
  if (status === 401) return 'unauthorized';
  if (isRedirect(status)) return 'redirect';
  // The built-in not-found answer, whichever client error it is (404 is static/unhandled/default-404's).
  if (status >= 400 && status < 500) return 'unhandled';
  if (status === 200 && text === 'STATIC') return 'static';
  if (ok(status) && text.includes('"ok"')) return 'health';
  return `unexpected ${status} ${text.slice(0, 80)}`;
}

const features = fc.record({
  health: fc.boolean(),
  limit: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
  auth: fc.boolean(),
  redirect: fc.boolean(),
  file: fc.boolean(),
  proxy: fc.boolean(),
});
const requests = fc.array(
  fc.record({ path: fc.constantFrom('/__health__' as const, '/page.txt' as const), creds: fc.boolean() }),
  { minLength: 1, maxLength: 6 },
);

check('static/order/sequence/any-features-any-requests', { ...launch, timeoutMs: 150_000 }, async (_t, c) => {
  const upstream = await startUpstream(c, 'up');
  // The property's time budget runs from its first run, and the other cases of this file queue their starts
  // ahead of it (two start at once per worker): wait for the queue first, or on a busy machine the budget is
  // gone before the first run has a target, and fast-check calls a property with no run at all a failure.
  (await startSlot(c.signal))();
  await c.property(
    fc.tuple(features, requests),
    async ([f, reqs]) => {
      const site = await startSite(c, {
        config: {
          folders: 'public',
          ...(f.health ? { healthCheck: true } : {}),
          ...(f.limit !== undefined ? { rateLimit: { limit: f.limit } } : {}),
          ...(f.auth ? { basicAuth: AUTH } : {}),
          ...(f.redirect ? { redirects: { '/page.txt': '/elsewhere' } } : {}),
          ...(f.proxy ? { proxy: upstream.url } : {}),
        },
        files: f.file ? { 'public/page.txt': 'STATIC' } : { 'public/.keep': '' },
      });
      try {
        const actual: string[] = [];
        for (const r of reqs) {
          const res = await site.http.get(r.path, r.creds ? CREDS : {});
          actual.push(classify(res.status, res.headers, res.text));
        }
        assert.deepEqual(actual, predict(f, reqs));
      } finally {
        await site.launched.stop();
      }
    },
    { numRuns: 12 },
  );
});
