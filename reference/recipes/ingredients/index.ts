// Ingredient lines of the recipe manager: parsing (parse-ingredient), a cook's form of quantities, and servings
// scaling. See reference/recipes/ingredients/README.md.

// Public: what the server and the import use.
export {
  type FormatQuantityOptions,
  type FractionStyle,
  formatQuantity,
  type RenderedQuantity,
  renderQuantity,
} from './format-quantity.ts';
export { type IngredientFields, toIngredientFields } from './ingredient-fields.ts';
export { INGREDIENT_ERROR_CODES, IngredientError, type IngredientErrorCode } from './ingredient-error.ts';
export { MAX_FACTOR, MAX_LINE_LENGTH, MIN_FACTOR, PARSE_WINDOW } from './ingredient-limits.ts';
export { type ParsedIngredient, parseIngredient } from './parse-ingredient-line.ts';
export { checkFactor, type ScaleOptions, scaleIngredient, scaleRecipe, servingsFactor } from './scale-ingredient.ts';

// Internal: for this module's tests.
export type { QuantitySpan } from './quantity-text.ts';
