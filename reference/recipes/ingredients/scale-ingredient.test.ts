// Servings scaling: examples of every form the scaler meets, its documented errors, and its properties
// (round trip, identity on well-formed lines, any string answered within bounds).
import test from 'ava';
import fc from 'fast-check';
import { formatQuantity, RENDER_TOLERANCE } from './format-quantity.ts';
import { IngredientError, type IngredientErrorCode } from './ingredient-error.ts';
import { toIngredientFields } from './ingredient-fields.ts';
import { MAX_FACTOR, MAX_LINE_LENGTH, MIN_FACTOR, PARSE_WINDOW } from './ingredient-limits.ts';
import { parseIngredient } from './parse-ingredient-line.ts';
import { scaleIngredient, scaleRecipe, servingsFactor } from './scale-ingredient.ts';

// [line, factor, scaled]
const examples: [string, number, string][] = [
  ['1 1/2 cups flour', 2, '3 cups flour'],
  ['1 1/2 cups flour', 1, '1½ cups flour'],
  ['½ tsp salt', 3, '1½ tsp salt'],
  ['2-3 cloves garlic, minced', 2, '4-6 cloves garlic, minced'],
  ['2 – 3 cloves garlic', 0.5, '1 – 1½ cloves garlic'],
  ['1 to 2 eggs', 3, '3 to 6 eggs'],
  ['¼–½ tsp chili flakes', 2, '½–1 tsp chili flakes'],
  ['1 clove garlic', 0.5, '½ clove garlic'],
  ['1 cup sugar', 2, '2 cups sugar'],
  ['2 cups sugar', 0.5, '1 cup sugar'],
  ['3 cups milk', 1 / 6, '½ cup milk'],
  ['1-1/2 cups milk', 2, '3 cups milk'],
  ['about 2 cups water', 1.5, 'about 3 cups water'],
  ['Juice of 3 lemons', 2, 'Juice of 6 lemons'],
  ['2 (14 oz) cans tomatoes', 1.5, '3 (14 oz) cans tomatoes'],
  ['250 g butter', 1 / 3, '83.3 g butter'],
  ['1.5 kg potatoes', 3, '4.5 kg potatoes'],
  ['1,000 g flour', 0.5, '500 g flour'],
  ['3 large eggs', 0.5, '1½ large eggs'],
  ['1/3 cup oil', 3, '1 cup oil'],
  ['  1 ⅓ cups  sugar ', 1, '  1⅓ cups  sugar '],
  ['2 Cups flour', 0.5, '1 Cups flour'], // capitalised spellings are kept as written
  ['salt to taste', 2, 'salt to taste'],
  ['For the icing:', 2, 'For the icing:'],
  ['', 2, ''],
  ['1e5 g', 2, '200000 g'], // an exponent is not rewritten in place: rebuilt from the parts
  ['2 Äpfel, fünke #3', 2, '4 Äpfel, fünke #3'],
  ['/1½', 1, '/1½'], // the parser reads 1 here (not 1½): only that 1 is rewritten
];

for (const [line, factor, scaled] of examples) {
  test(`scaleIngredient(${JSON.stringify(line)}, ${factor})`, (t) => {
    t.is(scaleIngredient(line, factor), scaled);
  });
}

test('ascii fractions', (t) => {
  t.is(scaleIngredient('½ tsp salt', 3, { fractions: 'ascii' }), '1 1/2 tsp salt');
  t.is(scaleIngredient('1 1/2 cups flour', 1 / 3, { fractions: 'ascii' }), '1/2 cup flour');
});

test('parseIngredient gives values, unit, description and where the quantities are written', (t) => {
  t.deepEqual(parseIngredient('2-3 cloves garlic'), {
    line: '2-3 cloves garlic',
    quantity: 2,
    quantity2: 3,
    unit: 'cloves',
    unitId: 'clove',
    description: 'garlic',
    isGroupHeader: false,
    quantitySpans: [
      { start: 0, end: 1 },
      { start: 2, end: 3 },
    ],
  });
  t.like(parseIngredient('For the sauce:'), { quantity: null, isGroupHeader: true, quantitySpans: null });
  t.like(parseIngredient('1e5 g'), { quantity: 100000, quantitySpans: null });
});

test('a parsed line scales like its text', (t) => {
  const parsed = parseIngredient('1 1/2 cups flour');
  t.is(scaleIngredient(parsed, 2), scaleIngredient('1 1/2 cups flour', 2));
});

test('scaleRecipe scales every line from one servings count to another', (t) => {
  t.deepEqual(scaleRecipe(['1 cup rice', '2-3 cloves garlic', 'salt'], 4, 6), ['1½ cups rice', '3-4½ cloves garlic', 'salt']);
  t.is(servingsFactor(4, 2), 0.5);
});

