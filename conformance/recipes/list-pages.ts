// Reading a recipe list page by page, in the target's own envelope (shapes.at.items). The document names the
// query parameters (q, tag, category, mine, page, limit) and no envelope, total or end marker, so the walk
// ends where any paging does: an empty page, a page shorter than the limit asked for, a refused page after
// the first (a target may refuse a page past the end), or a page that brings nothing new (a target that
// ignores page). Pages are 1-based, the common reading of "page selecting which page".
import type { HttpResponse } from '../harness/http-client.ts';
import { is2xx, type RecipesApi, type RecipeView } from './api.ts';

export interface ListFilters {
  q?: string | undefined;
  tag?: string | undefined;
  category?: string | undefined;
  /** Only the caller's own recipes (sent as shapes.mine). */
  mine?: boolean | undefined;
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

/** Reads the list at `path` (GET /api/recipes or /api/recipes/public) page by page, at most `maxPages`. */
export async function walkPages(
  api: RecipesApi,
  path: string,
  token: string | undefined,
  filters: ListFilters,
  limit: number | undefined,
  maxPages: number,
): Promise<Walk> {
  const walk: Walk = { items: [], sizes: [], unended: false, asked: [] };
  const seen = new Set<string>();
  for (let page = 1; ; page++) {
    if (page > maxPages) {
      walk.unended = true;
      return walk;
    }
    const query = listQuery(api, filters, page, limit);
    walk.asked.push(`GET ${path}?${new URLSearchParams(Object.entries(query).filter((e): e is [string, string | number] => e[1] !== undefined).map(([k, v]) => [k, String(v)]))}`);
    const res = await api.call('GET', path, { token, query });
    if (!is2xx(res)) {
      if (page === 1) walk.refused = res;
      return walk;
    }
    const items = api.itemsOf(res);
    walk.sizes.push(items.length);
    walk.items.push(...items);
    const fresh = items.filter((r) => !seen.has(String(r.id)));
    for (const r of items) seen.add(String(r.id));
    if (items.length === 0 || fresh.length === 0 || (limit !== undefined && items.length < limit)) return walk;
  }
}

/** The ids of a walk's items, as strings. */
export const idsOf = (items: readonly RecipeView[]): string[] => items.map((r) => String(r.id));

/** The ids listed more than once. */
export function repeated(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  return [...new Set(ids.filter((id) => seen.has(id) || !seen.add(id)))];
}
