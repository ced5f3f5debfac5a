// The categories a recipe can name, for the cases about categories (only they need one). Where categories come
// from and how a recipe names one are not shown (catalog recipes/categories/source-and-shape): a target may
// list a seeded set, or none on a fresh install and then the categories its recipes name. So a case takes what
// GET /api/categories lists (shapes.at.categories, shapes.categoryKey), and when it lists too few, a word of
// its own that a recipe names — once the target lists that word too; otherwise the case cannot judge.
import { Inconclusive } from '../harness/inconclusive.ts';
import { categoryValue, is2xx, type RecipeFields, type RecipesApi, type RecipeView } from './api.ts';
import { uniqueWord } from './case-helpers.ts';

/** The clause that leaves the source of categories open (named when a case finds none it can use). */
export const CATEGORY_SOURCE = 'recipes/categories/source-and-shape';

/** The category values GET /api/categories lists for `token`'s user, distinct, in the answer's order; undefined
 * when the list is refused or unreadable (a departure of recipes/categories/list, judged by its own cases). */
export async function listedCategories(api: RecipesApi, token: string): Promise<string[] | undefined> {
  const res = await api.call('GET', '/api/categories', { token });
  if (!is2xx(res)) return undefined;
  try {
    const list = api.read<unknown>('categories', res);
    return Array.isArray(list) ? [...new Set(list.map((entry) => categoryValue(api.shapes, entry)))] : undefined;
  } catch (err) {
    if (err instanceof Inconclusive) return undefined;
    throw err;
  }
}

/** A fresh word for a category of a recipe's own. */
export const newCategoryWord = (): string => uniqueWord('ct');

/**
 * Creates the recipe `fields` naming the category `word` of its own: the recipe made (undefined when the target
 * refused it) and whether GET /api/categories lists the word afterwards (the target takes categories from its
 * recipes). A probe, not a judgement: a refusal is no failure.
 */
export async function createWithOwnCategory(api: RecipesApi, token: string, fields: RecipeFields, word: string): Promise<{ made: RecipeView | undefined; listed: boolean }> {
  const res = await api.call('POST', '/api/recipes', { token, json: { ...fields, category: word } });
  if (!is2xx(res)) return { made: undefined, listed: false };
  const made = await api.c.need('the created recipe in the answer', () => api.recipeOf(res, 'createdRecipe'));
  return { made, listed: (await listedCategories(api, token))?.includes(word) === true };
}

/** One category a recipe can name: the first listed, else a word of its own the target lists once a private
 * recipe (made here) names it; Inconclusive naming the clauses when neither. */
export async function oneCategory(api: RecipesApi, token: string): Promise<string> {
  const listed = await listedCategories(api, token);
  if (listed !== undefined && listed.length > 0) return listed[0]!;
  const word = newCategoryWord();
  const probe = await createWithOwnCategory(api, token, { title: `Conformance category probe ${word}`, isPublic: false }, word);
  if (!probe.listed) {
    const source = listed === undefined ? 'GET /api/categories was refused or unreadable (clause recipes/categories/list)' : 'GET /api/categories lists no category';
    throw new Inconclusive(`${source}, and a recipe naming one of its own (${word}) was ${probe.made ? 'made but the category is not listed' : 'refused'} (clause ${CATEGORY_SOURCE})`);
  }
  return word;
}
