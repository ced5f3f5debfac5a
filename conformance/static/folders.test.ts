import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { check } from '../harness/index.ts';
import { startSite } from './site.ts';

const launch = { needs: ['launch'] };

check('static/folders/string/serves-relative-paths', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { folders: 'public' },
    files: { 'public/a.txt': 'A', 'public/deep/er/b.txt': 'B' },
  });
  t.is((await site.http.get('/a.txt')).text, 'A');
  t.is((await site.http.get('/deep/er/b.txt')).text, 'B');
});

check('static/folders/string/awkward-file-names', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { folders: 'public' },
    files: { 'public/fünke.txt': 'umlaut', 'public/with space.txt': 'space', 'public/hash#tag.txt': 'hash' },
  });
  t.is((await site.http.get('/f%C3%BCnke.txt')).text, 'umlaut');
  t.is((await site.http.get('/with%20space.txt')).text, 'space');
  t.is((await site.http.get('/hash%23tag.txt')).text, 'hash');
});

check('static/folders/array-in-order/earlier-folder-wins', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { folders: ['first', 'second'] },
    files: { 'first/same.txt': 'FIRST', 'second/same.txt': 'SECOND' },
  });
  t.is((await site.http.get('/same.txt')).text, 'FIRST');
});

check('static/folders/array-in-order/order-follows-config', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { folders: ['second', 'first'] },
    files: { 'first/same.txt': 'FIRST', 'second/same.txt': 'SECOND' },
  });
  t.is((await site.http.get('/same.txt')).text, 'SECOND');
});

check('static/folders/array-later-folder/file-only-in-later-folder', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { folders: ['first', 'second'] },
    files: { 'first/one.txt': '1', 'second/two.txt': '2' },
  });
  t.is((await site.http.get('/two.txt')).text, '2');
});

check('static/folders/object-mount/served-under-mount-path', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { folders: { '/': 'site', '/docs': 'manual' } },
    files: { 'site/index.txt': 'ROOT', 'manual/guide.txt': 'GUIDE' },
  });
  t.is((await site.http.get('/index.txt')).text, 'ROOT');
  t.is((await site.http.get('/docs/guide.txt')).text, 'GUIDE');
});

check('static/folders/object-nested/nested-mounts-served', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { folders: { '/': 'site', '/docs': { '/': 'manual', '/api': 'api-docs' } } },
    files: { 'site/index.txt': 'ROOT', 'manual/guide.txt': 'GUIDE', 'api-docs/ref.txt': 'REF' },
  });
  t.is((await site.http.get('/docs/guide.txt')).text, 'GUIDE');
  t.is((await site.http.get('/docs/api/ref.txt')).text, 'REF');
});

check('static/folders/nested-mount-composition/longest-mount-first', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { folders: { '/': 'site', '/docs': 'manual' } },
    files: { 'site/docs/x.txt': 'FROM ROOT', 'manual/x.txt': 'FROM DOCS' },
  });
  t.is((await site.http.get('/docs/x.txt')).text, 'FROM DOCS');
});

check('static/folders/missing-file-falls-through/reaches-unhandled', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { folders: 'public', unhandled: { '*': { status: 404, send: 'FELL THROUGH' } } },
    files: { 'public/a.txt': 'A' },
  });
  const res = await site.http.get('/missing.txt');
  t.is(res.status, 404);
  t.is(res.text, 'FELL THROUGH');
});

check('static/folders/directory-index/index-html', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'public' }, files: { 'public/sub/index.html': '<p>index</p>' } });
  t.is((await site.http.get('/sub/')).text, '<p>index</p>');
});

check('static/folders/dotfiles/not-served', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'public' }, files: { 'public/.env': 'SECRET=1' } });
  t.is((await site.http.get('/.env')).status, 404);
});

check('static/folders/content-type/by-extension', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { folders: 'public' },
    files: { 'public/p.html': '<p>', 'public/s.css': 'a{}', 'public/d.json': '{}' },
  });
  t.regex(String((await site.http.get('/p.html')).headers['content-type']), /^text\/html/);
  t.regex(String((await site.http.get('/s.css')).headers['content-type']), /^text\/css/);
  t.regex(String((await site.http.get('/d.json')).headers['content-type']), /^application\/json/);
});

check('static/folders/head-request/headers-without-body', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'public' }, files: { 'public/a.txt': 'hello' } });
  const res = await site.http.request({ method: 'HEAD', path: '/a.txt' });
  t.is(res.status, 200);
  t.is(res.headers['content-length'], '5');
  t.is(res.body.length, 0);
});

