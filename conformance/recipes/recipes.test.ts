// Recipes themselves: what a recipe holds, isPublic, ordered steps, create, get, update and delete with their
// bearer rule, public recipes readable by anyone, and the fixed paths beside /api/recipes/:id; informationally
// the reference's choices (default visibility, who else may read or change a recipe, partial updates,
// servings scaling).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { CaseContext } from '../harness/case-context.ts';
import { check } from '../harness/index.ts';
import { type Account, is2xx, sameId, shown } from './api.ts';
import { guardedProperty, once, refused, uniqueWord } from './case-helpers.ts';
import { oneCategory } from './categories.ts';
import { walkPages } from './list-pages.ts';
import { mainPhotoPath, stepPhotoPath, uploadPhoto } from './photo-files.ts';
import { createWorded, positions, recipePath, wordedRecipe } from './recipe-fields.ts';
import { type Instance, RECIPES, sharedInstance } from './target.ts';

interface Cast {
  inst: Instance;
  owner: Account;
  other: Account;
}

async function cast(c: CaseContext): Promise<Cast> {
  const inst = await sharedInstance(c, 'recipes');
  const [owner, other] = await once(inst, 'users', () => Promise.all([inst.api.user('owner'), inst.api.user('other')]));
  return { inst, owner: owner!, other: other! };
}

/** GET /api/recipes/:id as `token`'s user (or nobody). */
const get = (inst: Instance, id: string, token?: string) => inst.api.call('GET', recipePath(id), { token });

/** The text of the recipe in a GET answer (the owner's view), for finding words whatever the shape. */
async function recipeText(c: CaseContext, inst: Instance, id: string, token: string): Promise<string> {
  const res = await c.need(`GET ${recipePath(id)} as its owner`, () => inst.api.ok(`GET ${recipePath(id)}`, get(inst, id, token)));
  return JSON.stringify(await c.need('the recipe in the answer', () => inst.api.recipeOf(res)));
}

check('recipes/recipes/create/creates-recipe-owned-by-caller', RECIPES, async (t, c) => {
  const { inst, other } = await cast(c);
  // A user of the case's own: their recipes fit on a first page whatever the paging.
  const owner = await inst.api.user('creator');
  const { fields, words } = wordedRecipe({ isPublic: false });
  const res = await inst.api.call('POST', '/api/recipes', { token: owner.token, json: fields });
  if (!t.true(is2xx(res), `POST /api/recipes: ${shown(res)}`)) return;
  const made = await c.need('the created recipe in the answer', () => inst.api.recipeOf(res, 'createdRecipe'));
  const read = await get(inst, String(made.id), owner.token);
  t.true(is2xx(read) && read.text.includes(words.title), `GET ${recipePath(made.id)} as its creator: ${shown(read)}`);
  // Owned by the caller: among the caller's own recipes (mine), not among another user's.
  const mine = await walkPages(inst.api, '/api/recipes', owner.token, { mine: true }, { maxPages: 20 });
  t.true(mine.items.some((r) => sameId(r.id, made.id)), `the new recipe is not among the creator's own (${mine.asked.join(' ; ')})`);
  const theirs = await walkPages(inst.api, '/api/recipes', other.token, { mine: true }, { maxPages: 20 });
  t.false(theirs.items.some((r) => sameId(r.id, made.id)), `the new recipe is among another user's own (${theirs.asked.join(' ; ')})`);
});

check('recipes/recipes/create/needs-bearer-token', RECIPES, async (t, c) => {
  const { inst, owner } = await cast(c);
  for (const token of [undefined, 'not-a-token', `${owner.token.slice(0, -4)}AAAA`]) {
    const { fields, words } = wordedRecipe({ isPublic: true });
    const res = await inst.api.call('POST', '/api/recipes', { token, json: fields });
    t.true(refused(res), `POST /api/recipes with ${token === undefined ? 'no token' : `the bearer token ${token.slice(0, 20)}…`}: ${shown(res)}`);
    const listed = await walkPages(inst.api, '/api/recipes/public', undefined, {}, { maxPages: 20 });
    t.false(JSON.stringify(listed.items).includes(words.title), `the refused recipe is in the public list (${listed.asked.join(' ; ')})`);
  }
});

