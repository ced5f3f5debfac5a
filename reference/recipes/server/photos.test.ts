// Photos over HTTP: the main and step photos of each accepted type, judged from the bytes (not the declared type
// or name), stored under a new random name in the uploads folder and served back without a token; refused
// uploads (not an image, too large while streaming or declared, no file, another field, two files, an empty one,
// an unknown step) leave nothing behind; a new photo, a dropped step and a deleted recipe remove the old files
// (catalog recipes/recipe-photos/*, recipes/recipes/delete-semantics, update-semantics).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import fc from 'fast-check';
import { MAX_PHOTO_BYTES, sniffImage } from './photo-upload.ts';
import { createRecipe, IMAGES, postPhoto, type RecipesFixture, startWithAccounts } from './recipes-test-support.ts';
import { PHOTO_TYPES } from './uploads-files.ts';

let f: RecipesFixture;
test.before(async () => {
  f = await startWithAccounts();
});
test.after.always(async () => {
  await f?.s.close();
});

const files = async () => (await readdir(f.s.server.context.uploadsDir).catch(() => [])).sort();
const fileOf = (url: string) => url.slice('/uploads/'.length);
const withSteps = async () => (await createRecipe(f.s, f.cook, { steps: [{ order: 1, text: 'Mix.' }, { order: 5, text: 'Bake.' }] })).body;

test('sniffing: the magic numbers of each accepted type, nothing else', (t) => {
  for (const [extension, bytes] of Object.entries(IMAGES)) t.is(sniffImage(bytes) as string | null, extension);
  for (const bytes of ['hello', 'GIF88a', 'RIFF....WAVE', '\x89PNG', '']) t.is(sniffImage(Buffer.from(bytes, 'latin1')), null, bytes);
});

for (const [extension, bytes] of Object.entries(IMAGES)) {
  test(`a ${extension} main photo and step photo: stored under a new name, served back without a token`, async (t) => {
    const recipe = await withSteps();
    // Declared as something else: only the bytes count.
    const main = await postPhoto(f.s, f.cook, `/api/recipes/${recipe.id}/photo`, { bytes, type: 'text/plain', filename: 'photo.txt' });
    t.is(main.status, 200);
    t.regex(main.body.photoUrl, new RegExp(`^/uploads/[0-9a-f]{32}\\.${extension}$`));
    t.like(main.body, { id: recipe.id, title: recipe.title });
    t.true(main.body.updatedAt > recipe.updatedAt);
    const step = await postPhoto(f.s, f.cook, `/api/recipes/${recipe.id}/steps/5/photo`, { bytes });
    t.is(step.status, 200);
    t.is(step.body.steps[0].photoUrl, null);
    t.regex(step.body.steps[1].photoUrl, new RegExp(`^/uploads/[0-9a-f]{32}\\.${extension}$`));
    t.is(step.body.photoUrl, main.body.photoUrl);
    for (const url of [main.body.photoUrl, step.body.steps[1].photoUrl]) {
      const served = await fetch(f.s.url + url);
      t.is(served.status, 200);
      t.is(served.headers.get('content-type'), PHOTO_TYPES[extension as keyof typeof PHOTO_TYPES]);
      t.deepEqual(Buffer.from(await served.arrayBuffer()), bytes);
      t.deepEqual(await readFile(join(f.s.server.context.uploadsDir, fileOf(url))), bytes);
    }
    t.deepEqual((await f.s.api('GET', `/api/recipes/${recipe.id}`, { headers: f.cook.headers })).body, step.body);
  });
}

test.serial('a new photo replaces the old one and deletes its file; a dropped step and a deleted recipe take their files', async (t) => {
  const recipe = await withSteps();
  const path = `/api/recipes/${recipe.id}`;
  const first = (await postPhoto(f.s, f.cook, `${path}/photo`, { bytes: IMAGES.png })).body.photoUrl;
  const second = (await postPhoto(f.s, f.cook, `${path}/photo`, { bytes: IMAGES.jpg })).body.photoUrl;
  t.not(second, first);
  t.false((await files()).includes(fileOf(first)), 'the replaced file is gone');
  t.is((await fetch(f.s.url + first)).status, 404);
  const stepOne = (await postPhoto(f.s, f.cook, `${path}/steps/1/photo`, { bytes: IMAGES.gif })).body.steps[0].photoUrl;
  const stepFive = (await postPhoto(f.s, f.cook, `${path}/steps/5/photo`, { bytes: IMAGES.webp })).body.steps[1].photoUrl;

  // Step 5 survives the update (its text changes), step 1 does not.
  const patched = await f.s.api('PATCH', path, { json: { steps: [{ order: 5, text: 'Bake longer.' }, { order: 7, text: 'Serve.' }] }, headers: f.cook.headers });
  t.deepEqual(
    patched.body.steps.map((step: { order: number; photoUrl: string | null }) => [step.order, step.photoUrl]),
    [
      [5, stepFive],
      [7, null],
    ],
  );
  t.false((await files()).includes(fileOf(stepOne)));
  t.true((await files()).includes(fileOf(stepFive)));

  t.is((await f.s.api('DELETE', path, { headers: f.cook.headers })).status, 204);
  const left = await files();
  for (const url of [second, stepFive]) t.false(left.includes(fileOf(url)), url);
});

