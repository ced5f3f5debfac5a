import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { ConfigError } from '../config/config-error.ts';
import type { SiteContext } from '../site/handler.ts';
import { serve } from '../site/serve-for-tests.ts';
import { normalizeUpload } from './upload-options.ts';
import { savedName } from '../../shared/multipart-upload.ts';
import { createUploadHandler } from './upload.ts';

const ctx: SiteContext = { baseDir: '/srv/site', mode: 'development', warn: () => {} };

test('normalizeUpload: accepted forms and defaults', (t) => {
  const defaults = { path: '/upload', dir: '/srv/site/uploads', maxFileSize: null, maxFiles: null };
  t.deepEqual(normalizeUpload('files', 'upload', ctx), [
    { ...defaults, dir: '/srv/site/files', allowedTypes: null, fieldName: null },
  ]);
  t.deepEqual(
    normalizeUpload([{ path: '/up/', maxFileSize: 10, maxFiles: 2, allowedTypes: ['Image/*'], fieldName: 'f' }], 'u', ctx),
    [{ ...defaults, path: '/up', maxFileSize: 10, maxFiles: 2, allowedTypes: ['image/*'], fieldName: 'f' }],
  );
});

const badConfigs: [unknown, string][] = [
  [true, 'upload'],
  [[{}, { maxFileSize: 0 }], 'upload[1].maxFileSize'],
  [{ maxFileSize: 1.5 }, 'upload.maxFileSize'],
  [{ maxFiles: '3' }, 'upload.maxFiles'],
  [{ allowedTypes: 'image/png' }, 'upload.allowedTypes'],
  [{ allowedTypes: ['png'] }, 'upload.allowedTypes'],
  [{ fieldName: 7 }, 'upload.fieldName'],
  [{ path: 'up' }, 'upload.path'],
  [{ nope: 1 }, 'upload.nope'],
];
for (const [value, key] of badConfigs) {
  test(`normalizeUpload: ${JSON.stringify(value)} is rejected naming ${key}`, (t) => {
    const error = t.throws(() => normalizeUpload(value, 'upload', ctx), { instanceOf: ConfigError });
    t.is(error?.key, key);
  });
}

const names: [string, string][] = [
  ['photo.png', 'photo-1-abcd0123.png'],
  ['../../etc/passwd', 'passwd-1-abcd0123'],
  ['..\\..\\win.ini', 'win-1-abcd0123.ini'],
  ['fünke naïve #1.txt', 'f_nke_na_ve__1-1-abcd0123.txt'],
  ['..', 'file-1-abcd0123'],
  ['.hidden', 'hidden-1-abcd0123'],
  ['a..b...c.tar.gz', 'a.b.c.tar-1-abcd0123.gz'],
  ['', 'file-1-abcd0123'],
  ['x.p/h\\p', 'p-1-abcd0123'],
  ['evil.ph%2F..p', 'evil.ph_2F.-1-abcd0123.p'],
];
for (const [original, expected] of names) {
  test(`savedName: ${JSON.stringify(original)}`, (t) => {
    const name = savedName(original, 1, 'abcd0123');
    t.is(name, expected);
    t.false(/[/\\]|\.\./.test(name));
  });
}

test('savedName: never unsafe, whatever the input', (t) => {
  const inputs = ['/../..//.../', '\u0000..\u0000', '.'.repeat(300), 'a'.repeat(500) + '.' + 'b'.repeat(50), '🙂.🙂'];
  for (const input of inputs) {
    const name = savedName(input);
    t.regex(name, /^[A-Za-z0-9_-][A-Za-z0-9._-]*-\d+-[0-9a-f]{8}(\.[A-Za-z0-9]+)?$/);
    t.false(name.includes('..'));
  }
});

function form(files: [field: string, name: string, type: string, size: number][]): FormData {
  const data = new FormData();
  for (const [field, name, type, size] of files) data.append(field, new Blob([Buffer.alloc(size, 97)], { type }), name);
  return data;
}

