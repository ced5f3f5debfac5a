// The known recipes of the list-query cases, and what each query may and must return over them. They are
// made once on a recipe manager of their own (nothing else is created there), so every listed id is one of
// them. The data is built so the expectations hold under any reasonable matching: each searched word is a
// random run of letters found in the titles of the recipes meant to match and in no other text, each tag is
// a random lower-case word given exactly, and categories are values of the target's own (categories.ts).
// Categories are there only when the target has two a recipe can name: where they come from is not shown, and
// no case but the category filter's needs them.
//
// What the document leaves open is tolerated in `must` and `may` and checked exactly in `and` (informational):
//   - which recipes a list without mine holds (catalog recipes/recipes/list-visibility): `must` holds only
//     the caller's own public recipes, `may` anything;
//   - how filters combine (recipes/list-query/combination): `may` holds recipes meeting at least one given
//     filter, `must` those meeting all; `and` is exactly those meeting all (any owner and visibility).
import type { Account, RecipeFields, RecipesApi, RecipeView } from './api.ts';
import { uniqueWord } from './case-helpers.ts';
import { createWithOwnCategory, listedCategories, newCategoryWord } from './categories.ts';
import type { ListFilters } from './list-pages.ts';

export type Owner = 'a' | 'b';

export interface KnownRecipe {
  id: string;
  owner: Owner;
  isPublic: boolean;
  title: string;
  /** Indexes into ListData.words found in the title. */
  words: number[];
  tags: string[];
  /** Undefined: made without one (the data has no categories), or with one the target does not list. */
  category: string | undefined;
}

export interface ListData {
  users: Record<Owner, Account>;
  words: [string, string];
  tags: [string, string];
  /** Two categories the recipes name, when the target has them (undefined: no recipe names one). */
  categories: [string, string] | undefined;
  recipes: KnownRecipe[];
}

/** owner, public, words, tags, category: every filter value has public and private, own and other recipes. */
const TABLE: [Owner, boolean, number[], number[], number][] = [
  ['a', true, [0], [0], 0],
  ['a', true, [1], [0, 1], 1],
  ['a', false, [0], [1], 0],
  ['a', false, [], [0], 1],
  ['a', true, [0, 1], [], 1],
  ['a', true, [], [1], 0],
  ['b', true, [0], [0], 0],
  ['b', false, [0], [0, 1], 1],
  ['b', true, [1], [1], 1],
  ['b', false, [], [], 0],
];

type Row = (typeof TABLE)[number];

/** The fields of the TABLE row `i` (without a category). */
function fieldsOf(words: [string, string], tags: [string, string], [, isPublic, w, t]: Row, i: number): RecipeFields {
  return {
    title: ['Conformance dish', ...w.map((n) => words[n]), `number ${i + 1}`].join(' '),
    description: 'A dish of the list cases.',
    servings: 2,
    ingredients: [{ name: 'salt', quantity: 1, unit: 'g' }],
    steps: [{ order: 1, text: 'Mix.' }],
    tags: t.map((n) => tags[n]!),
    isPublic,
  };
}

/** Makes the two users and the recipes of TABLE. The categories are the first two the target lists; when it
 * lists fewer, the first recipe names a word of its own, and if the target then lists it, the recipes name
 * two words of their own; else no recipe names a category. */
export async function makeListData(api: RecipesApi): Promise<ListData> {
  const [a, b] = await Promise.all([api.user('lister'), api.user('other')]);
  const users = { a, b };
  const words: [string, string] = [uniqueWord('zq'), uniqueWord('zv')];
  const tags: [string, string] = [uniqueWord('tg'), uniqueWord('tk')];
  const known = (made: RecipeView, i: number, category: string | undefined): KnownRecipe => {
    const [owner, isPublic, w] = TABLE[i]!;
    const fields = fieldsOf(words, tags, TABLE[i]!, i);
    return { id: String(made.id), owner, isPublic, title: fields.title, words: w, tags: fields.tags ?? [], category };
  };
  const listed = (await listedCategories(api, a.token)) ?? [];
  let categories: [string, string] | undefined = listed.length >= 2 ? [listed[0]!, listed[1]!] : undefined;
  let probed: KnownRecipe | undefined;
  if (categories === undefined) {
    const own: [string, string] = [newCategoryWord(), newCategoryWord()];
    const [owner, , , , cat] = TABLE[0]!;
    const probe = await createWithOwnCategory(api, users[owner].token, fieldsOf(words, tags, TABLE[0]!, 0), own[cat]!);
    if (probe.listed) categories = own;
    const made = probe.made ?? (await api.recipe(users[owner].token, fieldsOf(words, tags, TABLE[0]!, 0)));
    probed = known(made, 0, probe.listed ? own[cat] : undefined);
  }
  const recipes = await Promise.all(
    TABLE.map(async (row, i) => {
      if (i === 0 && probed) return probed;
      const category = categories?.[row[4]];
      const made = await api.recipe(users[row[0]].token, { ...fieldsOf(words, tags, row, i), ...(category === undefined ? {} : { category }) });
      return known(made, i, category);
    }),
  );
  return { users, words, tags, categories, recipes };
}

type Test = (r: KnownRecipe) => boolean;

/** The tests of the filters given, for `caller`. */
function testsOf(data: ListData, f: ListFilters, caller: Owner): Test[] {
  const tests: Test[] = [];
  if (f.q !== undefined) tests.push((r) => r.words.some((n) => data.words[n] === f.q));
  if (f.tag !== undefined) tests.push((r) => r.tags.includes(f.tag!));
  if (f.category !== undefined) tests.push((r) => r.category === f.category);
  if (f.mine) tests.push((r) => r.owner === caller);
  return tests;
}

export interface Expected {
  /** Ids that must be listed. */
  must: Set<string>;
  /** Ids that may be listed (a superset of must). */
  may: Set<string>;
  /** The ids meeting every filter, whoever owns them (the informational AND reading). */
  and: Set<string>;
}

export function expected(data: ListData, f: ListFilters, caller: Owner): Expected {
  const tests = testsOf(data, f, caller);
  const all = (r: KnownRecipe) => tests.every((t) => t(r));
  const some = (r: KnownRecipe) => tests.length === 0 || tests.some((t) => t(r));
  const ids = (keep: Test) => new Set(data.recipes.filter(keep).map((r) => r.id));
  return {
    must: ids((r) => all(r) && r.owner === caller && (f.mine === true || r.isPublic)),
    may: ids(some),
    and: ids(all),
  };
}

/** A recipe for messages: its title, owner and visibility. */
export function described(data: ListData, id: string): string {
  const r = data.recipes.find((x) => x.id === id);
  return r ? `"${r.title}" (${r.owner === 'a' ? 'the caller' : 'another user'}'s, ${r.isPublic ? 'public' : 'private'}, tags ${r.tags.join(',') || 'none'}, category ${r.category ?? 'none'})` : `${id} (not a recipe of the case)`;
}
