// Who may read and change a recipe, over HTTP: owner, another user, an admin and a caller without a token, against
// a public and a private recipe, for every recipe endpoint (catalog recipes/recipes/public-readable-without-auth,
// private-access, ownership, list-visibility, visibility-transition, recipes/saved/semantics). A refused change
// changes nothing.
import test from 'ava';
import { type Account, createRecipe, IMAGES, postPhoto, type RecipesFixture, startWithAccounts } from './recipes-test-support.ts';

let f: RecipesFixture;
test.before(async () => {
  f = await startWithAccounts();
});
test.after.always(async () => {
  await f?.s.close();
});

type Who = 'owner' | 'other' | 'admin' | 'anonymous';
const WHO: Who[] = ['owner', 'other', 'admin', 'anonymous'];
const as = (who: Who): Account | null => (who === 'owner' ? f.cook : who === 'other' ? f.other : who === 'admin' ? f.admin : null);
const headersOf = (who: Who) => as(who)?.headers ?? {};

/** A fresh recipe of the cook's with one step. */
const fresh = async (isPublic: boolean) => (await createRecipe(f.s, f.cook, { isPublic, steps: [{ text: 'Stir.' }] })).body;

// [who, public recipe, private recipe]: the status of a change (PATCH, DELETE, photos).
const CHANGE: [Who, number, number][] = [
  ['owner', 200, 200],
  ['admin', 200, 200],
  ['other', 403, 404],
  ['anonymous', 401, 401],
];

test('GET /api/recipes/:id: public to anyone; private to the owner and admins, 404 for the others', async (t) => {
  const open = await fresh(true);
  const closed = await fresh(false);
  for (const who of WHO) {
    t.is((await f.s.api('GET', `/api/recipes/${open.id}`, { headers: headersOf(who) })).status, 200, `${who} public`);
    const read = await f.s.api('GET', `/api/recipes/${closed.id}`, { headers: headersOf(who) });
    t.is(read.status, who === 'owner' || who === 'admin' ? 200 : 404, `${who} private`);
    if (read.status === 404) t.deepEqual(read.body, { error: 'Recipe not found' });
  }
  // A token that is not accepted counts as none on this public route.
  const stale = { authorization: 'Bearer not.a.token' };
  t.is((await f.s.api('GET', `/api/recipes/${open.id}`, { headers: stale })).status, 200);
  t.is((await f.s.api('GET', `/api/recipes/${closed.id}`, { headers: stale })).status, 404);
});

for (const [who, publicStatus, privateStatus] of CHANGE) {
  test(`changes as ${who}: PATCH, photo, step photo and DELETE answer ${publicStatus} (public) / ${privateStatus} (private)`, async (t) => {
    for (const [isPublic, expected] of [
      [true, publicStatus],
      [false, privateStatus],
    ] as const) {
      const recipe = await fresh(isPublic);
      const path = `/api/recipes/${recipe.id}`;
      const label = `${who} ${isPublic ? 'public' : 'private'}`;
      const patched = await f.s.api('PATCH', path, { json: { title: 'Changed' }, headers: headersOf(who) });
      t.is(patched.status, expected, `PATCH ${label}`);
      const photo = await postPhoto(f.s, as(who), `${path}/photo`, { bytes: IMAGES.png });
      t.is(photo.status, expected, `photo ${label}`);
      const stepPhoto = await postPhoto(f.s, as(who), `${path}/steps/1/photo`, { bytes: IMAGES.gif });
      t.is(stepPhoto.status, expected, `step photo ${label}`);
      if (expected !== 200) {
        const stored = f.s.store.data.recipes[recipe.id]!;
        t.is(stored.title, 'Pancakes', `nothing changed: ${label}`);
        t.is(stored.photo, null);
        t.is(stored.steps[0]!.photo, null);
        if (expected === 403) t.deepEqual(patched.body, { error: 'Not the owner of this recipe' });
      }
      const deleted = await f.s.api('DELETE', path, { headers: headersOf(who) });
      t.is(deleted.status, expected === 200 ? 204 : expected, `DELETE ${label}`);
      t.is(recipe.id in f.s.store.data.recipes, expected !== 200, `deleted: ${label}`);
    }
  });
}