test('toIngredientFields: the store shape, a range kept whole as the name', (t) => {
  t.deepEqual(toIngredientFields('1 1/2 cups flour'), { name: 'flour', quantity: 1.5, unit: 'cups' });
  t.deepEqual(toIngredientFields('3 eggs'), { name: 'eggs', quantity: 3 });
  t.deepEqual(toIngredientFields('2-3 cloves  garlic'), { name: '2-3 cloves garlic' });
  t.deepEqual(toIngredientFields('salt to taste'), { name: 'salt to taste' });
});

// [call, code]: every documented error, with the bound it names.
const errors: [string, () => unknown, IngredientErrorCode, RegExp][] = [
  ['factor 0', () => scaleIngredient('1 cup', 0), 'invalid-factor', /from 0\.001 to 1000, got 0/],
  ['factor -2', () => scaleIngredient('1 cup', -2), 'invalid-factor', /got -2/],
  ['factor NaN', () => scaleIngredient('1 cup', Number.NaN), 'invalid-factor', /got NaN/],
  ['factor Infinity', () => scaleIngredient('1 cup', Number.POSITIVE_INFINITY), 'invalid-factor', /got Infinity/],
  ['factor 1000.5', () => scaleIngredient('1 cup', MAX_FACTOR + 0.5), 'invalid-factor', /got 1000\.5/],
  ['factor 0.0009', () => scaleIngredient('salt', MIN_FACTOR * 0.9), 'invalid-factor', /got 0\.0009/],
  ['servings 0', () => scaleRecipe([], 0, 4), 'invalid-servings', /fromServings must be a positive integer, got 0/],
  ['servings 1.5', () => scaleRecipe([], 4, 1.5), 'invalid-servings', /toServings .* got 1\.5/],
  ['servings 1 to 2000', () => scaleRecipe([], 1, 2000), 'invalid-factor', /factor of 2000/],
  ['a line over the limit', () => parseIngredient('1'.repeat(MAX_LINE_LENGTH + 1)), 'line-too-long', /1001 characters; the limit is 1000/],
  ['not a string', () => parseIngredient(42 as unknown as string), 'invalid-line', /must be a string, got number/],
];

for (const [name, call, code, message] of errors) {
  test(`error: ${name}`, (t) => {
    const error = t.throws(call, { instanceOf: IngredientError, message });
    t.is(error?.code, code);
  });
}

test('a long line: the parser reads its first PARSE_WINDOW characters, the rest is description', (t) => {
  const tail = ' and then some more words'.repeat(30);
  const line = `1 1/2 cups flour, sifted${tail}`;
  t.true(line.length > PARSE_WINDOW && line.length <= MAX_LINE_LENGTH);
  t.is(scaleIngredient(line, 2), `3 cups flour, sifted${tail}`);
  t.is(parseIngredient(line).description, `flour, sifted${tail}`.trim());
  const pathological = '½-½'.repeat(400).slice(0, MAX_LINE_LENGTH);
  const started = performance.now();
  t.is(typeof scaleIngredient(pathological, 2), 'string');
  t.true(performance.now() - started < 150);
});

test('a 10 MB line is refused at once, without being read', (t) => {
  const line = `1 cup ${'½-1 '.repeat(2_500_000)}`;
  const started = performance.now();
  const error = t.throws(() => scaleIngredient(line, 2), { instanceOf: IngredientError });
  t.is(error?.code, 'line-too-long');
  t.true(performance.now() - started < 50);
});

// ------------------------------------------------------------------ properties

/** Units as a well-formed line writes them: [id, singular, plural]. */
const UNITS: [string | null, string, string][] = [
  [null, '', ''],
  ['cup', 'cup', 'cups'],
  ['teaspoon', 'teaspoon', 'teaspoons'],
  ['clove', 'clove', 'cloves'],
  ['teaspoon', 'tsp', 'tsp'],
  ['gram', 'g', 'g'],
  ['kilogram', 'kg', 'kg'],
  ['milliliter', 'ml', 'ml'],
];
const DESCRIPTIONS = ['flour', 'garlic, minced', 'eggs', 'sugar (sifted)', 'olive oil', 'fünke #2 apples'];
const SEPARATORS = ['-', '–', ' - ', ' to ', ' or '];

