// GET /api/recipes and its query parameters q, tag, category, mine, page and limit, over ten known recipes of
// two users on a recipe manager of this file's own (list-data.ts): each filter restricts the list, mine gives
// the caller's own recipes, pages hold at most limit recipes and reach each one once; and, informationally,
// the reference's readings of what the document leaves open (AND of filters, who sees what, the envelope).
// Only the cases about paging ask pages by number (from shapes.pageBase); the others read the list as the
// target pages it (list-pages.ts).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { check } from '../harness/index.ts';
import type { CaseContext } from '../harness/case-context.ts';
import { guardedProperty, once, refused } from './case-helpers.ts';
import { CATEGORY_SOURCE } from './categories.ts';
import { type ListData, makeListData, type Owner } from './list-data.ts';
import { andProblems, listProblems } from './list-judge.ts';
import { idsOf, type ListFilters, walkPages } from './list-pages.ts';
import { RECIPES, type Instance, sharedInstance } from './target.ts';
import { shown } from './api.ts';

const PATH = '/api/recipes';

const sorted = (ids: Iterable<string>): string[] => [...ids].sort();

async function listData(c: CaseContext): Promise<{ inst: Instance; data: ListData }> {
  const inst = await sharedInstance(c, 'lists');
  const data = await once(inst, 'list-data', () => makeListData(inst.api));
  return { inst, data };
}

/** Walks the list for `caller` with `f` and `limit`; `numbered` for the cases about paging (every page asked by
 * number), else as the target pages it. */
async function walk(inst: Instance, data: ListData, caller: Owner, f: ListFilters, limit?: number, numbered = false) {
  return walkPages(inst.api, PATH, data.users[caller].token, f, { limit, maxPages: data.recipes.length + 2, numbered });
}

/** The two values of a filter in the data; the category filter's only when the recipes name categories. */
function filterValues(c: CaseContext, data: ListData, key: 'q' | 'tag' | 'category'): [string, string] {
  if (key === 'q') return data.words;
  if (key === 'tag') return data.tags;
  return data.categories ?? c.inconclusive(`the target has fewer than two categories a recipe can name (clause ${CATEGORY_SOURCE})`);
}

check('recipes/recipes/list-endpoint/bearer-list-with-every-parameter', RECIPES, async (t, c) => {
  const { inst, data } = await listData(c);
  const anonymous = await inst.api.call('GET', PATH);
  t.true(refused(anonymous), `GET ${PATH} without a token: ${shown(anonymous)}`);
  // Category when the recipes name categories (only the category cases need them).
  const f: ListFilters = { q: data.words[0], tag: data.tags[0], category: data.categories?.[0], mine: true };
  const got = await walk(inst, data, 'a', f, 5, true);
  if (!t.true(got.refused === undefined, `GET ${PATH} with ${Object.keys(f).filter((k) => f[k as keyof ListFilters] !== undefined).join(', ')}, page and limit: ${got.refused ? shown(got.refused) : ''}`)) return;
  // The recipe meeting every filter (the caller's, public, word 0, tag 0, category 0) is in it, however the
  // filters combine.
  t.true(idsOf(got.items).includes(data.recipes[0]!.id), `the caller's recipe meeting every filter is not listed (${got.asked.join(' ; ')})`);
});

/** Each filter alone and with mine, for both of its values: only the recipes meeting it (list-judge.ts). */
for (const [key, behaviour] of [
  ['q', 'only-matching-recipes'],
  ['tag', 'only-tagged-recipes'],
  ['category', 'only-that-category'],
] as const) {
  check(`recipes/list-query/${key}/${behaviour}`, RECIPES, async (t, c) => {
    const { inst, data } = await listData(c);
    const values = filterValues(c, data, key);
    for (const [value, mine] of [[values[0], false], [values[1], false], [values[0], true]] as const) {
      const f: ListFilters = { [key]: value, mine };
      t.deepEqual(listProblems(data, await walk(inst, data, 'a', f), f, 'a', undefined), []);
    }
  });
}

check('recipes/list-query/mine/only-own-recipes', RECIPES, async (t, c) => {
  const { inst, data } = await listData(c);
  for (const caller of ['a', 'b'] as const) {
    const got = await walk(inst, data, caller, { mine: true });
    t.deepEqual(listProblems(data, got, { mine: true }, caller, undefined), []);
    // Exactly the caller's: public and private, nobody else's.
    const own = data.recipes.filter((r) => r.owner === caller).map((r) => r.id);
    t.deepEqual(sorted(idsOf(got.items)), sorted(own), `mine for ${caller === 'a' ? 'the first' : 'the second'} user (${got.asked.join(' ; ')})`);
  }
});

check('recipes/list-query/page-limit/pages-of-limit-each-recipe-once', RECIPES, async (t, c) => {
  const { inst, data } = await listData(c);
  for (const limit of [1, 2, 4]) {
    const got = await walk(inst, data, 'a', { mine: true }, limit, true);
    t.deepEqual(listProblems(data, got, { mine: true }, 'a', limit), []);
    // Six own recipes: full pages of `limit` until the last.
    t.true(got.sizes.slice(0, -1).every((n) => n === limit) && (got.sizes[0] ?? 0) === Math.min(limit, 6), `page sizes ${got.sizes.join(', ')} with limit ${limit} over 6 recipes`);
  }
});

/** Any combination of the parameters: a filter value of the data or none, mine or not, a small limit or none,
 * as either user. */
