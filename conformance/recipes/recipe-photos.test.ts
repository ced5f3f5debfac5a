// Photo uploads: the main photo and a step's photo, each multipart/form-data in the target's field
// (shapes.photoField), behind a bearer token, and kept as files: the target runs in a fresh working folder,
// so after an upload some file below it holds exactly the uploaded bytes (photo-files.ts). Informationally the
// reference's choices: the answer, serving the photo back, replacement, type checks, an unknown step.
import type { CaseContext } from '../harness/case-context.ts';
import { check } from '../harness/index.ts';
import { type Account, is2xx, shown } from './api.ts';
import { once, refused } from './case-helpers.ts';
import { filesHolding, filesHoldingSoon, mainPhotoPath, multipartFile, stepPhotoPath, uniquePng, uploadPhoto } from './photo-files.ts';
import { createWorded, recipePath } from './recipe-fields.ts';
import { type Instance, RECIPES, sharedInstance } from './target.ts';

async function photographer(c: CaseContext): Promise<{ inst: Instance; owner: Account }> {
  const inst = await sharedInstance(c, 'photos');
  const owner = await once(inst, 'owner', () => inst.api.user('cook'));
  return { inst, owner };
}

/** A new recipe of the owner's (three steps, orders 1 to 3) and its two upload paths for step `order`. */
async function paths(c: CaseContext, order = 2) {
  const { inst, owner } = await photographer(c);
  const r = await createWorded(inst.api, owner.token);
  return { inst, owner, r, main: mainPhotoPath(r.id), step: stepPhotoPath(r.id, order) };
}

for (const [kind, clause] of [
  ['main', 'main-photo-upload'],
  ['step', 'step-photo-upload'],
] as const) {
  check(`recipes/recipe-photos/${clause}/owner-uploads-${kind}-photo`, RECIPES, async (t, c) => {
    const p = await paths(c);
    const bytes = uniquePng();
    const res = await uploadPhoto(p.inst.api, p[kind], p.owner.token, bytes);
    if (!t.true(is2xx(res), `POST ${p[kind]} (multipart, field ${p.inst.api.shapes.photoField}): ${shown(res)}`)) return;
    const files = await filesHoldingSoon(p.inst.launched.dir, bytes);
    t.true(files.length > 0, `no file below the target's folder ${p.inst.launched.dir} holds the uploaded photo`);
  });

  check(`recipes/recipe-photos/${clause}/needs-bearer-token`, RECIPES, async (t, c) => {
    const p = await paths(c);
    for (const token of [undefined, 'not-a-token']) {
      const bytes = uniquePng();
      const res = await uploadPhoto(p.inst.api, p[kind], token, bytes);
      t.true(refused(res), `POST ${p[kind]} with ${token ?? 'no token'}: ${shown(res)}`);
      t.deepEqual(filesHolding(p.inst.launched.dir, bytes), [], `a refused upload was stored`);
    }
  });
}

/** Each step of a recipe answer as text, by the step word it carries (index into words.steps). */
async function stepTexts(c: CaseContext, inst: Instance, id: string, token: string, words: string[]): Promise<(string | undefined)[]> {
  const res = await c.need(`GET ${recipePath(id)} as its owner`, () => inst.api.ok('GET', inst.api.call('GET', recipePath(id), { token })));
  const view = await c.need('the recipe in the answer', () => inst.api.recipeOf(res));
  const steps = Array.isArray(view.steps) ? view.steps.map((s) => JSON.stringify(s)) : [];
  return words.map((w) => steps.find((s) => s.includes(w)));
}

check('recipes/recipe-photos/step-photo-upload/photo-goes-to-that-step', RECIPES, async (t, c) => {
  const p = await paths(c, 2);
  const before = await stepTexts(c, p.inst, p.r.id, p.owner.token, p.r.words.steps);
  // The steps' own representation is not shown: what the case compares is each step as the answer has it.
  if (before.some((s) => s === undefined)) c.inconclusive(`the recipe answer has no steps array holding the step texts (shapes.at.recipe, shapes.rename.recipe for steps and steps/text?)`);
  await c.need(`POST ${p.step}`, () => p.inst.api.ok('POST', uploadPhoto(p.inst.api, p.step, p.owner.token)));
  const after = await stepTexts(c, p.inst, p.r.id, p.owner.token, p.r.words.steps);
  // The photo of the step with order 2 changes nothing of the steps with orders 1 and 3.
  t.is(after[0], before[0], 'the step with order 1 changed after an upload to the step with order 2');
  t.is(after[2], before[2], 'the step with order 3 changed after an upload to the step with order 2');
});