test('favorites: own and public recipes only (404 for others\' private ones, admins included); 401 without a token', async (t) => {
  const open = await fresh(true);
  const closed = await fresh(false);
  for (const who of WHO) {
    const saveOpen = await f.s.api('POST', `/api/recipes/${open.id}/saved`, { headers: headersOf(who) });
    t.is(saveOpen.status, who === 'anonymous' ? 401 : 204, `${who} public`);
    const saveClosed = await f.s.api('POST', `/api/recipes/${closed.id}/saved`, { headers: headersOf(who) });
    t.is(saveClosed.status, who === 'anonymous' ? 401 : who === 'owner' ? 204 : 404, `${who} private`);
  }
  t.true(f.s.store.data.saved[f.other.id]?.[open.id] !== undefined);
  t.is(f.s.store.data.saved[f.other.id]?.[closed.id], undefined);
  t.is(f.s.store.data.saved[f.admin.id]?.[closed.id], undefined);
});

test('lists: own recipes and public ones; never another user\'s private recipe, even for an admin', async (t) => {
  const open = await fresh(true);
  const closed = await fresh(false);
  const ids = async (who: Who) => {
    const answer = await f.s.api('GET', '/api/recipes?limit=100&q=pancakes', { headers: headersOf(who) });
    return new Set(answer.body.items.map((recipe: { id: string }) => recipe.id));
  };
  const owner = await ids('owner');
  t.true(owner.has(open.id) && owner.has(closed.id));
  for (const who of ['other', 'admin'] as const) {
    const seen = await ids(who);
    t.true(seen.has(open.id), who);
    t.false(seen.has(closed.id), who);
  }
  t.is((await f.s.api('GET', '/api/recipes')).status, 401);
  const publicIds = (await f.s.api('GET', '/api/recipes/public?limit=100', { headers: f.cook.headers })).body.items.map((r: { id: string }) => r.id);
  t.true(publicIds.includes(open.id));
  t.false(publicIds.includes(closed.id));
});

test('visibility flips at once both ways: GET without a token, the public list, other users\' lists', async (t) => {
  const recipe = await fresh(false);
  const state = async () => ({
    anonymous: (await f.s.api('GET', `/api/recipes/${recipe.id}`)).status,
    publicList: (await f.s.api('GET', '/api/recipes/public?limit=100')).body.items.some((r: { id: string }) => r.id === recipe.id),
    other: (await f.s.api('GET', '/api/recipes?limit=100', { headers: f.other.headers })).body.items.some((r: { id: string }) => r.id === recipe.id),
  });
  t.deepEqual(await state(), { anonymous: 404, publicList: false, other: false });
  await f.s.api('PATCH', `/api/recipes/${recipe.id}`, { json: { isPublic: true }, headers: f.cook.headers });
  t.deepEqual(await state(), { anonymous: 200, publicList: true, other: true });
  await f.s.api('PATCH', `/api/recipes/${recipe.id}`, { json: { isPublic: false }, headers: f.cook.headers });
  t.deepEqual(await state(), { anonymous: 404, publicList: false, other: false });
});

test('tags: public recipes\' without a token (or with one not accepted), plus the caller\'s own private ones', async (t) => {
  await createRecipe(f.s, f.cook, { isPublic: true, tags: ['Shared Tag'] });
  await createRecipe(f.s, f.cook, { isPublic: false, tags: ['cook secret'] });
  await createRecipe(f.s, f.other, { isPublic: false, tags: ['other secret'] });
  const anonymous = (await f.s.api('GET', '/api/recipes/tags')).body;
  t.true(anonymous.includes('shared tag'));
  t.false(anonymous.includes('cook secret'));
  t.false(anonymous.includes('other secret'));
  t.deepEqual((await f.s.api('GET', '/api/recipes/tags', { headers: { authorization: 'Bearer x.y.z' } })).body, anonymous);
  const cook = (await f.s.api('GET', '/api/recipes/tags', { headers: f.cook.headers })).body;
  t.true(cook.includes('cook secret'));
  t.false(cook.includes('other secret'));
  t.deepEqual(cook, [...new Set(cook)].sort(), 'distinct and sorted');
  const admin = (await f.s.api('GET', '/api/recipes/tags', { headers: f.admin.headers })).body;
  t.false(admin.includes('cook secret') || admin.includes('other secret'));
});