const queries = fc.record({
  caller: fc.constantFrom<Owner>('a', 'b'),
  q: fc.constantFrom(undefined, 0, 1),
  tag: fc.constantFrom(undefined, 0, 1),
  category: fc.constantFrom(undefined, 0, 1),
  mine: fc.boolean(),
  limit: fc.constantFrom(undefined, 1, 2, 3, 5),
});

type Query = typeof queries extends fc.Arbitrary<infer T> ? T : never;

function filtersOf(data: ListData, x: Query): ListFilters {
  return {
    q: x.q === undefined ? undefined : data.words[x.q],
    tag: x.tag === undefined ? undefined : data.tags[x.tag],
    category: x.category === undefined ? undefined : data.categories?.[x.category],
    mine: x.mine,
  };
}

check('recipes/recipes/list-endpoint/any-query-each-matching-recipe-once', RECIPES, async (_t, c) => {
  const { inst, data } = await listData(c);
  await guardedProperty(
    c,
    queries,
    async (x) => {
      const f = filtersOf(data, x);
      assert.deepEqual(listProblems(data, await walk(inst, data, x.caller, f, x.limit, true), f, x.caller, x.limit), []);
    },
    25,
  );
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('recipes/list-query/combination/filters-all-hold', RECIPES, async (_t, c) => {
  const { inst, data } = await listData(c);
  await guardedProperty(
    c,
    queries,
    async (x) => {
      const f = filtersOf(data, x);
      assert.deepEqual(andProblems(data, await walk(inst, data, x.caller, f, x.limit), f, x.caller), []);
    },
    20,
  );
});

check('recipes/recipes/list-visibility/own-and-others-public', RECIPES, async (t, c) => {
  const { inst, data } = await listData(c);
  const got = await walk(inst, data, 'a', {}, 5);
  const want = data.recipes.filter((r) => r.owner === 'a' || r.isPublic).map((r) => r.id);
  t.deepEqual(sorted(idsOf(got.items)), sorted(want), `GET ${PATH} as the first user (${got.asked.join(' ; ')})`);
});

check('recipes/list-query/q-matching/case-insensitive-substring', RECIPES, async (t, c) => {
  const { inst, data } = await listData(c);
  const q = data.words[0].slice(2, 9).toUpperCase();
  const got = await walk(inst, data, 'a', { q, mine: true });
  const want = data.recipes.filter((r) => r.owner === 'a' && r.words.includes(0)).map((r) => r.id);
  t.deepEqual(sorted(idsOf(got.items)), sorted(want), `q=${q} (part of a title word, upper-cased) with mine (${got.asked.join(' ; ')})`);
});

check('recipes/list-query/envelope/items-page-limit-total', RECIPES, async (t, c) => {
  const { inst, data } = await listData(c);
  const res = await inst.api.call('GET', PATH, { token: data.users.a.token, query: { mine: inst.api.shapes.mine, page: 2, limit: 4 } });
  const body = (await c.need('the list answer', () => inst.api.body(res))) as Record<string, unknown>;
  t.is(res.status, 200, shown(res));
  t.like(body, { page: 2, limit: 4, total: 6, totalPages: 2 }, shown(res));
  t.true(Array.isArray(body['items']), shown(res));
});

check('recipes/list-query/pagination-defaults/past-the-end-empty', RECIPES, async (t, c) => {
  const { inst, data } = await listData(c);
  const past = await inst.api.call('GET', PATH, { token: data.users.a.token, query: { mine: inst.api.shapes.mine, page: 50 } });
  t.is(past.status, 200, `page 50: ${shown(past)}`);
  t.deepEqual(past.status === 200 ? inst.api.itemsOf(past) : undefined, [], `page 50: ${shown(past)}`);
  const zero = await inst.api.call('GET', PATH, { token: data.users.a.token, query: { page: 0 } });
  t.is(zero.status, 400, `page 0: ${shown(zero)}`);
  const big = await inst.api.call('GET', PATH, { token: data.users.a.token, query: { limit: 1000 } });
  t.true(big.status === 200 && /"limit":100[,}]/.test(big.text), `limit 1000 is clamped to 100: ${shown(big)}`);
});

check('recipes/list-query/mine-meaning/true-or-1-own-false-or-0-none', RECIPES, async (t, c) => {
  const { inst, data } = await listData(c);
  const idsFor = async (mine: string) => {
    const res = await inst.api.call('GET', PATH, { token: data.users.a.token, query: { mine, limit: 100 } });
    return res.status === 200 ? sorted(idsOf(inst.api.itemsOf(res))) : `${res.status}`;
  };
  const own = sorted(data.recipes.filter((r) => r.owner === 'a').map((r) => r.id));
  const visible = sorted(data.recipes.filter((r) => r.owner === 'a' || r.isPublic).map((r) => r.id));
  for (const mine of ['true', '1']) t.deepEqual(await idsFor(mine), own, `mine=${mine}`);
  for (const mine of ['false', '0']) t.deepEqual(await idsFor(mine), visible, `mine=${mine}`);
  t.is(await idsFor('yes'), '400', 'mine=yes');
});

check('recipes/list-query/ordering/newest-first', RECIPES, async (t, c) => {
  const { inst, data } = await listData(c);
  const res = await inst.api.call('GET', PATH, { token: data.users.a.token, query: { limit: 100 } });
  const items = res.status === 200 ? inst.api.itemsOf(res) : [];
  const keys = items.map((r) => [String(r['createdAt']), String(r.id)] as const);
  const want = [...keys].sort((x, y) => (x[0] === y[0] ? (x[1] < y[1] ? -1 : 1) : x[0] < y[0] ? 1 : -1));
  t.true(items.length > 0, shown(res));
  t.deepEqual(keys, want, 'the list is not newest first (ties by id)');
});
