// The recipe lists (catalog recipes/list-query/*, recipes/recipes/list-visibility, recipes/public/query-and-shape,
// recipes/saved/listing, recipes/tags/scope-and-shape): the query checked once, then one pass over the recipes
// newest first, counting every match and keeping only the page's. What makes it cheap at 10,000 recipes:
// - the order (createdAt descending, ties by id ascending) is kept, not sorted per request: RecipeOrder follows
//   the routes' own writes and is rebuilt only when something else wrote to the store;
// - q is matched against one lower-cased text per recipe (title, description, ingredient names, tags), made once
//   per version of the recipe;
// - only the page's recipes are turned into answers.
import type { DeepReadonly, Recipe, RecipesStore, User } from '../store/index.ts';
import { ApiError } from './api-error.ts';
import { inListsOf } from './recipe-access.ts';

export const LIST_DEFAULTS = { page: 1, limit: 20, maxLimit: 100, maxQueryChars: 200 } as const;

type StoredRecipe = DeepReadonly<Recipe>;

const newestFirst = (a: StoredRecipe, b: StoredRecipe) =>
  a.createdAt > b.createdAt ? -1 : a.createdAt < b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** A recipe in the list order, with its search text (made when first needed, again once it changed). */
interface Entry {
  readonly recipe: StoredRecipe;
  search: string | null;
  searchOf: string;
}

const entryOf = (recipe: StoredRecipe): Entry => ({ recipe, search: null, searchOf: '' });

/**
 * The recipes in list order, as the store's records themselves (a change of the routes is made in place, so a
 * record stays the same object). The store counts acknowledged updates: the order is known to match the store at
 * one count. After a write of the routes, `noteWrite` moves it along when that write is the only one since (its
 * recipe added or removed); any other write — a user deleted with their recipes, a test seeding the store — leaves
 * the count ahead, and the next read sorts again.
 */
export class RecipeOrder {
  readonly #store: RecipesStore;
  #entries: Entry[] = [];
  #at = -1;

  constructor(store: RecipesStore) {
    this.#store = store;
  }

  entries(): readonly Entry[] {
    const at = this.#store.stats.acknowledged;
    if (at !== this.#at) {
      this.#entries = Object.values(this.#store.data.recipes).sort(newestFirst).map(entryOf);
      this.#at = at;
    }
    return this.#entries;
  }

  /** Called as soon as a write of the routes resolved, with the recipe it created or the id it deleted. */
  noteWrite(change: { added?: StoredRecipe; removed?: string } = {}): void {
    const at = this.#store.stats.acknowledged;
    if (at !== this.#at + 1) return;
    const entries = this.#entries;
    if (change.removed !== undefined) {
      const index = entries.findIndex((entry) => entry.recipe.id === change.removed);
      if (index >= 0) entries.splice(index, 1);
    }
    const added = change.added;
    if (added !== undefined && !entries.some((entry) => entry.recipe.id === added.id)) {
      let low = 0;
      let high = entries.length;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (newestFirst(entries[mid]!.recipe, added) < 0) low = mid + 1;
        else high = mid;
      }
      entries.splice(low, 0, entryOf(added));
    }
    this.#at = at;
  }
}

export interface ListQuery {
  /** Lower-cased search text; null: no search. */
  readonly q: string | null;
  /** Lower-cased tag; null: any. */
  readonly tag: string | null;
  readonly category: string | null;
  /** Only the caller's own recipes. */
  readonly mine: boolean;
  /** Only the caller's favorites. */
  readonly saved: boolean;
  readonly page: number;
  readonly limit: number;
}

type Query = Record<string, unknown>;

/** One value of a query parameter: undefined when absent, a 400 when given more than once. */
function single(query: Query, name: string): string | undefined {
  const value = query[name];
  if (value === undefined || typeof value === 'string') return value;
  throw new ApiError(400, `${name}: given more than once`, { details: [{ field: name, message: 'given more than once' }] });
}

function invalid(name: string, message: string): ApiError {
  return new ApiError(400, `${name}: ${message}`, { details: [{ field: name, message }] });
}