check('recipes/recipes/content/ingredients-steps-photos-tags-category', RECIPES, async (t, c) => {
  const { inst, owner } = await cast(c);
  const category = await c.need('a category a recipe can name', () => oneCategory(inst.api, owner.token));
  const r = await createWorded(inst.api, owner.token, { category });
  const text = await recipeText(c, inst, r.id, owner.token);
  for (const w of [...r.words.ingredients, ...r.words.steps, r.words.tag]) t.true(text.includes(w), `the recipe does not hold ${w}: ${text.slice(0, 600)}`);
  t.true(text.includes(JSON.stringify(category)), `the recipe does not name its category ${category}: ${text.slice(0, 600)}`);
  // A main photo and a photo per step.
  const main = await uploadPhoto(inst.api, mainPhotoPath(r.id), owner.token);
  t.true(is2xx(main), `POST ${mainPhotoPath(r.id)}: ${shown(main)}`);
  for (const order of [1, 3]) {
    const step = await uploadPhoto(inst.api, stepPhotoPath(r.id, order), owner.token);
    t.true(is2xx(step), `POST ${stepPhotoPath(r.id, order)}: ${shown(step)}`);
  }
});

check('recipes/recipes/is-public-field/boolean-decides-visibility', RECIPES, async (t, c) => {
  const { inst, owner } = await cast(c);
  for (const isPublic of [true, false]) {
    const r = await createWorded(inst.api, owner.token, { isPublic });
    const res = await c.need(`GET ${recipePath(r.id)} as its owner`, () => inst.api.ok('GET', get(inst, r.id, owner.token)));
    const view = await c.need('the recipe in the answer', () => inst.api.recipeOf(res));
    t.is(view.isPublic, isPublic, `isPublic of a recipe created with isPublic ${isPublic}: ${shown(res)}`);
    const anonymous = await get(inst, r.id);
    if (isPublic) t.true(is2xx(anonymous) && anonymous.text.includes(r.words.title), `a public recipe without a token: ${shown(anonymous)}`);
    else t.true(refused(anonymous) && !anonymous.text.includes(r.words.title), `a private recipe without a token: ${shown(anonymous)}`);
  }
});

check('recipes/recipes/steps-ordered/steps-in-order-addressed-by-order', RECIPES, async (t, c) => {
  const { inst, owner } = await cast(c);
  const r = await createWorded(inst.api, owner.token);
  const res = await c.need(`GET ${recipePath(r.id)}`, () => inst.api.ok('GET', get(inst, r.id, owner.token)));
  const view = await c.need('the recipe in the answer', () => inst.api.recipeOf(res));
  const at = positions(JSON.stringify(view), r.words.steps);
  t.true(at.every((p, i) => p >= 0 && (i === 0 || p > at[i - 1]!)), `the steps (orders 1, 2, 3) are not in order: ${JSON.stringify(view.steps ?? view).slice(0, 600)}`);
  // Where the steps carry their order, each keeps the one it was given.
  for (const step of Array.isArray(view.steps) ? view.steps : []) {
    const i = r.words.steps.findIndex((w) => String(step.text).includes(w));
    if (step.order !== undefined && i >= 0) t.is(Number(step.order), i + 1, `the order of step "${step.text}"`);
  }
  // Addressed by its order value: the step with order 2 takes a photo.
  const photo = await uploadPhoto(inst.api, stepPhotoPath(r.id, 2), owner.token);
  t.true(is2xx(photo), `POST ${stepPhotoPath(r.id, 2)}: ${shown(photo)}`);
});

check('recipes/recipes/get/owner-reads-own-recipe', RECIPES, async (t, c) => {
  const { inst, owner } = await cast(c);
  for (const isPublic of [false, true]) {
    const r = await createWorded(inst.api, owner.token, { isPublic });
    const res = await get(inst, r.id, owner.token);
    if (!t.true(is2xx(res), `GET ${recipePath(r.id)} (${isPublic ? 'public' : 'private'}) as its owner: ${shown(res)}`)) continue;
    const view = await c.need('the recipe in the answer', () => inst.api.recipeOf(res));
    t.true(sameId(view.id, r.id) && JSON.stringify(view).includes(r.words.title), `GET ${recipePath(r.id)} answered another recipe: ${shown(res)}`);
  }
});

check('recipes/recipes/get/private-needs-token', RECIPES, async (t, c) => {
  const { inst, owner } = await cast(c);
  const r = await createWorded(inst.api, owner.token, { isPublic: false });
  for (const token of [undefined, 'not-a-token']) {
    const res = await get(inst, r.id, token);
    t.true(refused(res), `GET ${recipePath(r.id)} (private) with ${token ?? 'no token'}: ${shown(res)}`);
    t.false(res.text.includes(r.words.title), `the refusal shows the recipe: ${shown(res)}`);
  }
});

