// One error class for ingredient parsing and scaling, with a closed set of codes. These are the only errors the
// module throws: any string goes through parseIngredient and scaleIngredient without another exception.

export const INGREDIENT_ERROR_CODES = [
  /** The line is not a string (only reachable from untyped callers). */
  'invalid-line',
  /** The line is longer than MAX_LINE_LENGTH characters: parsing is refused to bound the work. */
  'line-too-long',
  /** A scaling factor that is not a finite number within [MIN_FACTOR, MAX_FACTOR]. */
  'invalid-factor',
  /** A servings count that is not a positive safe integer. */
  'invalid-servings',
  /** formatQuantity was given a value that is not a finite number >= 0. */
  'invalid-quantity',
] as const;

export type IngredientErrorCode = (typeof INGREDIENT_ERROR_CODES)[number];

export class IngredientError extends Error {
  override name = 'IngredientError';
  readonly code: IngredientErrorCode;
  constructor(code: IngredientErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
