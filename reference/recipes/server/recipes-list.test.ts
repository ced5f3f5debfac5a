// The recipe lists over HTTP: the envelope, newest first, every recipe once over the pages, each filter and
// their combination against a model of what the caller may see, favorites, the public list, and the query
// values refused (catalog recipes/list-query/*, recipes/public/*, recipes/saved/*, recipes/recipes/list-visibility).
// Serial: each test compares whole lists with a model of every recipe stored.
import test from 'ava';
import type { Answer } from './test-server.ts';
import { type Account, createRecipe, type RecipesFixture, startWithAccounts } from './recipes-test-support.ts';

let f: RecipesFixture;
interface Made {
  id: string;
  ownerId: string;
  title: string;
  description: string;
  ingredients: { name: string }[];
  tags: string[];
  category: string | null;
  isPublic: boolean;
  createdAt: string;
}
const made: Made[] = [];

const WORDS = ['Apple', 'basil', 'Chili', 'dill'];
const CATEGORIES = ['dinner', 'dessert', null];

test.before(async () => {
  f = await startWithAccounts();
  // 30 recipes of the cook's and the other user's, public and private, with words in different fields.
  for (let i = 0; i < 30; i++) {
    const who = i % 3 === 0 ? f.other : f.cook;
    const word = WORDS[i % WORDS.length]!;
    const where = i % 4;
    const { body } = await createRecipe(f.s, who, {
      title: where === 0 ? `${word} soup ${i}` : `Dish ${i}`,
      description: where === 1 ? `Lots of ${word.toUpperCase()}.` : '',
      ingredients: where === 2 ? [{ name: `fresh ${word}` }] : [{ name: 'water' }],
      tags: where === 3 ? [word, `n${i % 5}`] : [`n${i % 5}`],
      category: CATEGORIES[i % 3],
      isPublic: i % 2 === 0,
    });
    made.push(body);
  }
  for (const i of [0, 1, 4, 7]) await f.s.api('POST', `/api/recipes/${made[i]!.id}/saved`, { headers: f.cook.headers });
});
test.after.always(async () => {
  await f?.s.close();
});

const list = (who: Account | null, query: string): Promise<Answer> =>
  f.s.api('GET', `${who ? '/api/recipes' : '/api/recipes/public'}?${query}`, { headers: who?.headers ?? {} });

/** Every item over the pages of `query`, page by page with `limit`. */
async function everyPage(who: Account | null, query: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const { body } = await list(who, `${query}&limit=${limit}&page=${page}`);
    ids.push(...body.items.map((recipe: { id: string }) => recipe.id));
    if (page >= body.totalPages) return ids;
  }
}

/** What `who` (null: the public list) sees for the filters, newest first, by the catalog's rules. */
function expected(who: Account | null, filters: { q?: string; tag?: string; category?: string; mine?: boolean; saved?: string[] }): string[] {
  return made
    .filter((r) => r.isPublic || (who !== null && r.ownerId === who.id))
    .filter((r) => !filters.mine || r.ownerId === who?.id)
    .filter((r) => !filters.saved || filters.saved.includes(r.id))
    .filter((r) => filters.category === undefined || r.category === filters.category)
    .filter((r) => filters.tag === undefined || r.tags.includes(filters.tag.toLowerCase()))
    .filter((r) => {
      if (filters.q === undefined) return true;
      const q = filters.q.toLowerCase();
      return [r.title, r.description, ...r.ingredients.map((i) => i.name), ...r.tags].some((text) => text.toLowerCase().includes(q));
    })
    .sort((a, b) => (a.createdAt !== b.createdAt ? (a.createdAt > b.createdAt ? -1 : 1) : a.id < b.id ? -1 : 1))
    .map((r) => r.id);
}

test.serial('the envelope: items, page, limit, total, totalPages; defaults page 1 and limit 20', async (t) => {
  const { status, body } = await list(f.cook, '');
  t.is(status, 200);
  const total = expected(f.cook, {}).length;
  t.deepEqual(Object.keys(body), ['items', 'page', 'limit', 'total', 'totalPages']);
  t.like(body, { page: 1, limit: 20, total, totalPages: Math.ceil(total / 20) });
  t.is(body.items.length, 20);
  const favorites = new Set([0, 1, 4, 7].map((i) => made[i]!.id));
  t.true(body.items.every((recipe: { id: string; saved: boolean }) => recipe.saved === favorites.has(recipe.id)));
});

test.serial('paging: every recipe once, newest first, for several page sizes; a page past the end is empty', async (t) => {
  for (const limit of [1, 7, 20, 100]) t.deepEqual(await everyPage(f.cook, 'x=1', limit), expected(f.cook, {}), `limit ${limit}`);
  const past = await list(f.cook, 'page=99&limit=10');
  t.is(past.status, 200);
  t.deepEqual(past.body.items, []);
  t.is(past.body.total, expected(f.cook, {}).length);
  const clamped = await list(f.cook, 'limit=1000');
  t.is(clamped.body.limit, 100);
});

