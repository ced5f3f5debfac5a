// The cook's form of a quantity: the table of renderings, and the bound every rendering keeps.
import test from 'ava';
import fc from 'fast-check';
import { RENDER_TOLERANCE, formatQuantity, renderQuantity } from './format-quantity.ts';
import { IngredientError } from './ingredient-error.ts';
import { parseIngredient } from './parse-ingredient-line.ts';

// [value, unit id, unicode form, ascii form]
const cases: [number, string | null, string, string][] = [
  [0.5, 'cup', '½', '1/2'],
  [1.5, 'cup', '1½', '1 1/2'],
  [1 / 3, 'cup', '⅓', '1/3'],
  [2 / 3, null, '⅔', '2/3'],
  [0.25, 'teaspoon', '¼', '1/4'],
  [2.75, 'teaspoon', '2¾', '2 3/4'],
  [0.125, 'teaspoon', '⅛', '1/8'],
  [0.375, null, '⅜', '3/8'],
  [12.5, null, '12½', '12 1/2'],
  [0.333, null, '⅓', '1/3'], // what a page writes for a third
  [0.67, null, '⅔', '2/3'],
  [0.124, null, '0.124', '0.124'], // 0.8% from ⅛: a decimal
  [6.2704, null, '6¼', '6 1/4'], // rounded to 6.27 first, which is 6¼
  [0.9999, null, '1', '1'],
  [3, 'clove', '3', '3'],
  [0.13, null, '0.13', '0.13'], // 4% from ⅛: a decimal
  [50.1, null, '50.1', '50.1'], // close to 50⅛ in share, not in distance
  [1.2345, null, '1.23', '1.23'],
  [83.3333, 'gram', '83.3', '83.3'],
  [1.5, 'kilogram', '1.5', '1.5'], // metric: decimals only
  [0.5, 'liter', '0.5', '0.5'],
  [150.4, null, '150', '150'],
  [999.6, null, '1000', '1000'],
  [123456.7, 'gram', '123457', '123457'],
  [1e30, null, '1000000000000000019884624838656', '1000000000000000019884624838656'],
  [0.0000012345, 'gram', '0.00000123', '0.00000123'],
  [0, 'cup', '0', '0'],
];

for (const [value, unitId, unicode, ascii] of cases) {
  test(`formatQuantity(${value}, ${unitId})`, (t) => {
    t.is(formatQuantity(value, { unitId }), unicode);
    t.is(formatQuantity(value, { unitId, fractions: 'ascii' }), ascii);
  });
}

for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, '2' as unknown as number]) {
  test(`formatQuantity refuses ${String(bad)}`, (t) => {
    const error = t.throws(() => formatQuantity(bad), { instanceOf: IngredientError });
    t.is(error?.code, 'invalid-quantity');
  });
}

test('property: a rendering is within 1.01% of the value, and the parser reads back the value it stands for, rendering it again changes nothing', (t) => {
  const unitIds = fc.constantFrom(null, 'cup', 'teaspoon', 'gram', 'milliliter');
  fc.assert(
    fc.property(fc.double({ min: 1e-9, max: 1e12, noNaN: true }), unitIds, fc.constantFrom('unicode', 'ascii'), (value, unitId, fractions) => {
      const rendered = renderQuantity(value, { unitId, fractions: fractions as 'unicode' | 'ascii' });
      const read = parseIngredient(`${rendered.text} x`).quantity;
      const again = renderQuantity(rendered.value, { unitId, fractions: fractions as 'unicode' | 'ascii' });
      return (
        Math.abs(rendered.value - value) <= value * RENDER_TOLERANCE &&
        again.text === rendered.text &&
        read !== null &&
        Math.abs(read - rendered.value) <= 1e-12 * rendered.value &&
        !/e/i.test(rendered.text)
      );
    }),
    { numRuns: 2000 },
  );
  t.pass();
});
