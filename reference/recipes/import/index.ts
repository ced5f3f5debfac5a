// Import of a recipe from a URL: fetch within limits, schema.org Recipe (JSON-LD, microdata) or social metadata
// to a draft. See reference/recipes/import/README.md.

// Public: what the server uses.
export { addressProblem } from './address-check.ts';
export { checkImportUrl, MAX_URL_LENGTH } from './check-url.ts';
export { extractRecipe } from './extract-recipe.ts';
export { IMPORT_ERROR_CODES, ImportError, type ImportErrorCode, importErrorStatus } from './import-error.ts';
export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_TIMEOUT_MS,
  type ImportOptions,
  normalizeImportOptions,
} from './import-options.ts';
export { importRecipe } from './import-recipe.ts';
export { DRAFT_LIMITS, type DraftSource, type RecipeDraft, UNTITLED } from './recipe-draft.ts';

// Internal: for this module's tests.
export { fetchPage } from './fetch-page.ts';
