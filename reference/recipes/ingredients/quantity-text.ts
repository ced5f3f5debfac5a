// Where a line writes its quantities. parse-ingredient gives the values but not their place in the line; the
// scaler rewrites only those characters, so the rest of the line ("about", "Juice of", "(14 oz) cans") stays
// exactly as written. A quantity is found by reading every number-like token of the line and taking the first
// whose value is the parser's.

export interface QuantitySpan {
  /** Index of the quantity's first character in the line. */
  readonly start: number;
  /** End-exclusive index. */
  readonly end: number;
}

const VULGAR_VALUES: Readonly<Record<string, number>> = {
  '¼': 1 / 4,
  '½': 1 / 2,
  '¾': 3 / 4,
  '⅐': 1 / 7,
  '⅑': 1 / 9,
  '⅒': 1 / 10,
  '⅓': 1 / 3,
  '⅔': 2 / 3,
  '⅕': 1 / 5,
  '⅖': 2 / 5,
  '⅗': 3 / 5,
  '⅘': 4 / 5,
  '⅙': 1 / 6,
  '⅚': 5 / 6,
  '⅛': 1 / 8,
  '⅜': 3 / 8,
  '⅝': 5 / 8,
  '⅞': 7 / 8,
};

const VULGAR = `[${Object.keys(VULGAR_VALUES).join('')}]`;
const SLASH = '\\s*[/⁄]\\s*';
// Longest forms first: "1 1/2", "1½" / "1 ½", "1/2", "1,000.5" / ".5", "½". Named groups so the value is read
// from the match itself.
const TOKEN = new RegExp(
  [
    `(?<mixedWhole>\\d+)\\s+(?<mixedNumerator>\\d+)${SLASH}(?<mixedDenominator>\\d+)`,
    `(?<vulgarWhole>\\d+)\\s*(?<vulgarPart>${VULGAR})`,
    `(?<numerator>\\d+)${SLASH}(?<denominator>\\d+)`,
    `(?<decimal>\\d+(?:[.,]\\d+)*|\\.\\d+)`,
    `(?<vulgar>${VULGAR})`,
  ].join('|'),
  'gu',
);

interface Token extends QuantitySpan {
  readonly value: number;
}

/** Every number-like token, left to right; a compound one ("1 1/2", "1½", "3/4") is followed by its leading
 * whole number alone, which is what the parser reads in some positions ("/1½" is 1 to it). */
function tokens(line: string): Token[] {
  const found: Token[] = [];
  for (const match of line.matchAll(TOKEN)) {
    const g = match.groups ?? {};
    const value = tokenValue(g);
    const start = match.index;
    if (Number.isFinite(value)) found.push({ start, end: start + match[0].length, value });
    const leading = g.mixedWhole ?? g.vulgarWhole ?? g.numerator;
    if (leading) found.push({ start, end: start + leading.length, value: Number(leading) });
  }
  return found;
}

function tokenValue(g: Record<string, string | undefined>): number {
  if (g.mixedWhole) return Number(g.mixedWhole) + Number(g.mixedNumerator) / Number(g.mixedDenominator);
  if (g.vulgarWhole) return Number(g.vulgarWhole) + (VULGAR_VALUES[g.vulgarPart ?? ''] ?? Number.NaN);
  if (g.numerator) return Number(g.numerator) / Number(g.denominator);
  // The parser drops thousands separators ("1,000" is 1000; "1,5" is 15 with its default decimal point).
  if (g.decimal) return Number(g.decimal.replaceAll(',', ''));
  return VULGAR_VALUES[g.vulgar ?? ''] ?? Number.NaN;
}

const same = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

export interface LocatedQuantities {
  readonly quantity: number;
  readonly quantity2: number | null;
  readonly spans: readonly QuantitySpan[];
}

/**
 * The spans of `quantity` (and `quantity2`, after it) in `line`, or null when the line does not write them as
 * plain numbers (an exponent, a word). "1-1/2" — which the parser reads as the range 1 to 1/2 — is the mixed
 * number 1½ written with a hyphen: one quantity over one span.
 */
export function locateQuantities(line: string, quantity: number, quantity2: number | null): LocatedQuantities | null {
  const all = tokens(line);
  const first = all.findIndex((t) => same(t.value, quantity));
  const one = all[first];
  if (!one) return null;
  if (quantity2 === null) return { quantity, quantity2, spans: [spanOf(one)] };
  const two = all.slice(first + 1).find((t) => same(t.value, quantity2));
  if (!two) return null;
  const hyphenatedMixed =
    Number.isInteger(quantity) && quantity2 < 1 && /^-$/.test(line.slice(one.end, two.start));
  if (hyphenatedMixed) return { quantity: quantity + quantity2, quantity2: null, spans: [{ start: one.start, end: two.end }] };
  return { quantity, quantity2, spans: [spanOf(one), spanOf(two)] };
}

const spanOf = ({ start, end }: Token): QuantitySpan => ({ start, end });
