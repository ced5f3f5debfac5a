// POST /api/recipes/import-url {url} (catalog recipes/import/*): the page fetched and read by the import module,
// answered as a draft in the recipe create shape, saved nowhere. Ingredient lines become {name, quantity?, unit?}
// (ingredients/toIngredientFields), steps get their 1-based order, tags and the category follow the create rules,
// so the draft can be POSTed to /api/recipes as it is. ImportError codes map to 400 (the URL given is refused)
// or 422 (the page could not be used); a private address is refused unless the deployment allows it
// (RECIPES_IMPORT_PRIVATE=allow).
import { ImportError, importErrorStatus, importRecipe, type RecipeDraft } from '../import/index.ts';
import { toIngredientFields } from '../ingredients/index.ts';
import type { Ingredient } from '../store/index.ts';
import { ApiError } from './api-error.ts';
import { categorySlugFor } from './categories.ts';
import { RECIPE_LIMITS, withoutControls } from './recipe-fields.ts';
import type { ServerContext } from './server-context.ts';

/** Control characters a page may carry: none in one-line fields, tabs and line breaks kept in texts. */
const oneLine = (text: string) => withoutControls(text, 'line');
const inText = (text: string) => withoutControls(text, 'text');

/** An ingredient line in the store's shape, the quantity kept only within the create limits. */
function ingredientOf(written: string): Ingredient {
  const line = oneLine(written);
  const fields = toIngredientFields(line);
  const unit = fields.unit ?? '';
  const quantityFits = fields.quantity === undefined || fields.quantity <= RECIPE_LIMITS.maxQuantity;
  if (!quantityFits || unit.length > RECIPE_LIMITS.unitChars) return { name: line.trim() };
  return fields;
}

/** The draft as the create shape has it (catalog recipes/import/request-and-result). */
export function createShapeOf(draft: RecipeDraft) {
  const tags = [...new Set(draft.tags.map((tag) => oneLine(tag).trim().toLowerCase()).filter((tag) => tag !== ''))];
  return {
    title: oneLine(draft.title),
    description: draft.description === null ? null : inText(draft.description),
    servings: draft.servings,
    prepMinutes: draft.prepMinutes,
    cookMinutes: draft.cookMinutes,
    ingredients: draft.ingredients.map(ingredientOf),
    steps: draft.steps.map((text, i) => ({ order: i + 1, text: inText(text) })),
    tags: tags.slice(0, RECIPE_LIMITS.tags),
    category: categorySlugFor(draft.category),
    sourceUrl: draft.sourceUrl,
    imageUrl: draft.imageUrl,
  };
}

/** The draft of the page at `url` (the body's url field), or an ApiError (400, 422). */
export async function importDraft(ctx: ServerContext, url: unknown) {
  try {
    return createShapeOf(await importRecipe(url as string, { allowPrivateAddresses: ctx.importPrivate }));
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    const status = importErrorStatus(error.code);
    const details = error.code === 'invalid-url' ? { details: [{ field: 'url', message: error.message }] } : {};
    throw new ApiError(status, error.message, { ...details, cause: error });
  }
}
