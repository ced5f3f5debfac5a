// Servings scaling of ingredient lines: the quantities are multiplied and written back in a cook's form, in
// place, so everything else in the line stays as written; a unit written as a long name follows the new number
// ("1 cup" → "2 cups").
import { unitsOfMeasure } from 'parse-ingredient';
import { type FractionStyle, type RenderedQuantity, renderQuantity } from './format-quantity.ts';
import { IngredientError } from './ingredient-error.ts';
import { MAX_FACTOR, MIN_FACTOR } from './ingredient-limits.ts';
import { type ParsedIngredient, parseIngredient } from './parse-ingredient-line.ts';

export interface ScaleOptions {
  /** How fractions are written: "1½" (`unicode`, the default) or "1 1/2" (`ascii`). */
  fractions?: FractionStyle;
}

/** `factor` itself when it is a finite number within [MIN_FACTOR, MAX_FACTOR]; IngredientError `invalid-factor`
 * otherwise. */
export function checkFactor(factor: number): number {
  if (typeof factor !== 'number' || !Number.isFinite(factor) || factor < MIN_FACTOR || factor > MAX_FACTOR) {
    throw new IngredientError(
      'invalid-factor',
      `the scaling factor must be a finite number from ${MIN_FACTOR} to ${MAX_FACTOR}, got ${String(factor)}`,
    );
  }
  return factor;
}

/** `toServings / fromServings`, both positive integers (IngredientError `invalid-servings`), and within the
 * factor's bounds (`invalid-factor`). */
export function servingsFactor(fromServings: number, toServings: number): number {
  for (const [field, value] of [
    ['fromServings', fromServings],
    ['toServings', toServings],
  ] as const) {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new IngredientError('invalid-servings', `${field} must be a positive integer, got ${String(value)}`);
    }
  }
  const factor = toServings / fromServings;
  if (factor < MIN_FACTOR || factor > MAX_FACTOR) {
    throw new IngredientError(
      'invalid-factor',
      `scaling from ${fromServings} to ${toServings} servings is a factor of ${factor}; it must be from ${MIN_FACTOR} to ${MAX_FACTOR}`,
    );
  }
  return factor;
}

/**
 * The line with its quantities multiplied by `factor`. Lines without a quantity, group headers, and lines whose
 * scaled quantity would not be a finite number come back unchanged. A quantity written in a form the scaler
 * cannot rewrite in place ("1e3 g") gives a line rebuilt from quantity, unit and description.
 */
export function scaleIngredient(ingredient: string | ParsedIngredient, factor: number, options: ScaleOptions = {}): string {
  checkFactor(factor);
  const parsed = typeof ingredient === 'string' ? parseIngredient(ingredient) : ingredient;
  const { line, quantity, quantity2, unitId } = parsed;
  if (quantity === null || parsed.isGroupHeader) return line;
  const scaled = quantity2 === null ? [quantity * factor] : [quantity * factor, quantity2 * factor];
  if (!scaled.every(Number.isFinite)) return line;
  const style = options.fractions ?? 'unicode';
  const rendered = scaled.map((value) => renderQuantity(value, { unitId, fractions: style }));
  const unit = parsed.unit && unitInNumber(parsed.unit, unitId, rendered);
  const spans = parsed.quantitySpans;
  if (!spans || spans.length !== rendered.length) {
    const range = rendered.map((r) => r.text).join(style === 'unicode' ? '–' : '-');
    return [range, unit, parsed.description].filter(Boolean).join(' ');
  }
  let out = '';
  let at = 0;
  spans.forEach((span, i) => {
    out += line.slice(at, span.start) + rendered[i]!.text;
    at = span.end;
  });
  const rest = line.slice(at);
  // The unit as written right after the last quantity ("2 cups", "2 - 3 cloves") follows the new number.
  const gap = /^\s*/.exec(rest)![0].length;
  if (parsed.unit && unit !== parsed.unit && rest.startsWith(parsed.unit, gap) && !/^\p{L}/u.test(rest.slice(gap + parsed.unit.length))) {
    return out + rest.slice(0, gap) + unit + rest.slice(gap + parsed.unit.length);
  }
  return out + rest;
}

/** Every line scaled from `fromServings` to `toServings` (see servingsFactor and scaleIngredient). */
export function scaleRecipe(
  ingredients: readonly (string | ParsedIngredient)[],
  fromServings: number,
  toServings: number,
  options: ScaleOptions = {},
): string[] {
  const factor = servingsFactor(fromServings, toServings);
  return ingredients.map((ingredient) => scaleIngredient(ingredient, factor, options));
}

/** A unit written as its long singular or plural name ("cup"/"cups", "clove"/"cloves"), in lower case, in the
 * number of the new quantity: singular for more than 0 and at most 1 ("½ cup", "1 cup"), plural otherwise.
 * Abbreviations ("tsp", "g") and other spellings are kept as written. */
function unitInNumber(written: string, unitId: string | null, rendered: readonly RenderedQuantity[]): string {
  const definition = unitId ? unitsOfMeasure[unitId] : undefined;
  if (!unitId || !definition || written !== written.toLowerCase()) return written;
  if (written !== unitId && written !== definition.plural) return written;
  const largest = Math.max(...rendered.map((r) => r.value));
  return largest > 0 && largest <= 1 ? unitId : definition.plural;
}
