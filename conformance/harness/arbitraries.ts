// Arbitraries the suites share.
import fc from 'fast-check';

const SURROGATES = 0x800; // U+D800 to U+DFFF

/** One Unicode scalar value (any code point but a surrogate), with an unmapper so fast-check still mixes in
 * its known-troublesome strings (`__proto__`, `constructor`, …). It is `unit: 'binary'` without the table
 * of every code point fast-check builds for that unit (0.75 s of a worker's time when idle, 2 s loaded). */
const scalarValue = fc.integer({ min: 0, max: 0x10ffff - SURROGATES }).map(
  (n) => String.fromCodePoint(n < 0xd800 ? n : n + SURROGATES),
  (value) => {
    const code = typeof value === 'string' ? value.codePointAt(0) : undefined;
    if (code === undefined || String.fromCodePoint(code) !== value || (code >= 0xd800 && code < 0xe000)) throw new Error('not one scalar value');
    return code < 0xd800 ? code : code - SURROGATES;
  },
);

/** Strings of any scalar values, as fc.string({ unit: 'binary', ...constraints }). */
export function scalarString(constraints: Omit<fc.StringConstraints, 'unit'> = {}): fc.Arbitrary<string> {
  return fc.string({ ...constraints, unit: scalarValue });
}
