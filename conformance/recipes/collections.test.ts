// The lists beside a user's recipes: the public list (no token, public recipes only), the distinct tags (no
// token, each once), the categories (bearer), and favorites (save and unsave behind a bearer token, whose
// effect the document gives no way to see: informationally through the reference's saved flag and filter).
import type { CaseContext } from '../harness/case-context.ts';
import { check } from '../harness/index.ts';
import { type Account, categoryValue, is2xx, sameId, shown } from './api.ts';
import { once, refused, uniqueWord } from './case-helpers.ts';
import { idsOf, walkPages } from './list-pages.ts';
import { createWorded, recipePath } from './recipe-fields.ts';
import { type Instance, RECIPES, sharedInstance, start } from './target.ts';

interface Cast {
  inst: Instance;
  owner: Account;
  other: Account;
}

async function cast(c: CaseContext): Promise<Cast> {
  const inst = await sharedInstance(c, 'collections');
  const [owner, other] = await once(inst, 'users', () => Promise.all([inst.api.user('owner'), inst.api.user('other')]));
  return { inst, owner: owner!, other: other! };
}

/** A worded recipe of `token`'s user, with more tags. */
const recipe = (x: Cast, token: string, isPublic: boolean, tags: string[] = []) => createWorded(x.inst.api, token, { isPublic, tags });

/** The tags of GET /api/recipes/tags as `token`'s user (or nobody): the answer and its tags (shapes.tagKey). */
async function tagsOf(c: CaseContext, x: Cast, token?: string): Promise<{ ok: boolean; tags: string[]; shown: string }> {
  const res = await x.inst.api.call('GET', '/api/recipes/tags', { token });
  if (!is2xx(res)) return { ok: false, tags: [], shown: shown(res) };
  const tags = await c.need('the tags of the tags answer (shapes.at.tags, shapes.tagKey)', () => x.inst.api.tagsOf(res));
  return { ok: true, tags, shown: shown(res) };
}

check('recipes/public/list-public/public-only-without-token', RECIPES, async (t, c) => {
  // A recipe manager of the case's own: two recipes, so the public one is on the first page whatever the
  // paging and order (neither is shown for this list).
  const inst = await start(c);
  const owner = await inst.api.user('owner');
  const pub = await createWorded(inst.api, owner.token, { isPublic: true });
  const priv = await createWorded(inst.api, owner.token, { isPublic: false });
  for (const [who, token] of [['no token', undefined], ['its owner', owner.token]] as const) {
    const got = await walkPages(inst.api, '/api/recipes/public', token, {}, { maxPages: 5 });
    if (!t.true(got.refused === undefined, `GET /api/recipes/public with ${who}: ${got.refused ? shown(got.refused) : ''}`)) continue;
    const ids = idsOf(got.items);
    t.true(ids.includes(pub.id), `the public recipe is not in the public list with ${who} (${got.asked.join(' ; ')})`);
    t.false(ids.includes(priv.id), `the private recipe is in the public list with ${who} (${got.asked.join(' ; ')})`);
    const notPublic = got.items.filter((r) => r.isPublic !== undefined && r.isPublic !== true).map((r) => r.id);
    t.deepEqual(notPublic, [], `recipes whose isPublic is not true in the public list with ${who}`);
  }
});

check('recipes/tags/list-distinct/every-tag-once-without-token', RECIPES, async (t, c) => {
  const x = await cast(c);
  const shared = uniqueWord('tg');
  const a = await recipe(x, x.owner.token, true, [shared]);
  const b = await recipe(x, x.other.token, true, [shared]);
  const got = await tagsOf(c, x);
  if (!t.true(got.ok, `GET /api/recipes/tags without a token: ${got.shown}`)) return;
  for (const tag of [shared, a.words.tag, b.words.tag]) t.is(got.tags.filter((x) => x === tag).length, 1, `the tag ${tag} of public recipes, listed ${got.tags.filter((x) => x === tag).length} times: ${got.shown}`);
  t.is(new Set(got.tags).size, got.tags.length, `a tag listed twice: ${got.shown}`);
});

check('recipes/categories/list/bearer-lists-categories', RECIPES, async (t, c) => {
  const x = await cast(c);
  const res = await x.inst.api.call('GET', '/api/categories', { token: x.owner.token });
  if (!t.true(is2xx(res), `GET /api/categories: ${shown(res)}`)) return;
  const list = await c.need('the categories answer (shapes.at.categories)', () => x.inst.api.read<unknown>('categories', res));
  t.true(Array.isArray(list), `the categories are not a list: ${shown(res)}`);
  for (const token of [undefined, 'not-a-token']) {
    const other = await x.inst.api.call('GET', '/api/categories', { token });
    t.true(refused(other), `GET /api/categories with ${token ?? 'no token'}: ${shown(other)}`);
  }
});

for (const [method, clause] of [
  ['POST', 'save'],
  ['DELETE', 'unsave'],
] as const) {
  // Which recipes may be saved is not shown (recipes/saved/semantics): another user's public recipe may.
  check(`recipes/saved/${clause}/bearer-${clause}s-public-recipe`, RECIPES, async (t, c) => {
    const x = await cast(c);
    const r = await recipe(x, x.owner.token, true);
    const path = `${recipePath(r.id)}/saved`;
    if (method === 'DELETE') await c.need('saving it first', () => x.inst.api.ok('POST', x.inst.api.call('POST', path, { token: x.other.token })));
    for (const token of [undefined, 'not-a-token']) {
      const anonymous = await x.inst.api.call(method, path, { token });
      t.true(refused(anonymous), `${method} ${path} with ${token ?? 'no token'}: ${shown(anonymous)}`);
    }
    const res = await x.inst.api.call(method, path, { token: x.other.token });
    t.true(is2xx(res), `${method} ${path} as another user: ${shown(res)}`);
  });
}