const partHead = (field: string) => `--cut\r\nContent-Disposition: form-data; name="${field}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
const postRaw = async (path: string, body: string) => {
  const res = await fetch(f.s.url + path, { method: 'POST', headers: { ...f.cook.headers, 'content-type': 'multipart/form-data; boundary=cut' }, body });
  return { status: res.status, body: (await res.json()) as { error: string } };
};

test.serial('refused uploads store nothing: not an image 415, no file 400, another field 400, two files 400, empty 400, unknown step 404', async (t) => {
  const recipe = await withSteps();
  const path = `/api/recipes/${recipe.id}`;
  const before = await files();
  const cases: [string, () => Promise<{ status: number; body: { error: string } }>, number][] = [
    ['text declared as PNG', () => postPhoto(f.s, f.cook, `${path}/photo`, { bytes: Buffer.from('not an image at all'), type: 'image/png' }), 415],
    ['a PDF', () => postPhoto(f.s, f.cook, `${path}/photo`, { bytes: Buffer.from('%PDF-1.7\n...'), filename: 'x.jpg', type: 'image/jpeg' }), 415],
    ['a photo of 3 bytes, too short to be one', () => postPhoto(f.s, f.cook, `${path}/photo`, { bytes: Buffer.from([0x89, 0x50, 0x4e]) }), 415],
    ['an empty file', () => postPhoto(f.s, f.cook, `${path}/photo`, { bytes: Buffer.alloc(0) }), 400],
    ['another field', () => postPhoto(f.s, f.cook, `${path}/photo`, { bytes: IMAGES.png, field: 'image' }), 400],
    ['two files', () => postPhoto(f.s, f.cook, `${path}/photo`, { bytes: IMAGES.png }, { bytes: IMAGES.gif }), 400],
    ['a JSON body', () => f.s.api('POST', `${path}/photo`, { json: { photo: 'x' }, headers: f.cook.headers }), 400],
    ['no body', () => f.s.api('POST', `${path}/photo`, { headers: f.cook.headers }), 400],
    // The parser sees the last bytes of a head only when the body ends: the part comes after the refusal.
    ['a body cut right after the head of a part in another field', () => postRaw(`${path}/photo`, `${partHead('image')}`), 400],
    ['a body cut right after the head of a second part', () => postRaw(`${path}/photo`, `${partHead('image')}x\r\n${partHead('photo')}`), 400],
    ['an unknown step', () => postPhoto(f.s, f.cook, `${path}/steps/2/photo`, { bytes: IMAGES.png }), 404],
    ['a step order that is no number', () => postPhoto(f.s, f.cook, `${path}/steps/first/photo`, { bytes: IMAGES.png }), 404],
    ['an unknown recipe', () => postPhoto(f.s, f.cook, '/api/recipes/00000000-0000-4000-8000-000000000000/photo', { bytes: IMAGES.png }), 404],
  ];
  for (const [label, send, status] of cases) {
    const answer = await send();
    t.is(answer.status, status, label);
    t.is(typeof answer.body.error, 'string', label);
  }
  t.deepEqual((await postPhoto(f.s, f.cook, `${path}/steps/2/photo`, { bytes: IMAGES.png })).body, { error: 'Step not found' });
  t.deepEqual(await files(), before);
  const stored = f.s.store.data.recipes[recipe.id]!;
  t.is(stored.photo, null);
  t.true(stored.steps.every((step) => step.photo === null));
});

test.serial('over 10 MiB: 413 while streaming (with or without a Content-Length), nothing stored; 10 MiB exactly is taken', async (t) => {
  const recipe = await withSteps();
  const path = `/api/recipes/${recipe.id}/photo`;
  const before = await files();
  const big = Buffer.alloc(MAX_PHOTO_BYTES + 1, 0);
  IMAGES.jpg.copy(big);
  const streamed = await postPhoto(f.s, f.cook, path, { bytes: big });
  t.is(streamed.status, 413);
  t.is(typeof streamed.body.error, 'string');
  const declared = await postPhoto(f.s, f.cook, path, { bytes: Buffer.concat([big, Buffer.alloc(128 * 1024)]) });
  t.is(declared.status, 413);

  // Chunked: the size is found while reading.
  const boundary = 'recipes-test-boundary';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(head);
      for (let at = 0; at < big.length; at += 1024 * 1024) controller.enqueue(big.subarray(at, at + 1024 * 1024));
      controller.enqueue(Buffer.from(`\r\n--${boundary}--\r\n`));
      controller.close();
    },
  });
  const chunked = await fetch(f.s.url + path, {
    method: 'POST',
    headers: { ...f.cook.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: 'half',
  } as RequestInit);
  t.is(chunked.status, 413);
  t.deepEqual(await files(), before, 'nothing stored');
  t.is(f.s.store.data.recipes[recipe.id]!.photo, null);

  const exact = await postPhoto(f.s, f.cook, path, { bytes: big.subarray(0, MAX_PHOTO_BYTES) });
  t.is(exact.status, 200);
  t.is((await readFile(join(f.s.server.context.uploadsDir, fileOf(exact.body.photoUrl)))).length, MAX_PHOTO_BYTES);
});

test('/uploads serves only names the server makes: traversal, other files and unknown names answer 404', async (t) => {
  const recipe = await withSteps();
  await postPhoto(f.s, f.cook, `/api/recipes/${recipe.id}/photo`, { bytes: IMAGES.png });
  await writeFile(join(f.s.server.context.uploadsDir, 'notes.txt'), 'secret');
  for (const path of [
    '/uploads/notes.txt',
    '/uploads/..%2F..%2Fetc%2Fpasswd',
    '/uploads/%2e%2e%2fdata%2frecipes.json',
    '/uploads/../data/recipes.json',
    `/uploads/${'0'.repeat(32)}.png`,
    `/uploads/${'A'.repeat(32)}.png`,
    `/uploads/${'0'.repeat(32)}.svg`,
    '/uploads/',
  ]) {
    const res = await fetch(f.s.url + path);
    t.is(res.status, 404, path);
    t.false((await res.text()).includes('secret'), path);
  }
});

// Any multipart body, well formed or damaged anywhere (boundaries, part headers, a cut), or no multipart at all:
// a JSON answer of 200, 400, 413 or 415, and a refusal leaves the uploads folder as it was.
const BOUNDARY = 'b0undary';
const part = fc.record({
  field: fc.constantFrom('photo', 'photo', 'other', ''),
  filename: fc.option(fc.constantFrom('a.png', '', 'x"y.jpg', '../../etc/passwd'), { nil: undefined }),
  bytes: fc.oneof(fc.constantFrom(...Object.values(IMAGES)), fc.uint8Array({ maxLength: 64 })),
});
const multipart = fc
  .tuple(
    fc.array(part, { maxLength: 3 }),
    fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
    fc.option(fc.nat(), { nil: undefined }),
  )
  .map(([parts, edits, cut]) => {
    const pieces: Buffer[] = [];
    for (const p of parts) {
      const disposition = `form-data; name="${p.field}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}`;
      pieces.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\nContent-Type: image/png\r\n\r\n`), Buffer.from(p.bytes), Buffer.from('\r\n'));
    }
    pieces.push(Buffer.from(`--${BOUNDARY}--\r\n`));
    const body = Buffer.concat(pieces);
    for (const [at, value] of edits) body[at % body.length] = value;
    return cut === undefined ? body : body.subarray(0, cut % (body.length + 1));
  });

// Serial: the folder is compared before and after, and the other tests of the file upload into it.
test.serial('any multipart body, or none: 200, 400, 413 or 415 as JSON, and a refusal stores nothing', async (t) => {
  const recipe = await withSteps();
  await fc.assert(
    fc.asyncProperty(fc.oneof(multipart, fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b))), async (body) => {
      const before = await files();
      const res = await fetch(`${f.s.url}/api/recipes/${recipe.id}/photo`, {
        method: 'POST',
        headers: { ...f.cook.headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        body,
      });
      const answer = (await res.json()) as { error?: unknown };
      if (![200, 400, 413, 415].includes(res.status)) throw new Error(`status ${res.status}: ${JSON.stringify(answer)}`);
      if (res.status !== 200 && typeof answer.error !== 'string') throw new Error(`no message: ${JSON.stringify(answer)}`);
      if (res.status !== 200 && JSON.stringify(await files()) !== JSON.stringify(before)) throw new Error(`a refused upload changed the folder: ${before} -> ${await files()}`);
    }),
    { numRuns: 150 },
  );
  t.is((await fetch(`${f.s.url}/health`)).status, 200);
});
