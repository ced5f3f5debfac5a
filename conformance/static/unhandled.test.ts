import assert from 'node:assert/strict';
import fc from 'fast-check';
import { check } from '../harness/index.ts';
import { startSite } from './site.ts';

const launch = { needs: ['launch'] };
const ALL_KEYS = {
  html: { status: 404, send: 'HTML' },
  json: { status: 404, send: 'JSON' },
  xml: { status: 404, send: 'XML' },
  '*': { status: 404, send: 'STAR' },
};

check('static/unhandled/default-404/no-unhandled-config', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'public' }, files: { 'public/a.txt': 'A' } });
  t.is((await site.http.get('/nope')).status, 404);
});

check('static/unhandled/default-404/no-applicable-entry', launch, async (t, c) => {
  const site = await startSite(c, { config: { unhandled: { json: { status: 410, send: 'GONE' } } } });
  t.is((await site.http.get('/nope', { accept: 'text/html' })).status, 404);
});

check('static/unhandled/default-body/plain-not-found', launch, async (t, c) => {
  const site = await startSite(c, { config: {} });
  const res = await site.http.get('/nope');
  t.is(res.text, 'Not Found');
  t.regex(String(res.headers['content-type']), /^text\/plain/);
});

for (const [key, accept] of [
  ['html', 'text/html'],
  ['json', 'application/json'],
  ['xml', 'application/xml'],
] as const) {
  check(`static/unhandled/key-${key}/chosen-by-accept`, launch, async (t, c) => {
    const site = await startSite(c, { config: { unhandled: ALL_KEYS } });
    t.is((await site.http.get('/nope', { accept })).text, key.toUpperCase());
  });
}

check('static/unhandled/key-star/other-accept-values', launch, async (t, c) => {
  const site = await startSite(c, { config: { unhandled: ALL_KEYS } });
  t.is((await site.http.get('/nope', { accept: 'image/png' })).text, 'STAR');
  t.is((await site.http.get('/nope', { accept: 'text/plain' })).text, 'STAR');
});

check('static/unhandled/key-star/configured-key-missing', launch, async (t, c) => {
  const site = await startSite(c, { config: { unhandled: { '*': ALL_KEYS['*'] } } });
  t.is((await site.http.get('/nope', { accept: 'application/json' })).text, 'STAR');
});

check('static/unhandled/status/entry-status-used', launch, async (t, c) => {
  const site = await startSite(c, { config: { unhandled: { '*': { status: 200, send: 'SPA shell' } } } });
  const res = await site.http.get('/deep/link');
  t.is(res.status, 200);
  t.is(res.text, 'SPA shell');
});

check('static/unhandled/status-default-404/entry-without-status', launch, async (t, c) => {
  const site = await startSite(c, { config: { unhandled: { '*': { send: 'missing' } } } });
  t.is((await site.http.get('/nope')).status, 404);
});

check('static/unhandled/headers/entry-headers-sent', launch, async (t, c) => {
  const site = await startSite(c, { config: { unhandled: { '*': { status: 404, headers: { 'X-Why': 'unhandled', 'Cache-Control': 'no-store' }, send: 'x' } } } });
  const res = await site.http.get('/nope');
  t.is(res.headers['x-why'], 'unhandled');
  t.is(res.headers['cache-control'], 'no-store');
});

check('static/unhandled/send-string/body-is-string', launch, async (t, c) => {
  const site = await startSite(c, { config: { unhandled: { html: { status: 404, send: '<h1>Lost ü</h1>' } } } });
  t.is((await site.http.get('/nope', { accept: 'text/html' })).text, '<h1>Lost ü</h1>');
});

check('static/unhandled/file/body-is-file-content', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { unhandled: { html: { status: 404, file: 'errors/404.html' } } },
    files: { 'errors/404.html': '<p>custom 404</p>' },
  });
  const res = await site.http.get('/nope', { accept: 'text/html' });
  t.is(res.status, 404);
  t.is(res.text, '<p>custom 404</p>');
});

check('static/unhandled/send-object/sent-as-json', launch, async (t, c) => {
  const site = await startSite(c, { config: { unhandled: { json: { status: 404, send: { error: 'not found', code: 7 } } } } });
  const res = await site.http.get('/nope', { accept: 'application/json' });
  t.deepEqual(res.json(), { error: 'not found', code: 7 });
  t.regex(String(res.headers['content-type']), /^application\/json/);
});