check('recipes/recipes/public-readable-without-auth/anyone-reads-public', RECIPES, async (t, c) => {
  const { inst, owner, other } = await cast(c);
  const r = await createWorded(inst.api, owner.token, { isPublic: true });
  for (const [who, token] of [['no token', undefined], ['another user', other.token]] as const) {
    const res = await get(inst, r.id, token);
    if (!t.true(is2xx(res), `GET ${recipePath(r.id)} (public) with ${who}: ${shown(res)}`)) continue;
    const view = await c.need('the recipe in the answer', () => inst.api.recipeOf(res));
    t.true(sameId(view.id, r.id) && JSON.stringify(view).includes(r.words.steps[0]!), `GET ${recipePath(r.id)} with ${who}: ${shown(res)}`);
  }
});

check('recipes/recipes/update/owner-updates-recipe', RECIPES, async (t, c) => {
  const { inst, owner } = await cast(c);
  const r = await createWorded(inst.api, owner.token);
  // The whole recipe with a new title and step: right whether PATCH merges or replaces.
  const title = uniqueWord('ru');
  const step = uniqueWord('ru');
  const changed = { ...r.fields, title: `Renamed stew ${title}`, steps: [{ order: 1, text: `New step ${step}.` }] };
  const res = await inst.api.call('PATCH', recipePath(r.id), { token: owner.token, json: changed });
  if (!t.true(is2xx(res), `PATCH ${recipePath(r.id)}: ${shown(res)}`)) return;
  const text = await recipeText(c, inst, r.id, owner.token);
  t.true(text.includes(title) && text.includes(step), `the new title and step are not in the recipe: ${text.slice(0, 400)}`);
  t.false(text.includes(r.words.title), `the old title is still in the recipe: ${text.slice(0, 400)}`);
});

check('recipes/recipes/update/needs-bearer-token', RECIPES, async (t, c) => {
  const { inst, owner } = await cast(c);
  const r = await createWorded(inst.api, owner.token, { isPublic: true });
  const title = uniqueWord('ru');
  for (const token of [undefined, 'not-a-token']) {
    const res = await inst.api.call('PATCH', recipePath(r.id), { token, json: { ...r.fields, title: `Renamed ${title}` } });
    t.true(refused(res), `PATCH ${recipePath(r.id)} with ${token ?? 'no token'}: ${shown(res)}`);
  }
  const text = await recipeText(c, inst, r.id, owner.token);
  t.true(text.includes(r.words.title) && !text.includes(title), `a refused update changed the recipe: ${text.slice(0, 400)}`);
});

check('recipes/recipes/delete/owner-deletes-recipe', RECIPES, async (t, c) => {
  const { inst, owner } = await cast(c);
  const r = await createWorded(inst.api, owner.token, { isPublic: true });
  const res = await inst.api.call('DELETE', recipePath(r.id), { token: owner.token });
  if (!t.true(is2xx(res), `DELETE ${recipePath(r.id)}: ${shown(res)}`)) return;
  for (const [who, token] of [['its owner', owner.token], ['no token', undefined]] as const) {
    const after = await get(inst, r.id, token);
    t.true(refused(after) && !after.text.includes(r.words.title), `GET ${recipePath(r.id)} after the delete, with ${who}: ${shown(after)}`);
  }
});

check('recipes/recipes/delete/needs-bearer-token', RECIPES, async (t, c) => {
  const { inst, owner } = await cast(c);
  const r = await createWorded(inst.api, owner.token, { isPublic: true });
  for (const token of [undefined, 'not-a-token']) {
    const res = await inst.api.call('DELETE', recipePath(r.id), { token });
    t.true(refused(res), `DELETE ${recipePath(r.id)} with ${token ?? 'no token'}: ${shown(res)}`);
  }
  const after = await get(inst, r.id, owner.token);
  t.true(is2xx(after) && after.text.includes(r.words.title), `the recipe after refused deletes: ${shown(after)}`);
});

