// Importing a recipe from a URL: check the URL, fetch the page within the limits, extract a draft.
import { checkImportUrl } from './check-url.ts';
import { extractRecipe } from './extract-recipe.ts';
import { fetchPage } from './fetch-page.ts';
import { type ImportOptions, normalizeImportOptions } from './import-options.ts';
import type { RecipeDraft } from './recipe-draft.ts';

/**
 * The draft of the recipe at `url`. Rejects with ImportError (`invalid-url`, `fetch-failed`, `timeout`,
 * `too-large`, `not-html`, `no-recipe`); options out of range throw RangeError at once.
 */
export async function importRecipe(url: string, options: Partial<ImportOptions> = {}): Promise<RecipeDraft> {
  const limits = normalizeImportOptions(options);
  const page = await fetchPage(checkImportUrl(url), limits);
  return extractRecipe(page.html, page.url);
}