check('static/unhandled/content-types/by-key', launch, async (t, c) => {
  const site = await startSite(c, { config: { unhandled: ALL_KEYS } });
  const type = async (accept: string) => String((await site.http.get('/nope', { accept })).headers['content-type']);
  t.regex(await type('text/html'), /^text\/html/);
  t.regex(await type('application/json'), /^application\/json/);
  t.regex(await type('application/xml'), /^application\/xml/);
  t.regex(await type('image/png'), /^text\/plain/);
});

check('static/unhandled/send-over-file/send-wins', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { unhandled: { '*': { send: 'SEND', file: 'f.txt' } } },
    files: { 'f.txt': 'FILE' },
  });
  t.is((await site.http.get('/nope')).text, 'SEND');
});

check('static/unhandled/accept-wildcard-or-missing/star-key', launch, async (t, c) => {
  const site = await startSite(c, { config: { unhandled: ALL_KEYS } });
  t.is((await site.http.get('/nope', { accept: '*/*' })).text, 'STAR');
  t.is((await site.http.get('/nope')).text, 'STAR');
});

check('static/unhandled/accept-type-mapping/suffixes-and-xhtml', launch, async (t, c) => {
  const site = await startSite(c, { config: { unhandled: ALL_KEYS } });
  t.is((await site.http.get('/nope', { accept: 'application/xhtml+xml' })).text, 'HTML');
  t.is((await site.http.get('/nope', { accept: 'application/problem+json' })).text, 'JSON');
  t.is((await site.http.get('/nope', { accept: 'text/xml' })).text, 'XML');
});

// Property (must): an Accept header naming exactly one of the three documented types, among unrelated types
// and with any q > 0, picks that type's entry when configured and "*" otherwise.
const KEY_TYPES = { html: 'text/html', json: 'application/json', xml: 'application/xml' } as const;
type Key = keyof typeof KEY_TYPES;
const unrelated = fc.constantFrom('image/png', 'text/plain', 'application/octet-stream', 'font/woff2', 'audio/wav');
const q = fc.integer({ min: 1, max: 1000 }).map((n) => (n === 1000 ? '' : `;q=${(n / 1000).toFixed(3)}`));

check('static/unhandled/key-star/property-single-named-type', { ...launch, timeoutMs: 120_000 }, async (_t, c) => {
  const configured: Key[] = ['html', 'xml'];
  const site = await startSite(c, {
    config: { unhandled: { html: ALL_KEYS.html, xml: ALL_KEYS.xml, '*': ALL_KEYS['*'] } },
  });
  await c.property(
    fc.record({
      key: fc.constantFrom<Key>('html', 'json', 'xml'),
      others: fc.array(fc.tuple(unrelated, q), { maxLength: 3 }),
      position: fc.nat(),
      ownQ: q,
    }),
    async ({ key, others, position, ownQ }) => {
      const parts = others.map(([type, qq]) => type + qq);
      parts.splice(position % (parts.length + 1), 0, KEY_TYPES[key] + ownQ);
      const accept = parts.join(', ');
      const expected = configured.includes(key) ? key.toUpperCase() : 'STAR';
      const res = await site.http.get('/nope', { accept });
      assert.equal(res.text, expected, `Accept: ${accept}`);
    },
    { numRuns: 60 },
  );
});

// Property (unspecified): with several documented types, the highest q wins, ties go to the earlier one.
check('static/unhandled/accept-q-values/property-best-q-wins', { ...launch, timeoutMs: 120_000 }, async (_t, c) => {
  const site = await startSite(c, { config: { unhandled: ALL_KEYS } });
  await c.property(
    fc.uniqueArray(fc.tuple(fc.constantFrom<Key>('html', 'json', 'xml'), fc.integer({ min: 1, max: 10 })), {
      minLength: 1,
      maxLength: 3,
      selector: ([k]) => k,
    }),
    async (entries) => {
      const accept = entries.map(([k, n]) => `${KEY_TYPES[k]};q=${n / 10}`).join(', ');
      const best = entries.reduce((a, b) => (b[1] > a[1] ? b : a));
      const res = await site.http.get('/nope', { accept });
      assert.equal(res.text, best[0].toUpperCase(), `Accept: ${accept}`);
    },
    { numRuns: 40 },
  );
});