test('upload handler: stores, answers, serves back, and keeps nothing of a rejected request', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'upload-test-'));
  const dir = join(root, 'up loads #ü');
  const options = normalizeUpload(
    { dir, maxFileSize: 10, maxFiles: 2, allowedTypes: ['text/*', 'image/png'], fieldName: 'doc' },
    'upload',
    ctx,
  );
  const server = await serve(createUploadHandler(options, ctx));
  t.teardown(async () => {
    await server.close();
    await rm(root, { recursive: true, force: true });
  });
  const post = (body: FormData | string) => fetch(`${server.url}/upload`, { method: 'POST', body });

  const rejected: [string, FormData | string, number][] = [
    ['too large', form([['doc', 'a.txt', 'text/plain', 3], ['doc', 'b.txt', 'text/plain', 11]]), 413],
    ['too many', form([['doc', 'a.txt', 'text/plain', 1], ['doc', 'b.txt', 'text/plain', 1], ['doc', 'c.txt', 'text/plain', 1]]), 400],
    ['wrong type', form([['doc', 'a.txt', 'text/plain', 1], ['doc', 'b.jpg', 'image/jpeg', 1]]), 400],
    ['wrong field', form([['doc', 'a.txt', 'text/plain', 1], ['other', 'b.txt', 'text/plain', 1]]), 400],
    ['no file', form([]), 400],
    ['not multipart', 'plain text', 400],
  ];
  for (const [label, body, status] of rejected) {
    const res = await post(body);
    t.is(res.status, status, label);
    t.is(typeof ((await res.json()) as { error: unknown }).error, 'string', label);
    t.deepEqual(await readdir(dir), [], label);
  }

  const ok = await post(form([['doc', '../fünke.txt', 'text/plain', 10], ['doc', 'pic.png', 'image/png', 2]]));
  t.is(ok.status, 200);
  t.is(ok.headers.get('content-type'), 'application/json');
  const { files } = (await ok.json()) as { files: { file: string; size: number; originalName: string }[] };
  t.deepEqual(
    files.map(({ size, originalName }) => ({ size, originalName })),
    [
      { size: 10, originalName: 'fünke.txt' },
      { size: 2, originalName: 'pic.png' },
    ],
  );
  t.deepEqual((await readdir(dir)).sort(), files.map((f) => f.file).sort());

  const back = await fetch(`${server.url}/upload/${files[1]!.file}`);
  t.is(back.headers.get('content-type'), 'image/png');
  t.is(await back.text(), 'aa');
  const head = await fetch(`${server.url}/upload/${files[0]!.file}`, { method: 'HEAD' });
  t.is(head.headers.get('content-length'), '10');
  t.is((await fetch(`${server.url}/upload/unknown.txt`)).status, 404);
  t.is((await fetch(`${server.url}/upload/..%2f..%2fetc%2fpasswd`)).status, 404);
});

// A body cut right after a part's head: the parser sees that head only when the body ends (it holds back bytes
// that might begin a boundary), so the part comes after the refusal, and its "unexpected end" error must not
// go unheard (an unheard stream error ends the process).
test('upload handler: a body cut right after the head of a part it refuses is a 400, and the server lives on', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'upload-test-'));
  const options = normalizeUpload({ dir: join(root, 'up'), maxFiles: 2, allowedTypes: ['text/*'], fieldName: 'doc' }, 'upload', ctx);
  const server = await serve(createUploadHandler(options, ctx));
  t.teardown(async () => {
    await server.close();
    await rm(root, { recursive: true, force: true });
  });
  const head = (field: string, type: string) => `--cut\r\nContent-Disposition: form-data; name="${field}"; filename="a.txt"\r\nContent-Type: ${type}\r\n\r\n`;
  const bodies = {
    'another field': head('other', 'text/plain'),
    'a refused type': head('doc', 'image/png'),
    'after a refusal': `${head('other', 'text/plain')}x\r\n${head('doc', 'text/plain')}`,
  };
  for (const [label, body] of Object.entries(bodies)) {
    const res = await fetch(`${server.url}/upload`, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=cut' }, body });
    t.is(res.status, 400, label);
    t.is(typeof ((await res.json()) as { error: unknown }).error, 'string', label);
  }
  t.deepEqual(await readdir(join(root, 'up')), []);
});