check('static/folders/other-methods/post-falls-through', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'public' }, files: { 'public/a.txt': 'hello' } });
  const res = await site.http.request({ method: 'POST', path: '/a.txt', body: 'x' });
  t.is(res.status, 404);
});

check('static/folders/dev-vs-production/development-sees-new-files', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'public' }, files: { 'public/a.txt': 'A' } });
  writeFileSync(join(site.dir, 'public', 'late.txt'), 'LATE');
  t.is((await site.http.get('/late.txt')).text, 'LATE');
});

// Containment: nothing outside the folders is ever served, whatever the path looks like.
const SECRET = 'TOP-SECRET-4f1c9a';
const traversalToken = fc.constantFrom(
  '..', '%2e%2e', '%2E%2E', '.%2e', '%2e.', '%252e%252e', '%c0%ae%c0%ae', '%ef%bc%8e%ef%bc%8e', '...', '.', '',
  'public', 'mount', 'secret.txt', 'private', '%00', 'secret.txt%00.html', 'a.txt',
);
const separator = fc.constantFrom('/', '\\', '%2f', '%2F', '%5c', '%5C', '%252f', '//', '/./');
const traversalPath = fc
  .array(fc.tuple(traversalToken, separator), { minLength: 1, maxLength: 7 })
  .chain((pairs) =>
    fc.constantFrom('secret.txt', 'private/secret.txt', 'private%2fsecret.txt', '').map((tail) => `/${pairs.map(([tok, sep]) => tok + sep).join('')}${tail}`),
  );

/** A folder at the root and one under a mount, in the object form (the form that can hold both; an array
 * mixing a folder and a mount object is none of the documented forms, and a server may refuse it). Both lie
 * one level down beside a copy of the secret, with another copy a level above: one `..` or two from either
 * folder reaches a secret (the mount's included). */
const CONFINED_FOLDERS = { '/': 'site/public', '/mount': 'site/mounted' };
const CONFINED_FILES = { 'site/public/a.txt': 'A', 'site/mounted/b.txt': 'B', 'site/secret.txt': SECRET, 'secret.txt': SECRET };

check('static/folders/confined-to-folders/no-path-escapes', { ...launch, timeoutMs: 120_000 }, async (_t, c) => {
  const site = await startSite(c, {
    config: { folders: CONFINED_FOLDERS },
    files: {
      ...CONFINED_FILES,
      'site/private/secret.txt': SECRET,
      'private/secret.txt': SECRET,
      'site/public/link-target-check.txt': 'ok',
    },
  });
  await c.property(
    traversalPath,
    async (path) => {
      const res = await site.http.get(path);
      assert.ok(!res.text.includes(SECRET), `${path} answered ${res.status} with the secret`);
    },
    { numRuns: 400 },
  );
});

for (const [label, path] of [
  ['dot-dot', '/../secret.txt'],
  ['encoded', '/%2e%2e/secret.txt'],
  ['encoded-slash', '/..%2fsecret.txt'],
  ['double-encoded', '/%252e%252e/secret.txt'],
  ['backslash', '/..\\secret.txt'],
  ['encoded-backslash', '/..%5csecret.txt'],
  ['nul', '/../secret.txt%00.txt'],
  ['mount-escape', '/mount/../../secret.txt'],
] as const) {
  check(`static/folders/confined-to-folders/${label}`, launch, async (t, c) => {
    const site = await startSite(c, { config: { folders: CONFINED_FOLDERS }, files: CONFINED_FILES });
    const res = await site.http.get(path);
    t.false(res.text.includes(SECRET), `${path} answered ${res.status} with the secret`);
  });
}

// What such paths get instead is open: the reference's choice for NUL bytes (never a server error).
for (const [label, path] of [
  ['nul-outside', '/../secret.txt%00.txt'],
  ['nul-inside', '/a.txt%00'],
  ['nul-then-extension', '/a.txt%00.html'],
] as const) {
  check(`static/robustness/nul-byte/${label}-400-or-404`, launch, async (t, c) => {
    const site = await startSite(c, { config: { folders: 'public' }, files: { 'public/a.txt': 'A', 'secret.txt': SECRET } });
    const res = await site.http.get(path);
    t.true([400, 404].includes(res.status), `${path} answered ${res.status}`);
    t.false(res.text.includes(SECRET));
  });
}
