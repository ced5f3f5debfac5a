// The shape bound counts what JSON.parse would build, and only that: brackets, commas and quotes inside
// strings (escaped quotes included) are text.
import test from 'ava';
import fc from 'fast-check';
import { jsonShapeProblem } from './json-shape.ts';

const LOOSE = { maxValues: 1e9, maxDepth: 1e9 };

/** Containers plus the elements or members after a first one: what the bound counts, from the parsed value. */
function counted(value: unknown, depth = 1): { values: number; depth: number } {
  if (value === null || typeof value !== 'object') return { values: 0, depth: depth - 1 };
  const children = Array.isArray(value) ? value : Object.values(value);
  const inner = children.map((child) => counted(child, depth + 1));
  return {
    values: 1 + Math.max(0, children.length - 1) + inner.reduce((sum, x) => sum + x.values, 0),
    depth: Math.max(depth, ...inner.map((x) => x.depth)),
  };
}

test('any JSON: within limits equal to its own counts, beyond limits one below them', (t) => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
      const bytes = Buffer.from(JSON.stringify(value));
      const { values, depth } = counted(value);
      if (jsonShapeProblem(bytes, LOOSE) !== null) return false;
      if (jsonShapeProblem(bytes, { maxValues: values, maxDepth: Math.max(depth, 0) }) !== null) return false;
      if (values > 0 && jsonShapeProblem(bytes, { maxValues: values - 1, maxDepth: 1e9 }) === null) return false;
      if (depth > 0 && jsonShapeProblem(bytes, { maxValues: 1e9, maxDepth: depth - 1 }) === null) return false;
      return true;
    }),
    { numRuns: 2000 },
  );
  t.pass();
});

test('brackets and commas in strings, escaped quotes and backslashes, do not count', (t) => {
  const text = JSON.stringify({ a: '[[[{{{,,,\\"]]]', b: '\\\\', c: '"}"' });
  t.is(jsonShapeProblem(Buffer.from(text), { maxValues: 3, maxDepth: 1 }), null);
  t.regex(jsonShapeProblem(Buffer.from('[[[1]]]'), { maxValues: 10, maxDepth: 2 }) ?? '', /deeper than 2/);
  t.regex(jsonShapeProblem(Buffer.from('[1,2,3,4]'), { maxValues: 3, maxDepth: 5 }) ?? '', /more than 3 values/);
  t.is(jsonShapeProblem(Buffer.from('"unterminated [[[['), { maxValues: 0, maxDepth: 0 }), null);
});