check('recipes/recipe-photos/stored-as-files/each-photo-a-file', RECIPES, async (t, c) => {
  const p = await paths(c);
  const uploads = [
    { path: p.main, bytes: uniquePng() },
    { path: stepPhotoPath(p.r.id, 1), bytes: uniquePng() },
    { path: stepPhotoPath(p.r.id, 3), bytes: uniquePng() },
  ];
  const stored = new Set<string>();
  for (const { path, bytes } of uploads) {
    const res = await uploadPhoto(p.inst.api, path, p.owner.token, bytes);
    if (!is2xx(res)) c.inconclusive(`the upload the case stores was refused: POST ${path}: ${shown(res)}`);
    const files = await filesHoldingSoon(p.inst.launched.dir, bytes);
    t.true(files.length > 0, `after POST ${path}, no file below the target's folder ${p.inst.launched.dir} holds the photo`);
    for (const f of files) stored.add(f);
  }
  t.true(stored.size >= uploads.length, `three photos, files ${[...stored].join(', ')}`);
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

/** The photoUrl of a recipe answer (main, or the step with `order`): the reference's upload answer (undefined
 * when the answer is not a recipe). */
function photoUrlOf(inst: Instance, res: Parameters<Instance['api']['recipeOf']>[0], order?: number): unknown {
  let view: ReturnType<Instance['api']['recipeOf']>;
  try {
    view = inst.api.recipeOf(res);
  } catch {
    return undefined;
  }
  return order === undefined ? view['photoUrl'] : view.steps?.find((s) => s.order === order)?.['photoUrl'];
}

check('recipes/recipe-photos/upload-format/answer-shows-photo-and-replaces', RECIPES, async (t, c) => {
  const p = await paths(c);
  const first = uniquePng();
  const res = await uploadPhoto(p.inst.api, p.main, p.owner.token, first);
  t.is(res.status, 200, shown(res));
  t.regex(String(photoUrlOf(p.inst, res)), /^\/uploads\/[^/]+\.png$/, shown(res));
  const step = await uploadPhoto(p.inst.api, p.step, p.owner.token);
  t.regex(String(photoUrlOf(p.inst, step, 2)), /^\/uploads\/[^/]+\.png$/, `the step photo: ${shown(step)}`);
  const second = await uploadPhoto(p.inst.api, p.main, p.owner.token);
  t.is(second.status, 200, shown(second));
  t.deepEqual(filesHolding(p.inst.launched.dir, first), [], 'the replaced photo is still stored');
  const missing = await p.inst.api.call('POST', p.main, { token: p.owner.token, ...bodyOf(multipartFile('other', 'x.png', 'image/png', uniquePng())) });
  t.is(missing.status, 400, `no file in the photo field: ${shown(missing)}`);
});

const bodyOf = (m: { body: Buffer; contentType: string }) => ({ raw: m.body, headers: { 'content-type': m.contentType } });

/** The path (and query) on the target of the photo URL in an upload answer (shapes.at.photoUrl): relative, or
 * absolute on the target's own address (APP_URL). */
function servedAt(inst: Instance, res: Parameters<Instance['api']['recipeOf']>[0]): string {
  const url = inst.api.read<unknown>('photoUrl', res);
  if (typeof url !== 'string' || url === '') throw new Error(`the photo URL (shapes.at.photoUrl ${JSON.stringify(inst.api.shapes.at.photoUrl)}) is not a URL: ${shown(res)}`);
  const at = new URL(url, `${inst.url}/`);
  return `${at.pathname}${at.search}`;
}

check('recipes/recipe-photos/serving/photo-url-serves-the-bytes', RECIPES, async (t, c) => {
  const p = await paths(c);
  const bytes = uniquePng();
  const res = await c.need('the upload', () => p.inst.api.ok('POST', uploadPhoto(p.inst.api, p.main, p.owner.token, bytes)));
  const url = await c.need('the photo URL of the upload answer', () => servedAt(p.inst, res));
  const photo = await p.inst.http.request({ path: url });
  t.is(photo.status, 200, `GET ${url}: ${photo.status}`);
  t.true(photo.body.equals(bytes), `GET ${url} is not the uploaded photo`);
  t.regex(String(photo.headers['content-type']), /^image\/png/);
});

check('recipes/recipe-photos/limits/non-image-refused', RECIPES, async (t, c) => {
  const p = await paths(c);
  const text = Buffer.from(`not an image ${Math.random()}`);
  const res = await p.inst.api.call('POST', p.main, { token: p.owner.token, ...bodyOf(multipartFile(p.inst.api.shapes.photoField, 'x.png', 'image/png', text)) });
  t.is(res.status, 415, shown(res));
  t.deepEqual(filesHolding(p.inst.launched.dir, text), [], 'the refused file was stored');
});

check('recipes/recipe-photos/unknown-step/not-found-nothing-stored', RECIPES, async (t, c) => {
  const p = await paths(c, 99);
  const bytes = uniquePng();
  const res = await uploadPhoto(p.inst.api, p.step, p.owner.token, bytes);
  t.is(res.status, 404, shown(res));
  t.deepEqual(filesHolding(p.inst.launched.dir, bytes), [], 'the photo of an unknown step was stored');
  const view = await p.inst.api.call('GET', recipePath(p.r.id), { token: p.owner.token });
  t.true(is2xx(view), shown(view));
});
