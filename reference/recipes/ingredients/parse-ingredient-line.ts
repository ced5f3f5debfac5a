// One ingredient line read by parse-ingredient, in this module's own shape: values, unit, description, and
// where the quantities are written in the line (what the scaler rewrites).
import { parseIngredient as parseLines, type ParseIngredientOptions } from 'parse-ingredient';
import { IngredientError } from './ingredient-error.ts';
import { MAX_LINE_LENGTH, PARSE_WINDOW } from './ingredient-limits.ts';
import { locateQuantities, type QuantitySpan } from './quantity-text.ts';

export interface ParsedIngredient {
  /** The line as given (not trimmed). */
  readonly line: string;
  /** The quantity, or its lower end for a range ("2-3 cloves" → 2); null when the line has none. */
  readonly quantity: number | null;
  /** The upper end of a range, else null. */
  readonly quantity2: number | null;
  /** The unit as written ("cups", "tsp"), or null. */
  readonly unit: string | null;
  /** parse-ingredient's id of the unit, its singular long name ("cup", "teaspoon"), or null. */
  readonly unitId: string | null;
  /** The rest of the line ("flour", "garlic, minced"). */
  readonly description: string;
  /** A heading such as "For the icing:" — never scaled. */
  readonly isGroupHeader: boolean;
  /** Where `quantity` (and `quantity2`) are written in `line`; null when the line has no quantity or writes it
   * in a form the scaler does not rewrite in place (then the scaled line is rebuilt from the parts). */
  readonly quantitySpans: readonly QuantitySpan[] | null;
}

// Unrounded values, so that "1/3" is 1/3 and a scaled quantity is exact before it is rendered; approximations
// before a quantity ("about 2 cups") are read as such, not as a description (the scaler keeps their words).
const LIBRARY_OPTIONS: ParseIngredientOptions = Object.freeze({
  round: false,
  leadingQuantityPrefixes: ['approximately', 'approx.', 'approx', 'about', 'around', 'roughly', 'ca.'],
});

/**
 * Parses one ingredient line. Any string of at most MAX_LINE_LENGTH characters is accepted (a line without a
 * quantity gets `quantity: null`); line breaks inside it are spaces to the parser, which reads the first
 * PARSE_WINDOW characters (the rest is description). Throws IngredientError
 * `line-too-long` beyond the limit and `invalid-line` for a value that is not a string.
 */
export function parseIngredient(line: string): ParsedIngredient {
  if (typeof line !== 'string') throw new IngredientError('invalid-line', `an ingredient line must be a string, got ${typeof line}`);
  if (line.length > MAX_LINE_LENGTH) {
    throw new IngredientError('line-too-long', `an ingredient line has ${line.length} characters; the limit is ${MAX_LINE_LENGTH}`);
  }
  const head = parsedHead(line);
  // An array is never split at line breaks by the library: one line in, at most one ingredient out.
  const [found] = parseLines([head], LIBRARY_OPTIONS);
  if (!found) return { ...NO_QUANTITY, line, description: line.trim() };
  const base = {
    line,
    unit: found.unitOfMeasure,
    unitId: found.unitOfMeasureID,
    description: (found.description + line.slice(head.length)).trim(),
    isGroupHeader: found.isGroupHeader,
  };
  if (found.quantity === null || found.isGroupHeader) return { ...base, quantity: found.quantity, quantity2: null, quantitySpans: null };
  const located = locateQuantities(head, found.quantity, found.quantity2);
  if (!located) return { ...base, quantity: found.quantity, quantity2: found.quantity2, quantitySpans: null };
  return { ...base, quantity: located.quantity, quantity2: located.quantity2, quantitySpans: located.spans };
}

/** The part of the line the library reads (PARSE_WINDOW). */
function parsedHead(line: string): string {
  if (line.length <= PARSE_WINDOW) return line;
  const cut = line.slice(0, PARSE_WINDOW + 1).search(/\s\S*$/);
  return line.slice(0, cut > 0 ? cut : PARSE_WINDOW);
}

const NO_QUANTITY = {
  quantity: null,
  quantity2: null,
  unit: null,
  unitId: null,
  isGroupHeader: false,
  quantitySpans: null,
} as const;
