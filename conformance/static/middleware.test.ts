// compression, helmet, cors, favicon, responseTime: the features the reference takes from common middleware.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { check } from '../harness/index.ts';
import { ICON, SECURITY_HEADERS } from './fixtures.ts';
import { refused, runToExit, startSite } from './site.ts';

const launch = { needs: ['launch'] };
/** A compressible body far above any threshold a default would set (static/compression/defaults leaves it open). */
const BIG = 'conformance '.repeat(20_000);

check('static/compression/true-enables/gzip-when-accepted', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'p', compression: true }, files: { 'p/big.txt': BIG } });
  const res = await site.http.get('/big.txt', { 'accept-encoding': 'gzip' });
  t.is(res.headers['content-encoding'], 'gzip');
  t.is(gunzipSync(res.body).toString(), BIG);
});

check('static/compression/true-enables/identity-when-not-accepted', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'p', compression: true }, files: { 'p/big.txt': BIG } });
  // identity only: any other coding would not match what the request accepts.
  const res = await site.http.get('/big.txt', { 'accept-encoding': 'identity' });
  t.is(res.headers['content-encoding'] ?? 'identity', 'identity');
  t.is(res.text, BIG);
});

check('static/compression/options-object/threshold-respected', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { folders: 'p', compression: { level: 9, threshold: 5000 } },
    files: { 'p/small.txt': 'x'.repeat(2000), 'p/big.txt': BIG },
  });
  t.is((await site.http.get('/small.txt', { 'accept-encoding': 'gzip' })).headers['content-encoding'], undefined);
  t.is((await site.http.get('/big.txt', { 'accept-encoding': 'gzip' })).headers['content-encoding'], 'gzip');
});

check('static/compression/defaults/small-bodies-not-compressed', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'p', compression: true }, files: { 'p/tiny.txt': 'tiny' } });
  t.is((await site.http.get('/tiny.txt', { 'accept-encoding': 'gzip' })).headers['content-encoding'], undefined);
});

check('static/helmet/true-adds-headers/security-headers-present', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'p', helmet: true }, files: { 'p/a.txt': 'A' } });
  const res = await site.http.get('/a.txt');
  t.true(
    SECURITY_HEADERS.some((h) => res.headers[h] !== undefined),
    `no security header among the response's: ${Object.keys(res.headers).join(', ')}`,
  );
});

check('static/helmet/default-set/nosniff-and-csp', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'p', helmet: true }, files: { 'p/a.txt': 'A' } });
  const res = await site.http.get('/a.txt');
  t.is(res.headers['x-content-type-options'], 'nosniff');
  t.truthy(res.headers['content-security-policy']);
});

check('static/helmet/options-object/header-turned-off', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { folders: 'p', helmet: { contentSecurityPolicy: false, frameguard: { action: 'deny' } } },
    files: { 'p/a.txt': 'A' },
  });
  const res = await site.http.get('/a.txt');
  t.is(res.headers['content-security-policy'], undefined);
  t.is(res.headers['x-frame-options'], 'DENY');
});

check('static/helmet/default-set/helmet-defaults', launch, async (t, c) => {
  const site = await startSite(c, { config: { helmet: true } });
  const res = await site.http.get('/x');
  t.is(res.headers['x-frame-options'], 'SAMEORIGIN');
  t.truthy(res.headers['strict-transport-security']);
});

check('static/cors/true-enables/allow-origin-on-responses', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'p', cors: true }, files: { 'p/a.txt': 'A' } });
  const res = await site.http.get('/a.txt', { origin: 'http://elsewhere.test' });
  t.truthy(res.headers['access-control-allow-origin']);
});

check('static/cors/origin-option/configured-origin', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'p', cors: { origin: 'https://app.test' } }, files: { 'p/a.txt': 'A' } });
  const res = await site.http.get('/a.txt', { origin: 'https://app.test' });
  t.is(res.headers['access-control-allow-origin'], 'https://app.test');
});

check('static/cors/defaults/star-and-preflight-204', launch, async (t, c) => {
  const site = await startSite(c, { config: { cors: true } });
  const pre = await site.http.request({
    method: 'OPTIONS',
    path: '/x',
    headers: { origin: 'http://e.test', 'access-control-request-method': 'DELETE' },
  });
  t.is(pre.status, 204);
  t.is(pre.headers['access-control-allow-origin'], '*');
});

check('static/favicon/served/icon-bytes', launch, async (t, c) => {
  const site = await startSite(c, { config: { favicon: 'assets/icon.ico' }, files: { 'assets/icon.ico': ICON } });
  const res = await site.http.get('/favicon.ico');
  t.true(res.status >= 200 && res.status < 300, `status ${res.status}`);
  t.deepEqual(new Uint8Array(res.body), ICON);
});

check('static/favicon/read-at-startup/later-change-not-seen', launch, async (t, c) => {
  const site = await startSite(c, { config: { favicon: 'icon.ico' }, files: { 'icon.ico': ICON } });
  writeFileSync(join(site.dir, 'icon.ico'), 'CHANGED');
  t.deepEqual(new Uint8Array((await site.http.get('/favicon.ico')).body), ICON);
});

check('static/favicon/missing-file/startup-error', launch, async (t, c) => {
  const exit = await runToExit(c, { config: { favicon: 'nope.ico' } });
  if (!refused(t, exit, 'a favicon file that does not exist')) return;
  t.regex(exit.stderr, /favicon/);
});

check('static/favicon/response-headers/icon-type', launch, async (t, c) => {
  const site = await startSite(c, { config: { favicon: 'icon.ico' }, files: { 'icon.ico': ICON } });
  t.is((await site.http.get('/favicon.ico')).headers['content-type'], 'image/x-icon');
});

check('static/response-time/true-adds-header/on-every-response', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'p', responseTime: true }, files: { 'p/a.txt': 'A' } });
  t.truthy((await site.http.get('/a.txt')).headers['x-response-time']);
  t.truthy((await site.http.get('/missing')).headers['x-response-time']);
});

check('static/response-time/digits/decimal-places', launch, async (t, c) => {
  const site = await startSite(c, { config: { responseTime: { digits: 5 } } });
  // The unit after the number is static/response-time/default-format.
  t.regex(String((await site.http.get('/x')).headers['x-response-time']), /^\d+\.\d{5}(?!\d)/);
});

check('static/response-time/suffix/without-unit', launch, async (t, c) => {
  const site = await startSite(c, { config: { responseTime: { suffix: false } } });
  t.regex(String((await site.http.get('/x')).headers['x-response-time']), /^\d+(\.\d+)?$/);
});

check('static/response-time/default-format/three-digits-ms', launch, async (t, c) => {
  const site = await startSite(c, { config: { responseTime: true } });
  t.regex(String((await site.http.get('/x')).headers['x-response-time']), /^\d+\.\d{3}ms$/);
});