check('recipes/recipes/literal-routes/public-and-tags-not-ids', RECIPES, async (t, c) => {
  const { inst, owner } = await cast(c);
  const r = await createWorded(inst.api, owner.token, { isPublic: true });
  // Each answered as its own endpoint: the public list's recipes, the tags holding the public recipe's tag
  // (an answer that is not a success has neither).
  const list = await inst.api.call('GET', '/api/recipes/public');
  t.true(is2xx(list), `GET /api/recipes/public: ${shown(list)}`);
  const items = is2xx(list) ? await c.need('the public list (shapes.at.publicItems)', () => inst.api.itemsOf(list, 'publicItems')) : undefined;
  t.true(Array.isArray(items), `GET /api/recipes/public: ${shown(list)}`);
  const tags = await inst.api.call('GET', '/api/recipes/tags');
  t.true(is2xx(tags), `GET /api/recipes/tags: ${shown(tags)}`);
  const values = is2xx(tags) ? await c.need('the tags of the tags answer (shapes.at.tags, shapes.tagKey)', () => inst.api.tagsOf(tags)) : [];
  t.true(values.includes(r.words.tag), `the tags do not hold the public recipe's tag ${r.words.tag}: ${shown(tags)}`);
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('recipes/recipes/payload/created-201-full-recipe', RECIPES, async (t, c) => {
  const { inst, owner } = await cast(c);
  const { fields } = wordedRecipe();
  const res = await inst.api.call('POST', '/api/recipes', { token: owner.token, json: fields });
  t.is(res.status, 201, shown(res));
  const view = await c.need('the created recipe', () => inst.api.recipeOf(res, 'createdRecipe'));
  for (const key of ['ownerId', 'photoUrl', 'saved', 'createdAt', 'updatedAt']) t.true(key in view, `no ${key}: ${shown(res)}`);
  t.is(view.servings, fields.servings);
  t.deepEqual(view.tags, fields.tags);
  const bad = await inst.api.call('POST', '/api/recipes', { token: owner.token, json: { ...fields, title: '' } });
  t.is(bad.status, 400, `an empty title: ${shown(bad)}`);
});

check('recipes/recipes/is-public-default/private-when-omitted', RECIPES, async (t, c) => {
  const { inst, owner } = await cast(c);
  const r = await createWorded(inst.api, owner.token);
  const res = await get(inst, r.id);
  t.true(refused(res), `a recipe created without isPublic, read without a token: ${shown(res)}`);
});

check('recipes/recipes/step-order-values/sorted-by-order', RECIPES, async (t, c) => {
  const { inst, owner } = await cast(c);
  const r = wordedRecipe();
  const steps = [r.fields.steps![1]!, r.fields.steps![2]!, r.fields.steps![0]!];
  const made = await inst.api.recipe(owner.token, { ...r.fields, steps });
  t.deepEqual(made.steps?.map((s) => s.order), [1, 2, 3], `steps sent in the order 2, 3, 1: ${JSON.stringify(made.steps)}`);
  const dup = await inst.api.call('POST', '/api/recipes', { token: owner.token, json: { ...r.fields, steps: [r.fields.steps![0]!, { order: 1, text: 'again' }] } });
  t.is(dup.status, 400, `two steps with order 1: ${shown(dup)}`);
});

check('recipes/recipes/private-access/others-get-not-found', RECIPES, async (t, c) => {
  const { inst, owner, other } = await cast(c);
  const r = await createWorded(inst.api, owner.token, { isPublic: false });
  for (const [who, token] of [['another user', other.token], ['no token', undefined]] as const) {
    const res = await get(inst, r.id, token);
    t.is(res.status, 404, `a private recipe read by ${who}: ${shown(res)}`);
  }
  const admin = await inst.api.admin();
  const byAdmin = await get(inst, r.id, admin.token);
  t.is(byAdmin.status, 200, `a private recipe read by an admin: ${shown(byAdmin)}`);
});

check('recipes/recipes/ownership/only-owner-or-admin-changes', RECIPES, async (t, c) => {
  const { inst, owner, other } = await cast(c);
  for (const isPublic of [true, false]) {
    const r = await createWorded(inst.api, owner.token, { isPublic });
    const patch = await inst.api.call('PATCH', recipePath(r.id), { token: other.token, json: { title: 'Taken over' } });
    t.is(patch.status, isPublic ? 403 : 404, `PATCH of a ${isPublic ? 'public' : 'private'} recipe by another user: ${shown(patch)}`);
    const del = await inst.api.call('DELETE', recipePath(r.id), { token: other.token });
    t.is(del.status, isPublic ? 403 : 404, `DELETE of a ${isPublic ? 'public' : 'private'} recipe by another user: ${shown(del)}`);
    const photo = await uploadPhoto(inst.api, mainPhotoPath(r.id), other.token);
    t.is(photo.status, isPublic ? 403 : 404, `a photo for a ${isPublic ? 'public' : 'private'} recipe by another user: ${shown(photo)}`);
    const text = await recipeText(c, inst, r.id, owner.token);
    t.true(text.includes(r.words.title) && !text.includes('Taken over'), `the recipe after another user's changes: ${text.slice(0, 300)}`);
  }
  const r = await createWorded(inst.api, owner.token, { isPublic: false });
  const admin = await inst.api.admin();
  const byAdmin = await inst.api.call('PATCH', recipePath(r.id), { token: admin.token, json: { title: 'Fixed by the admin' } });
  t.is(byAdmin.status, 200, `PATCH of a private recipe by an admin: ${shown(byAdmin)}`);
});

check('recipes/recipes/update-semantics/partial-update-keeps-the-rest', RECIPES, async (t, c) => {
  const { inst, owner } = await cast(c);
  const r = await createWorded(inst.api, owner.token);
  const res = await inst.api.call('PATCH', recipePath(r.id), { token: owner.token, json: { title: 'Only the title' } });
  t.is(res.status, 200, shown(res));
  const text = await recipeText(c, inst, r.id, owner.token);
  t.true(text.includes('Only the title'), text.slice(0, 300));
  for (const w of [...r.words.ingredients, ...r.words.steps, r.words.tag]) t.true(text.includes(w), `a partial update lost ${w}: ${text.slice(0, 400)}`);
});

check('recipes/recipes/visibility-transition/flip-both-ways', RECIPES, async (t, c) => {
  const { inst, owner } = await cast(c);
  const r = await createWorded(inst.api, owner.token, { isPublic: false });
  for (const isPublic of [true, false]) {
    const res = await inst.api.call('PATCH', recipePath(r.id), { token: owner.token, json: { isPublic } });
    t.true(is2xx(res), `PATCH isPublic ${isPublic}: ${shown(res)}`);
    const anonymous = await get(inst, r.id);
    t.is(is2xx(anonymous), isPublic, `read without a token after isPublic became ${isPublic}: ${shown(anonymous)}`);
  }
});

check('recipes/recipes/delete-semantics/no-content-then-not-found', RECIPES, async (t, c) => {
  const { inst, owner } = await cast(c);
  const r = await createWorded(inst.api, owner.token);
  const first = await inst.api.call('DELETE', recipePath(r.id), { token: owner.token });
  t.is(first.status, 204, shown(first));
  t.is(first.body.length, 0);
  const second = await inst.api.call('DELETE', recipePath(r.id), { token: owner.token });
  t.is(second.status, 404, shown(second));
});

/** Servings the recipes of the scaling property are written for. */
const BASE_SERVINGS = [1, 2, 3, 4, 6];

check('recipes/recipes/servings-scaling/quantities-scale-and-return', RECIPES, async (_t, c) => {
  const { inst, owner } = await cast(c);
  const made = await once(inst, 'scaling', () =>
    Promise.all(BASE_SERVINGS.map(async (servings) => ({ servings, ...(await createWorded(inst.api, owner.token, { servings })) }))),
  );
  const quantitiesOf = async (id: string, servings?: number): Promise<(number | null | undefined)[]> => {
    const res = await inst.api.call('GET', recipePath(id), { token: owner.token, query: { servings } });
    assert.equal(res.status, 200, `GET ${recipePath(id)}?servings=${servings}: ${shown(res)}`);
    const view = inst.api.recipeOf(res);
    if (servings !== undefined) assert.equal(view.servings, servings, `the servings of the scaled answer: ${shown(res)}`);
    return (view.ingredients ?? []).map((i) => i.quantity);
  };
  await guardedProperty(
    c,
    fc.record({ recipe: fc.integer({ min: 0, max: BASE_SERVINGS.length - 1 }), servings: fc.integer({ min: 1, max: 24 }) }),
    async ({ recipe, servings }) => {
      const r = made[recipe]!;
      const original = r.fields.ingredients!.map((i) => i.quantity);
      const scaled = await quantitiesOf(r.id, servings);
      original.forEach((q, i) => {
        if (q === undefined) return;
        const want = (q * servings) / r.servings;
        assert.ok(Math.abs(Number(scaled[i]) - want) <= want * 0.021, `quantity ${q} for ${r.servings} servings, scaled to ${servings}: ${scaled[i]} (want ${want})`);
      });
      // Back at its own servings, and stored unchanged.
      assert.deepEqual(await quantitiesOf(r.id, r.servings), original.map((q) => q ?? null));
      assert.deepEqual(await quantitiesOf(r.id), original.map((q) => q ?? null));
    },
    20,
  );
});