// ---------------------------------------------------------------- the reference's choices (unspecified)

/** The saved flag of a recipe for `token`'s user, and whether the saved=true list holds it. */
async function savedState(c: CaseContext, x: Cast, id: string, token: string): Promise<{ flag: unknown; listed: boolean }> {
  const res = await c.need(`GET ${recipePath(id)}`, () => x.inst.api.ok('GET', x.inst.api.call('GET', recipePath(id), { token })));
  const flag = x.inst.api.recipeOf(res)['saved'];
  const list = await x.inst.api.call('GET', '/api/recipes', { token, query: { saved: 'true', limit: 100 } });
  return { flag, listed: is2xx(list) && x.inst.api.itemsOf(list).some((r) => sameId(r.id, id)) };
}

check('recipes/saved/listing/saved-flag-and-filter', RECIPES, async (t, c) => {
  const x = await cast(c);
  const r = await recipe(x, x.owner.token, true);
  const path = `${recipePath(r.id)}/saved`;
  await c.need('saving', () => x.inst.api.ok('POST', x.inst.api.call('POST', path, { token: x.other.token })));
  t.deepEqual(await savedState(c, x, r.id, x.other.token), { flag: true, listed: true }, 'after saving');
  t.deepEqual(await savedState(c, x, r.id, x.owner.token), { flag: false, listed: false }, 'for another user (favorites are per user)');
  await c.need('unsaving', () => x.inst.api.ok('DELETE', x.inst.api.call('DELETE', path, { token: x.other.token })));
  t.deepEqual(await savedState(c, x, r.id, x.other.token), { flag: false, listed: false }, 'after unsaving');
});

check('recipes/saved/semantics/idempotent-204-readable-only', RECIPES, async (t, c) => {
  const x = await cast(c);
  const pub = await recipe(x, x.owner.token, true);
  for (const method of ['POST', 'POST', 'DELETE', 'DELETE']) {
    const res = await x.inst.api.call(method, `${recipePath(pub.id)}/saved`, { token: x.other.token });
    t.is(res.status, 204, `${method} saved of another user's public recipe: ${shown(res)}`);
  }
  const priv = await recipe(x, x.owner.token, false);
  const res = await x.inst.api.call('POST', `${recipePath(priv.id)}/saved`, { token: x.other.token });
  t.is(res.status, 404, `saving another user's private recipe: ${shown(res)}`);
});

check('recipes/tags/scope-and-shape/private-tags-for-owner-only', RECIPES, async (t, c) => {
  const x = await cast(c);
  const priv = await recipe(x, x.owner.token, false);
  const res = await x.inst.api.call('GET', '/api/recipes/tags');
  t.is(res.status, 200, shown(res));
  t.true(/^\[/.test(res.text) && res.json<unknown[]>().every((s) => typeof s === 'string'), `not a JSON array of strings: ${shown(res)}`);
  const all = (await tagsOf(c, x)).tags;
  t.deepEqual(all, [...all].sort(), `not sorted: ${shown(res)}`);
  t.false(all.includes(priv.words.tag), `a private recipe's tag without a token: ${shown(res)}`);
  t.false((await tagsOf(c, x, x.other.token)).tags.includes(priv.words.tag), "a private recipe's tag for another user");
  t.true((await tagsOf(c, x, x.owner.token)).tags.includes(priv.words.tag), "a private recipe's tag for its owner");
});

check('recipes/tags/normalization/trimmed-lower-case', RECIPES, async (t, c) => {
  const x = await cast(c);
  const word = uniqueWord('tn');
  const made = await x.inst.api.recipe(x.owner.token, { title: 'Tagged', tags: [`  ${word.toUpperCase()} `, word, ''], isPublic: true });
  t.deepEqual(made.tags, [word], `tags sent as "  ${word.toUpperCase()} ", "${word}", ""`);
});

check('recipes/categories/source-and-shape/seeded-slugs-by-name', RECIPES, async (t, c) => {
  const x = await cast(c);
  const res = await x.inst.api.call('GET', '/api/categories', { token: x.owner.token });
  const list = await c.need('the categories answer', () => x.inst.api.read<{ name?: unknown }[]>('categories', res));
  if (!t.true(Array.isArray(list), `not a list: ${shown(res)}`)) return;
  t.deepEqual(list.map((entry) => categoryValue(x.inst.api.shapes, entry)).sort(), ['breakfast', 'dessert', 'dinner', 'drink', 'lunch', 'other', 'side', 'snack'], shown(res));
  const names = list.map((entry) => String(entry.name));
  t.deepEqual(names, [...names].sort(), `not sorted by name: ${shown(res)}`);
  const bad = await x.inst.api.call('POST', '/api/recipes', { token: x.owner.token, json: { title: 'Uncategorised', category: 'no-such-category' } });
  t.is(bad.status, 400, `an unknown category: ${shown(bad)}`);
});

check('recipes/public/query-and-shape/filters-and-envelope', RECIPES, async (t, c) => {
  const x = await cast(c);
  const r = await recipe(x, x.owner.token, true);
  const res = await x.inst.api.call('GET', '/api/recipes/public', { query: { q: r.words.title, limit: 5 } });
  t.is(res.status, 200, shown(res));
  t.like(res.json<Record<string, unknown>>(), { page: 1, limit: 5, total: 1, totalPages: 1 }, shown(res));
  t.deepEqual(idsOf(x.inst.api.itemsOf(res, 'publicItems')), [r.id], shown(res));
});