/** A well-formed line: its quantities in the cook's form, its unit in their number. */
const wellFormedLine = fc
  .record({
    low: fc.double({ min: 0.01, max: 5000, noNaN: true }),
    span: fc.option(fc.double({ min: 1.05, max: 4, noNaN: true }), { nil: null }),
    unit: fc.constantFrom(...UNITS),
    separator: fc.constantFrom(...SEPARATORS),
    description: fc.constantFrom(...DESCRIPTIONS),
  })
  .map(({ low, span, unit: [unitId, singular, plural], separator, description }) => {
    const first = formatQuantity(low, { unitId });
    const second = span === null ? null : formatQuantity(low * span, { unitId });
    const largest = parseIngredient(`${second ?? first} x`).quantity!;
    const unit = largest > 0 && largest <= 1 ? singular : plural;
    return [second === null ? first : `${first}${separator}${second}`, unit, description].filter(Boolean).join(' ');
  });

const factor = fc.double({ min: MIN_FACTOR, max: MAX_FACTOR, noNaN: true });

/** The documented bound of a round trip: each rendering is within RENDER_TOLERANCE (1.01%) of its exact value, so
 * two are within 1.0101² - 1 < 2.03% of the original. */
const ROUND_TRIP_TOLERANCE = (1 + RENDER_TOLERANCE) ** 2 - 1;
const near = (a: number | null, b: number | null) =>
  a === b || (a !== null && b !== null && Math.abs(a - b) <= ROUND_TRIP_TOLERANCE * b);

test('property: scaling by f then by 1/f returns the original quantities within 2.03%, and the rest of the line', (t) => {
  fc.assert(
    fc.property(wellFormedLine, factor, (line, f) => {
      const original = parseIngredient(line);
      const back = parseIngredient(scaleIngredient(scaleIngredient(line, f), 1 / f));
      return (
        near(back.quantity, original.quantity) &&
        near(back.quantity2, original.quantity2) &&
        back.description === original.description &&
        back.unitId === original.unitId
      );
    }),
    { numRuns: 1500 },
  );
  t.pass();
});

test('property: scaling a well-formed line by 1 gives the line itself', (t) => {
  fc.assert(
    fc.property(wellFormedLine, fc.constantFrom('', '  ', '\t'), (line, pad) => scaleIngredient(`${pad}${line}${pad}`, 1) === `${pad}${line}${pad}`),
    { numRuns: 1500 },
  );
  t.pass();
});

const TOKENS = ['1', '2', '10', '1/2', '½', '⅓', '1 1/2', '0', '.', ',', '/', '⁄', '-', '–', ' ', ' to ', 'or', 'e', 'cup', 'cups', 'g', 'tsp', 'For', 'about', '(', ')', ':', '\n', '\r', 'x', '１', '٣', '\u0000', '🍅'];
const anyLine = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 120 }),
  fc.array(fc.constantFrom(...TOKENS), { maxLength: 60 }).map((parts) => parts.join('')),
  fc.array(fc.constantFrom(...TOKENS), { minLength: 100, maxLength: 400 }).map((parts) => parts.join('')),
  fc.integer({ min: MAX_LINE_LENGTH - 2, max: MAX_LINE_LENGTH + 2 }).map((n) => '1-'.repeat(n).slice(0, n)),
);
const anyFactor = fc.oneof(factor, fc.double(), fc.constantFrom(0, -1, MIN_FACTOR, MAX_FACTOR, 1, Number.NaN));

type Outcome = { code: 'ok'; value: string } | { code: IngredientErrorCode | 'unexpected'; error: unknown };
function attempt(call: () => string): Outcome {
  try {
    return { code: 'ok', value: call() };
  } catch (error) {
    return { code: error instanceof IngredientError ? error.code : 'unexpected', error };
  }
}

test('property: any string and factor give a string or exactly the documented error, quickly', (t) => {
  let slowest = 0;
  fc.assert(
    fc.property(anyLine, anyFactor, (line, f) => {
      const expected = !(f >= MIN_FACTOR && f <= MAX_FACTOR) ? 'invalid-factor' : line.length > MAX_LINE_LENGTH ? 'line-too-long' : 'ok';
      const started = performance.now();
      const outcome = attempt(() => scaleIngredient(line, f));
      slowest = Math.max(slowest, performance.now() - started);
      return outcome.code === expected;
    }),
    { numRuns: 3000 },
  );
  t.true(slowest < 150, `slowest call took ${slowest.toFixed(1)} ms`);
});

test('property: what scaling writes is well-formed (scaling it by 1 changes nothing)', (t) => {
  fc.assert(
    fc.property(wellFormedLine, factor, (line, f) => {
      const scaled = scaleIngredient(line, f);
      return scaleIngredient(scaled, 1) === scaled;
    }),
    { numRuns: 1500 },
  );
  t.pass();
});
