// Reading a recipe list page by page, in the target's own envelope (shapes.at.items, shapes.at.publicItems).
// The document names the query parameters (q, tag, category, mine, page, limit) and no envelope, total, end
// marker or first page number, so the walk ends where any paging does: an empty page, a page shorter than the
// limit asked for, a refused page after the first (a target may refuse a page past the end), or a page that
// brings nothing new (a target that ignores page).
//
// Which number the first page has is not stated either. A case about paging asks every page by number from
// the target's declared first page (shapes.pageBase, default 1). Any other case does not depend on it: it
// asks the first page without a page parameter (the first page as the target defines it), then, when there
// may be more, page=1, which is either that first page again (pages count from 1: the walk goes on at 2) or
// the second page (they count from 0); a declared pageBase is taken as it is.
import type { HttpResponse } from '../harness/http-client.ts';
import { is2xx, type RecipesApi, type RecipeView } from './api.ts';

export interface ListFilters {
  q?: string | undefined;
  tag?: string | undefined;
  category?: string | undefined;
  /** Only the caller's own recipes (sent as shapes.mine). */
  mine?: boolean | undefined;
}

export interface WalkOptions {
  /** The page size asked for (none: the target's default). */
  limit?: number | undefined;
  /** At most this many pages are read. */
  maxPages: number;
  /** Every page asked by number from the declared first page (pagedBase): for the cases about paging. */
  numbered?: boolean;
}

export interface Walk {
  /** Every item of every page, in page order (a recipe listed twice is here twice). */
  items: RecipeView[];
  /** The number of items of each page read. */
  sizes: number[];
  /** The answer to the first page when it was not a success. */
  refused?: HttpResponse;
  /** The walk stopped at its bound of pages, still getting new items. */
  unended: boolean;
  /** The requests, for messages. */
  asked: string[];
}

/** The first page's number for the cases about paging: the declared one, else 1 (the common reading). */
export const pagedBase = (api: RecipesApi): number => api.shapes.pageBase ?? 1;

/** The query of a list request in the target's values. */
export function listQuery(api: RecipesApi, filters: ListFilters, page?: number, limit?: number): Record<string, string | number | undefined> {
  return {
    q: filters.q,
    tag: filters.tag,
    category: filters.category,
    mine: filters.mine ? api.shapes.mine : undefined,
    page,
    limit,
  };
}

const idSet = (items: readonly RecipeView[]): string => JSON.stringify(idsOf(items).sort());

/** Reads the list at `path` (GET /api/recipes or /api/recipes/public) page by page. */
export async function walkPages(api: RecipesApi, path: string, token: string | undefined, filters: ListFilters, options: WalkOptions): Promise<Walk> {
  const { limit, maxPages } = options;
  const answer = path === '/api/recipes/public' ? 'publicItems' : 'items';
  const walk: Walk = { items: [], sizes: [], unended: false, asked: [] };
  const seen = new Set<string>();
  const ask = async (page: number | undefined): Promise<HttpResponse> => {
    const query = listQuery(api, filters, page, limit);
    walk.asked.push(`GET ${path}?${new URLSearchParams(Object.entries(query).filter((e): e is [string, string | number] => e[1] !== undefined).map(([k, v]) => [k, String(v)]))}`);
    return api.call('GET', path, { token, query });
  };
  /** Takes a page in; whether the walk goes on. A walk about paging keeps every item (a recipe listed twice is
   * what it judges); any other keeps each recipe once, so what it judges does not hang on the paging. */
  const take = (items: RecipeView[]): boolean => {
    const fresh: RecipeView[] = [];
    for (const r of items) {
      if (seen.has(String(r.id))) continue;
      seen.add(String(r.id));
      fresh.push(r);
    }
    walk.sizes.push(items.length);
    walk.items.push(...(options.numbered ? items : fresh));
    return !(items.length === 0 || fresh.length === 0 || (limit !== undefined && items.length < limit));
  };
  const declared = options.numbered ? pagedBase(api) : api.shapes.pageBase;
  const first = await ask(options.numbered ? declared : undefined);
  if (!is2xx(first)) {
    walk.refused = first;
    return walk;
  }
  const firstItems = api.itemsOf(first, answer);
  if (!take(firstItems)) return walk;
  let next = declared === undefined ? 1 : declared + 1;
  if (declared === undefined) {
    // The page after the one asked without a number: page=1, unless page=1 is that first page again.
    const one = await ask(1);
    if (!is2xx(one)) return walk;
    const items = api.itemsOf(one, answer);
    if (idSet(items) !== idSet(firstItems) && !take(items)) return walk;
    next = 2;
  }
  for (let page = next; ; page++) {
    if (walk.sizes.length >= maxPages) {
      walk.unended = true;
      return walk;
    }
    const res = await ask(page);
    if (!is2xx(res) || !take(api.itemsOf(res, answer))) return walk;
  }
}

/** The ids of a walk's items, as strings. */
export const idsOf = (items: readonly RecipeView[]): string[] => items.map((r) => String(r.id));

/** The ids listed more than once. */
export function repeated(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  return [...new Set(ids.filter((id) => seen.has(id) || !seen.add(id)))];
}
