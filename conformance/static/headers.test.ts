import { check } from '../harness/index.ts';
import { multipart } from './description.ts';
import { basic, shellScript } from './fixtures.ts';
import { startSite } from './site.ts';
import { startUpstream } from './upstream.ts';

const launch = { needs: ['launch'] };
const HEADERS = { 'X-Site': 'conform', 'X-Frame-Options': 'DENY' };

check('static/headers/static-responses/on-files', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'public', headers: HEADERS }, files: { 'public/a.txt': 'A' } });
  const res = await site.http.get('/a.txt');
  t.is(res.headers['x-site'], 'conform');
  t.is(res.headers['x-frame-options'], 'DENY');
});

check('static/headers/unhandled-responses/on-built-in-404', launch, async (t, c) => {
  const site = await startSite(c, { config: { headers: HEADERS } });
  // The built-in not-found answer, whichever status it has (static/unhandled/default-404 judges that).
  const res = await site.http.get('/nope');
  t.is(res.headers['x-site'], 'conform');
});

check('static/headers/unhandled-responses/on-configured-unhandled', launch, async (t, c) => {
  const site = await startSite(c, { config: { headers: HEADERS, unhandled: { '*': { status: 404, send: 'x' } } } });
  t.is((await site.http.get('/nope')).headers['x-site'], 'conform');
});

check('static/headers/cgi-and-upload-responses/on-cgi-output', launch, async (t, c) => {
  const site = await startSite(c, { config: { headers: HEADERS, cgi: 'cgi-bin' }, files: { 'cgi-bin/hi.sh': shellScript('echo hi') } });
  const res = await site.http.get('/cgi-bin/hi.sh');
  t.true(res.status >= 200 && res.status < 300 && res.text.includes('hi'), `the script did not run: ${res.status} ${res.text.slice(0, 200)}`);
  t.is(res.headers['x-site'], 'conform');
});

check('static/headers/cgi-and-upload-responses/on-upload-response', launch, async (t, c) => {
  const site = await startSite(c, { config: { headers: HEADERS, upload: 'uploads' } });
  const { body, contentType } = multipart([{ name: 'a.txt', content: 'x' }]);
  const res = await site.http.request({ method: 'POST', path: '/upload', headers: { 'content-type': contentType }, body });
  t.true(res.status >= 200 && res.status < 300, `the upload was not taken: ${res.status} ${res.text.slice(0, 200)}`);
  t.is(res.headers['x-site'], 'conform');
});

check('static/headers/proxied-responses/on-proxied', launch, async (t, c) => {
  const up = await startUpstream(c, 'up');
  const site = await startSite(c, { config: { headers: HEADERS, proxy: up.url } });
  const res = await site.http.get('/x');
  t.is(res.headers['x-upstream'], 'up');
  t.is(res.headers['x-site'], 'conform');
});

check('static/headers/upstream-same-name/upstream-wins', launch, async (t, c) => {
  const up = await startUpstream(c, 'up', () => ({ headers: { 'x-site': 'from-upstream' } }));
  const site = await startSite(c, { config: { headers: HEADERS, proxy: up.url } });
  t.is((await site.http.get('/x')).headers['x-site'], 'from-upstream');
});

check('static/headers/earlier-steps/not-on-401-429-health', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { headers: HEADERS, healthCheck: true, rateLimit: { limit: 1 }, basicAuth: { users: { ann: 'pw' } } },
  });
  const health = await site.http.get('/__health__');
  const unauthorized = await site.http.get('/x');
  const limited = await site.http.get('/x', { authorization: basic('ann', 'pw') });
  t.is(unauthorized.status, 401);
  t.is(limited.status, 429);
  t.is(health.headers['x-site'], undefined);
  t.is(unauthorized.headers['x-site'], undefined);
  t.is(limited.headers['x-site'], undefined);
});
