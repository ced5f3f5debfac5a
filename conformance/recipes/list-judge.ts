// The verdict on a list walk over the known recipes (list-data.ts): what went wrong, one line each, so a case
// or a property asserts an empty list and the message names every offender.
import { shown } from './api.ts';
import { described, type Expected, expected, type ListData, type Owner } from './list-data.ts';
import { idsOf, type ListFilters, repeated, type Walk } from './list-pages.ts';

function where(walk: Walk): string {
  return ` (${walk.asked.join(' ; ')})`;
}

/** What the document itself rules out: a refused list, a page larger than limit, a recipe listed twice or
 * never reached, a recipe that meets none of the filters, one that had to be there missing. */
export function listProblems(data: ListData, walk: Walk, f: ListFilters, caller: Owner, limit: number | undefined): string[] {
  if (walk.refused) return [`the list was refused: ${shown(walk.refused)}${where(walk)}`];
  const want: Expected = expected(data, f, caller);
  const ids = idsOf(walk.items);
  const problems: string[] = [];
  if (limit !== undefined) {
    const over = walk.sizes.filter((n) => n > limit);
    if (over.length > 0) problems.push(`pages of ${walk.sizes.join(', ')} items with limit ${limit}${where(walk)}`);
  }
  for (const id of repeated(ids)) problems.push(`${described(data, id)} listed more than once${where(walk)}`);
  if (walk.unended) problems.push(`the pages did not end within ${walk.sizes.length} pages${where(walk)}`);
  for (const id of new Set(ids)) if (!want.may.has(id)) problems.push(`${described(data, id)} does not meet the filters ${JSON.stringify(f)}${where(walk)}`);
  for (const id of want.must) if (!ids.includes(id)) problems.push(`${described(data, id)} is missing for ${JSON.stringify(f)}${where(walk)}`);
  return problems;
}

/** The reference's reading of several filters (informational): every listed recipe meets all of them. */
export function andProblems(data: ListData, walk: Walk, f: ListFilters, caller: Owner): string[] {
  if (walk.refused) return [`the list was refused: ${shown(walk.refused)}${where(walk)}`];
  const want = expected(data, f, caller);
  return [...new Set(idsOf(walk.items))].filter((id) => !want.and.has(id)).map((id) => `${described(data, id)} does not meet every filter of ${JSON.stringify(f)}${where(walk)}`);
}
