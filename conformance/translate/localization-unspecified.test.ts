// TranslateLocalization where the document is silent (informational): the reference's choices for an `auto`
// or empty source, key order, layout, what matches in existing_translation, counting duplicates, invalid
// auxiliary JSON and top-level values other than objects.
import { check } from '../harness/check.ts';
import { allowedCounts, compare, type Json, localize, localizeText, Obj, obj, pathKey, render } from './localization-doc.ts';
import { connect, facts } from './target.ts';

const T = facts.pair.text;
const changed = (text: string): boolean => text === T;
const EXISTING_A = '«already translated» title ✓';
const EXISTING_B = '«ya traducido» #2';

check('translate/localization/auto-source-code/auto-and-empty-invalid-argument', async (t, c) => {
  const client = await connect(c);
  for (const sourceLanguage of ['auto', 'AUTO', '']) {
    const out = await localize(client, obj({ greeting: T }), { sourceLanguage });
    t.is(out.codeName, 'INVALID_ARGUMENT', `source_language ${JSON.stringify(sourceLanguage)}: ${out.message}`);
    t.regex(out.message, /source_language/);
  }
});

check('translate/localization/key-order/integer-like-keys-kept-in-order', async (t, c) => {
  const input = new Obj([
    ['zeta', T],
    ['10', T],
    ['2', T],
    ['alpha', obj({ b: T, '1': T, a: 3, '0': null })],
    ['1', [obj({ y: T, x: T, '5': T, '4': T })]],
  ]);
  const out = await localize(await connect(c), input);
  t.is(out.codeName, 'OK', out.message);
  t.deepEqual(compare(input, out.output).order, [], `json: ${out.response?.json}`);
});

check('translate/localization/output-formatting/two-space-indent-literal-unicode', async (t, c) => {
  const input = obj({ clé: T, 'emoji 🎉': [T, 1, obj({ a: null, b: true })], empty: obj({}), none: [] });
  const out = await localizeText(await connect(c), render(input));
  t.is(out.codeName, 'OK', out.message);
  // JSON.stringify(value, null, 2) of what came back, in the order it came back.
  t.is(out.response?.json, out.output === undefined ? '' : render(out.output, '  '));
  t.true(out.response?.json.includes('"clé"'), 'non-ASCII written literally');
});

check('translate/localization/existing-match-rule/blank-and-non-string-values-ignored', async (t, c) => {
  const input = obj({ a: T, b: T, c: T, d: [T] });
  const existing = obj({ a: '', b: 5, c: '   ', d: [null] });
  const out = await localize(await connect(c), input, { existingTranslation: render(existing) });
  t.is(out.codeName, 'OK', out.message);
  t.deepEqual(compare(input, out.output, { expectChanged: changed }).unchanged, []);
  t.true(allowedCounts(input).includes(out.count ?? -1), `strings_translated ${out.count}: nothing was reused`);
});

check('translate/localization/existing-match-rule/extra-paths-not-copied', async (t, c) => {
  const input = obj({ a: T, list: [T] });
  const existing = obj({ a: EXISTING_A, extra: 'not in the input', list: [EXISTING_B, 'beyond the array'], more: obj({ x: 'y' }) });
  const reused = new Map([
    [pathKey(['a']), EXISTING_A],
    [pathKey(['list', 0]), EXISTING_B],
  ]);
  const out = await localize(await connect(c), input, { existingTranslation: render(existing) });
  t.is(out.codeName, 'OK', out.message);
  const f = compare(input, out.output, { reused });
  t.deepEqual(f.structure, [], 'no key or element of existing_translation alone appears');
  t.deepEqual(f.reused, []);
});

check('translate/localization/count-details/duplicates-counted-per-position', async (t, c) => {
  const input = obj({ a: T, b: T, list: [T, T, ''], n: 7 });
  const out = await localize(await connect(c), input);
  t.is(out.codeName, 'OK', out.message);
  t.is(out.count, 4);
});

check('translate/localization/auxiliary-json-invalid/existing-and-context-refused', async (t, c) => {
  const client = await connect(c);
  const input = obj({ a: T });
  const existing = await localize(client, input, { existingTranslation: '{"a": ' });
  t.is(existing.codeName, 'INVALID_ARGUMENT', existing.message);
  t.regex(existing.message, /existing_translation/);
  const context = await localize(client, input, { context: '[1,' });
  t.is(context.codeName, 'INVALID_ARGUMENT', context.message);
  t.regex(context.message, /context/);
});

check('translate/localization/top-level-value/scalars-strings-and-arrays', async (t, c) => {
  const client = await connect(c);
  for (const input of [T, [T, 1, ''], 42, true, null] as Json[]) {
    const out = await localize(client, input);
    t.is(out.codeName, 'OK', `${render(input)}: ${out.message}`);
    const f = compare(input, out.output, { expectChanged: changed });
    t.deepEqual([...f.structure, ...f.nonStrings, ...f.unchanged], [], render(input));
    t.is(out.count, typeof input === 'string' ? 1 : Array.isArray(input) ? 1 : 0, render(input));
  }
});