// Filter combinations, each checked for the cook, the other user and the public list.
const FILTERS: { query: string; filters: Parameters<typeof expected>[1] }[] = [
  { query: 'q=apple', filters: { q: 'apple' } },
  { query: 'q=BASIL', filters: { q: 'BASIL' } },
  { query: 'q=soup%201', filters: { q: 'soup 1' } },
  { query: 'q=', filters: {} },
  { query: 'q=%20dish', filters: { q: ' dish' } },
  { query: 'tag=Chili', filters: { tag: 'Chili' } },
  { query: 'tag=n2', filters: { tag: 'n2' } },
  { query: 'category=dessert', filters: { category: 'dessert' } },
  { query: 'category=brunch', filters: { category: 'brunch' } },
  { query: 'mine=true', filters: { mine: true } },
  { query: 'mine=1&category=dinner', filters: { mine: true, category: 'dinner' } },
  { query: 'mine=0&q=dill', filters: { q: 'dill' } },
  { query: 'tag=n1&q=dish&category=dinner', filters: { tag: 'n1', q: 'dish', category: 'dinner' } },
];

for (const { query, filters } of FILTERS) {
  test.serial(`filter ${query}: exactly the matching recipes the caller sees`, async (t) => {
    for (const who of [f.cook, f.other]) t.deepEqual(await everyPage(who, query, 5), expected(who, filters), who.id);
    const { mine: _, ...publicFilters } = filters;
    t.deepEqual(await everyPage(null, query, 5), expected(null, publicFilters), 'public list (mine ignored)');
  });
}

test.serial('saved=true: the caller\'s favorites that remain readable; saved on each item', async (t) => {
  const saved = [0, 1, 4, 7].map((i) => made[i]!.id);
  t.deepEqual(await everyPage(f.cook, 'saved=true', 3), expected(f.cook, { saved }));
  t.deepEqual(await everyPage(f.other, 'saved=1', 3), []);
  const { body } = await list(f.cook, 'saved=true&limit=100');
  t.true(body.items.every((recipe: { saved: boolean }) => recipe.saved));
  // The public list ignores any token: saved is false there.
  const open = await f.s.api('GET', '/api/recipes/public?limit=100', { headers: f.cook.headers });
  t.true(open.body.items.every((recipe: { saved: boolean }) => recipe.saved === false));
});

test.serial('favorites: idempotent 204s, per user; unsaving an id never saved but readable is 204, an unknown one 404', async (t) => {
  const { body: recipe } = await createRecipe(f.s, f.other, { isPublic: true, title: 'Favorite' });
  const path = `/api/recipes/${recipe.id}/saved`;
  for (let i = 0; i < 2; i++) t.is((await f.s.api('POST', path, { headers: f.cook.headers })).status, 204);
  t.true((await f.s.api('GET', `/api/recipes/${recipe.id}`, { headers: f.cook.headers })).body.saved);
  t.false((await f.s.api('GET', `/api/recipes/${recipe.id}`, { headers: f.other.headers })).body.saved, 'per user');
  for (let i = 0; i < 2; i++) t.is((await f.s.api('DELETE', path, { headers: f.cook.headers })).status, 204);
  t.false((await f.s.api('GET', `/api/recipes/${recipe.id}`, { headers: f.cook.headers })).body.saved);
  t.is((await f.s.api('DELETE', '/api/recipes/00000000-0000-4000-8000-000000000000/saved', { headers: f.cook.headers })).status, 404);
  // A favorite whose recipe turned private: gone from saved=true, still removable.
  await f.s.api('POST', path, { headers: f.cook.headers });
  await f.s.api('PATCH', `/api/recipes/${recipe.id}`, { json: { isPublic: false }, headers: f.other.headers });
  t.false((await everyPage(f.cook, 'saved=true', 100)).includes(recipe.id));
  t.is((await f.s.api('DELETE', path, { headers: f.cook.headers })).status, 204);
  // Deleting a recipe removes every favorite pointing at it.
  await f.s.api('PATCH', `/api/recipes/${recipe.id}`, { json: { isPublic: true }, headers: f.other.headers });
  await f.s.api('POST', path, { headers: f.cook.headers });
  await f.s.api('DELETE', `/api/recipes/${recipe.id}`, { headers: f.other.headers });
  t.is(f.s.store.data.saved[f.cook.id]?.[recipe.id], undefined);
});

const REFUSED = ['page=0', 'page=-1', 'page=1.5', 'page=x', 'limit=0', 'limit=2.5', 'limit=', 'mine=yes', 'saved=2', 'q=a&q=b', `q=${'a'.repeat(201)}`];

test.serial('query values refused with 400 naming the parameter', async (t) => {
  for (const query of REFUSED) {
    const { status, body } = await list(f.cook, query);
    t.is(status, 400, query);
    t.is(body.details?.[0]?.field, query.split('=')[0], query);
  }
  // The public list does not read mine or saved.
  t.is((await list(null, 'mine=yes&saved=2')).status, 200);
  t.is((await list(null, 'page=0')).status, 400);
});

test.serial('the public list needs no token and ignores one, even one not accepted', async (t) => {
  const anonymous = await list(null, 'limit=100');
  t.is(anonymous.status, 200);
  t.deepEqual(
    anonymous.body.items.map((r: { id: string }) => r.id),
    expected(null, {}),
  );
  const withBadToken = await f.s.api('GET', '/api/recipes/public?limit=100', { headers: { authorization: 'Bearer nope' } });
  t.deepEqual(withBadToken.body, anonymous.body);
});
