// A quantity in a cook's form: common fractions as vulgar fractions or mixed numbers ("½", "1⅓"), other values
// as decimals of three significant digits, never an exponent. Metric units (g, kg, ml, l…) always get decimals:
// "1.5 kg", not "1½ kg".
import { IngredientError } from './ingredient-error.ts';

/** `unicode`: "1½", "⅔"; `ascii`: "1 1/2", "2/3". */
export type FractionStyle = 'unicode' | 'ascii';

export interface FormatQuantityOptions {
  /** The parser's unit id (`cup`, `gram`…): metric units get decimals only. */
  unitId?: string | null;
  fractions?: FractionStyle;
}

/** The text of a quantity and the value it stands for (what a parser reads back from the text). */
export interface RenderedQuantity {
  readonly text: string;
  readonly value: number;
}

/** Fractions a cook writes: halves, thirds, quarters and eighths. */
const FRACTIONS: readonly (readonly [numerator: number, denominator: number, glyph: string])[] = [
  [0, 1, ''],
  [1, 8, '⅛'],
  [1, 4, '¼'],
  [1, 3, '⅓'],
  [3, 8, '⅜'],
  [1, 2, '½'],
  [5, 8, '⅝'],
  [2, 3, '⅔'],
  [3, 4, '¾'],
  [7, 8, '⅞'],
  [1, 1, ''],
];

/** A value rounded to three significant digits is written as a fraction when one is within this share of it…
 * (0.333 → ⅓, 0.67 → ⅔, 0.124 stays 0.124) */
const FRACTION_RELATIVE_TOLERANCE = 0.005;
/** …and within this absolute distance (so 50.1 stays "50.1", not "50⅛"). */
const FRACTION_ABSOLUTE_TOLERANCE = 0.02;
/** Every rendering is within this share of the value it renders: 0.5% for three significant digits, then 0.5%
 * for a fraction. */
export const RENDER_TOLERANCE = 0.0101;
/** From this value on, a quantity is a whole number or a decimal, never a fraction. */
const FRACTION_CEILING = 100;
const SIGNIFICANT_DIGITS = 3;

/** Unit ids of parse-ingredient whose quantities are written as decimals. */
const METRIC_UNIT_IDS: ReadonlySet<string> = new Set([
  'gram',
  'kilogram',
  'milligram',
  'liter',
  'milliliter',
  'deciliter',
  'centimeter',
  'millimeter',
  'meter',
]);

/**
 * The cook's form of a non-negative finite quantity: the value rounded to three significant digits, written as a
 * common fraction when it is one (within FRACTION_RELATIVE_TOLERANCE) below 100. Within RENDER_TOLERANCE of
 * `value`; rendering a rendered value gives the same text; a positive value never renders as "0" unless it
 * underflows.
 */
export function renderQuantity(value: number, options: FormatQuantityOptions = {}): RenderedQuantity {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new IngredientError('invalid-quantity', `a quantity must be a finite number >= 0, got ${String(value)}`);
  }
  if (value === 0) return { text: '0', value: 0 };
  const decimal = asDecimal(value);
  const metric = options.unitId != null && METRIC_UNIT_IDS.has(options.unitId);
  // Snapping the rounded value (not the exact one) is what makes the form stable: 6.2704 and 6.27 both give 6¼.
  return (!metric && asFraction(decimal.value, options.fractions ?? 'unicode')) || decimal;
}

/** `renderQuantity(value, options).text`. */
export function formatQuantity(value: number, options: FormatQuantityOptions = {}): string {
  return renderQuantity(value, options).text;
}

function asFraction(value: number, style: FractionStyle): RenderedQuantity | null {
  if (value >= FRACTION_CEILING) return null;
  const whole = Math.floor(value);
  const tolerance = Math.min(value * FRACTION_RELATIVE_TOLERANCE, FRACTION_ABSOLUTE_TOLERANCE);
  let best: { value: number; text: string; distance: number } | null = null;
  for (const [numerator, denominator, glyph] of FRACTIONS) {
    const candidate = whole + numerator / denominator;
    const distance = Math.abs(candidate - value);
    if (candidate === 0 || distance > tolerance || (best && best.distance <= distance)) continue;
    best = { value: candidate, text: fractionText(whole, numerator, denominator, glyph, style), distance };
  }
  return best && { text: best.text, value: best.value };
}

function fractionText(whole: number, numerator: number, denominator: number, glyph: string, style: FractionStyle): string {
  if (numerator === 0) return String(whole);
  if (numerator === denominator) return String(whole + 1);
  const fraction = style === 'unicode' ? glyph : `${numerator}/${denominator}`;
  if (whole === 0) return fraction;
  return style === 'unicode' ? `${whole}${fraction}` : `${whole} ${fraction}`;
}

function asDecimal(value: number): RenderedQuantity {
  if (value >= 10 ** (SIGNIFICANT_DIGITS - 1)) {
    // From 100 on, three significant digits are a whole number; larger ones keep every integer digit (BigInt
    // writes even 1e30 without an exponent, and toPrecision would write 999.6 as "1.00e+3").
    const rounded = Math.round(value);
    return { text: BigInt(rounded).toString(), value: rounded };
  }
  const text = plainDecimal(value.toPrecision(SIGNIFICANT_DIGITS));
  return { text, value: Number(text) };
}

/** "1.50" → "1.5", "2.00" → "2", "1.23e-7" → "0.000000123". */
function plainDecimal(precise: string): string {
  const [mantissa = precise, exponentText] = precise.split('e');
  let text = mantissa;
  if (exponentText !== undefined) {
    // toPrecision uses an exponent only below 1e-6 here (values of 100 and more took the branch above).
    const digits = mantissa.replace('.', '');
    text = `0.${'0'.repeat(-Number(exponentText) - 1)}${digits}`;
  }
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}
