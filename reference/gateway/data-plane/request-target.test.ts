import fc from 'fast-check';
import test from 'ava';
import { normalisedTarget } from './request-target.ts';

test('dot segments go, their %2e forms too; the query, %2f, backslashes and empty segments stay', (t) => {
  for (const [raw, expected] of [
    ['/a/b', '/a/b'],
    ['/api/../other/v?x=../y', '/other/v?x=../y'],
    ['/api/%2e%2e/other/w', '/other/w'],
    ['/api/.%2E/other/x', '/other/x'],
    ['/./login', '/login'],
    ['/a/b/..', '/a/'],
    ['/a/.', '/a/'],
    ['//victim.example/home', '//victim.example/home'],
    ['/a%2f..%2fb', '/a%2f..%2fb'],
    ['/a\\..\\b', '/a\\..\\b'],
    ['/..a/b..', '/..a/b..'],
    ['http://h.test/a/../b?q', '/b?q'],
  ] as const) {
    t.is(normalisedTarget(raw), expected, raw);
  }
});

test('a target above the root, or in no origin form, is refused', (t) => {
  for (const raw of ['/..', '/../x', '/a/../../etc/passwd', '/%2e%2e/x', '*', 'x/y', 'ftp://h/x', '']) t.is(normalisedTarget(raw), undefined, raw);
});

test('property: a normalised target has no dot segment and normalises to itself', (t) => {
  const segment = fc.constantFrom('a', 'b', '.', '..', '%2e', '%2E%2e', '.%2e', '', 'x.y');
  fc.assert(
    fc.property(fc.array(segment, { maxLength: 8 }), fc.option(fc.constantFrom('?q=1', '?../x')), (segments, query) => {
      const out = normalisedTarget(`/${segments.join('/')}${query ?? ''}`);
      if (out === undefined) return;
      const path = out.split('?')[0]!;
      t.false(path.split('/').some((s) => /^(?:\.|%2e){1,2}$/i.test(s)), out);
      t.is(normalisedTarget(out), out);
    }),
  );
});