function flag(query: Query, name: string): boolean {
  const value = single(query, name);
  if (value === undefined || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw invalid(name, 'must be true, 1, false or 0');
}

function positive(query: Query, name: string, fallback: number, max: number): number {
  const value = single(query, name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || /^0+$/.test(value)) throw invalid(name, 'must be a positive integer');
  return Math.min(Number(value), max);
}

/** The list query of GET /api/recipes (`public`: GET /api/recipes/public, where mine and saved do not apply). */
export function listQueryOf(query: Query, scope: 'user' | 'public'): ListQuery {
  const q = single(query, 'q') ?? '';
  if (q.length > LIST_DEFAULTS.maxQueryChars) throw invalid('q', `longer than ${LIST_DEFAULTS.maxQueryChars} characters`);
  const tag = (single(query, 'tag') ?? '').trim().toLowerCase();
  const category = single(query, 'category') ?? '';
  return {
    q: q === '' ? null : q.toLowerCase(),
    tag: tag === '' ? null : tag,
    category: category === '' ? null : category,
    mine: scope === 'user' && flag(query, 'mine'),
    saved: scope === 'user' && flag(query, 'saved'),
    page: positive(query, 'page', LIST_DEFAULTS.page, Number.MAX_SAFE_INTEGER),
    limit: positive(query, 'limit', LIST_DEFAULTS.limit, LIST_DEFAULTS.maxLimit),
  };
}

/** Between the fields of the search text: no stored text holds it (recipe-fields.ts refuses control characters). */
const SEPARATOR = '\u0000';

/** The lower-cased text q is looked for in, made again when the recipe changed (every change sets updatedAt). */
function searchText(entry: Entry): string {
  const { recipe } = entry;
  if (entry.search === null || entry.searchOf !== recipe.updatedAt) {
    const parts = [recipe.title, recipe.description, ...recipe.ingredients.map((ingredient) => ingredient.name), ...recipe.tags];
    entry.search = parts.join(SEPARATOR).toLowerCase();
    entry.searchOf = recipe.updatedAt;
  }
  return entry.search;
}

export interface ListPage {
  readonly items: StoredRecipe[];
  readonly total: number;
}

/** The page of recipes matching `query` that `viewer` sees in lists (null: the public list), and the count of all. */
export function findRecipes(store: RecipesStore, order: RecipeOrder, query: ListQuery, viewer: DeepReadonly<User> | null): ListPage {
  const { saved } = store.data;
  const favorites = viewer !== null && Object.hasOwn(saved, viewer.id) ? saved[viewer.id]! : {};
  const { q, tag, category, mine } = query;
  // A NUL in q would match across fields; no stored text holds one.
  if (q?.includes(SEPARATOR)) return { items: [], total: 0 };
  const from = (query.page - 1) * query.limit;
  const to = from + query.limit;
  const items: StoredRecipe[] = [];
  let total = 0;
  for (const entry of order.entries()) {
    const { recipe } = entry;
    if (!inListsOf(recipe, viewer)) continue;
    if (mine && recipe.ownerId !== viewer?.id) continue;
    if (query.saved && !Object.hasOwn(favorites, recipe.id)) continue;
    if (category !== null && recipe.category !== category) continue;
    if (tag !== null && !recipe.tags.includes(tag)) continue;
    if (q !== null && !searchText(entry).includes(q)) continue;
    if (total >= from && total < to) items.push(recipe);
    total++;
  }
  return { items, total };
}

/** The list envelope (catalog recipes/list-query/envelope). */
export function listEnvelope<T>(items: T[], query: ListQuery, total: number) {
  return { items, page: query.page, limit: query.limit, total, totalPages: Math.ceil(total / query.limit) };
}

/** Every distinct tag of the recipes `viewer` sees in lists (null: public ones only), sorted. */
export function distinctTags(store: RecipesStore, viewer: DeepReadonly<User> | null): string[] {
  const tags = new Set<string>();
  for (const recipe of Object.values(store.data.recipes)) {
    if (inListsOf(recipe, viewer)) for (const tag of recipe.tags) tags.add(tag);
  }
  return [...tags].sort();
}
