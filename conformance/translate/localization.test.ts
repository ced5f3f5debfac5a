// TranslateLocalization by example: leaf strings at any depth and in arrays translated, non-strings and blank
// strings kept, the structure kept, strings_translated, existing_translation reused and not counted, the
// optional fields, per-key context and the refused `auto` source; then the golden fixtures of
// fixtures/translate/localization (golden-model). The only text every target is known to translate into
// something else is facts.pair.text, so the documents here use it for every non-blank leaf. Generated
// documents: localization-properties.test.ts; the reference's choices: localization-unspecified.test.ts.
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { GOLDEN_SOURCE, GOLDEN_TARGET, localizationExpected, localizationFixtures, localizationInput } from '../../tools/fixtures/translate-golden.ts';
import { check } from '../harness/check.ts';
import { allowedCounts, compare, type Json, localize, Obj, obj, pathKey, render } from './localization-doc.ts';
import { connect, facts } from './target.ts';

const T = facts.pair.text;
const changed = (text: string): boolean => text === T;
const EXISTING_A = '«already translated» title ✓';
const EXISTING_B = '«ya traducido» #2';

check('translate/localization/rpc/returns-translated-json', async (t, c) => {
  const input = obj({ greeting: T });
  const out = await localize(await connect(c), input);
  t.is(out.codeName, 'OK', out.message);
  const f = compare(input, out.output, { expectChanged: changed });
  t.deepEqual(f.structure, [], `json: ${out.response?.json}`);
  t.deepEqual(f.unchanged, []);
  t.is(out.count, 1);
});

check('translate/localization/leaf-strings-any-depth/deeply-nested-objects', async (t, c) => {
  let input: Json = obj({ text: T });
  for (let depth = 1; depth <= 12; depth++) input = obj({ [`level${depth}`]: T, child: input });
  const out = await localize(await connect(c), input);
  t.is(out.codeName, 'OK', out.message);
  const f = compare(input, out.output, { expectChanged: changed });
  t.deepEqual(f.structure, []);
  t.deepEqual(f.unchanged, []);
});

check('translate/localization/strings-in-arrays/arrays-and-nested-arrays', async (t, c) => {
  const input = obj({
    list: [T, T],
    matrix: [[T], [T, [T, [T]]]],
    items: [obj({ label: T, tags: [T] }), obj({ label: T })],
    mixed: [1, T, null, '', [true, T]],
  });
  const out = await localize(await connect(c), input);
  t.is(out.codeName, 'OK', out.message);
  const f = compare(input, out.output, { expectChanged: changed });
  t.deepEqual(f.structure, []);
  t.deepEqual(f.unchanged, []);
});

check('translate/localization/non-strings-unchanged/numbers-booleans-null', async (t, c) => {
  const input = obj({
    count: 3,
    ratio: 0.25,
    negative: -7,
    large: 1e21,
    tiny: 1.5e-7,
    maxSafe: Number.MAX_SAFE_INTEGER,
    on: true,
    off: false,
    none: null,
    label: T,
    list: [0, true, null, T, -1.5],
    nested: obj({ deeper: obj({ n: 42, b: false, z: null }) }),
  });
  const out = await localize(await connect(c), input);
  t.is(out.codeName, 'OK', out.message);
  const f = compare(input, out.output);
  t.deepEqual(f.nonStrings, []);
  t.deepEqual(f.structure, []);
});

check('translate/localization/blank-strings-unchanged/empty-and-whitespace', async (t, c) => {
  const blanks = ['', ' ', '   ', '\t', '\n', ' \r\n\t ', '\u00a0', '\u3000', '\u2003\u2009', '\u2028'];
  const input = obj({
    ...Object.fromEntries(blanks.map((b, i) => [`blank${i}`, b])),
    label: T,
    list: [...blanks, T],
    nested: obj({ empty: '', spaces: '  ', text: T }),
  });
  const out = await localize(await connect(c), input);
  t.is(out.codeName, 'OK', out.message);
  const f = compare(input, out.output);
  t.deepEqual(f.blanks, []);
  t.deepEqual(f.structure, []);
});

check('translate/localization/structure-preserved/keys-nesting-and-array-lengths', async (t, c) => {
  // Keys that look like text to translate (the pair text itself, words, unicode) stay as they are.
  const input = new Obj([
    [T, T],
    ['Hello', obj({ [T]: [T, T, T], 'Good night': obj({}) })],
    ['emptyArray', []],
    ['emptyObject', obj({})],
    ['ключ', obj({ '10': T, '2': T, '': T, ' ': T })],
    ['rows', [[], [T], [T, T], [[T, T, T]]]],
    ['objects', [obj({ a: T }), obj({}), obj({ b: [obj({ c: T })] })]],
  ]);
  const out = await localize(await connect(c), input);
  t.is(out.codeName, 'OK', out.message);
  t.deepEqual(compare(input, out.output).structure, [], `json: ${out.response?.json}`);
});

check('translate/localization/strings-translated-count/counts-non-blank-leaves', async (t, c) => {
  const client = await connect(c);
  const documents: Json[] = [
    obj({ a: 1, b: true, c: null, d: '', e: ' ', f: [] }),
    obj({ a: 1, b: [' ', T, null], c: '' }),
    obj({ a: T, b: [T, ''], c: obj({ d: T, e: 5 }) }),
  ];
  for (const input of documents) {
    const out = await localize(client, input);
    t.is(out.codeName, 'OK', out.message);
    // Several equal texts: one count per position, or one per distinct text (see count-details).
    t.true(allowedCounts(input).includes(out.count ?? -1), `strings_translated ${out.count}, expected one of ${allowedCounts(input)} for ${render(input)}`);
  }
});

const REUSE_INPUT = obj({
  title: T,
  body: T,
  menu: obj({ open: T, items: [T, T] }),
});
const REUSE_EXISTING = obj({ title: EXISTING_A, menu: obj({ items: [EXISTING_B, '«segundo»'] }) });
const REUSED_PATHS = new Map([
  [pathKey(['title']), EXISTING_A],
  [pathKey(['menu', 'items', 0]), EXISTING_B],
  [pathKey(['menu', 'items', 1]), '«segundo»'],
]);

check('translate/localization/existing-translation-reused/matching-keys-reused', async (t, c) => {
  const out = await localize(await connect(c), REUSE_INPUT, { existingTranslation: render(REUSE_EXISTING) });
  t.is(out.codeName, 'OK', out.message);
  const f = compare(REUSE_INPUT, out.output, { reused: REUSED_PATHS, expectChanged: changed });
  t.deepEqual(f.reused, []);
  t.deepEqual(f.unchanged, [], 'the strings without an existing translation are translated');
  t.deepEqual(f.structure, []);
});

check('translate/localization/reused-not-counted/count-excludes-reused', async (t, c) => {
  const client = await connect(c);
  const partial = await localize(client, REUSE_INPUT, {
    existingTranslation: render(obj({ title: EXISTING_A, menu: obj({ open: 'Abrir', items: [EXISTING_B, '«segundo»'] }) })),
  });
  t.is(partial.codeName, 'OK', partial.message);
  t.is(partial.count, 1, 'only "body" is newly translated');
  const full = await localize(client, REUSE_INPUT, {
    existingTranslation: render(obj({ title: 'x1', body: 'x2', menu: obj({ open: 'x3', items: ['x4', 'x5'] }) })),
  });
  t.is(full.codeName, 'OK', full.message);
  t.is(full.count, 0, 'everything came from existing_translation');
});

check('translate/localization/optional-fields/empty-model-existing-and-context', async (t, c) => {
  const client = await connect(c);
  const input = obj({ a: T, list: [T, 1], nested: obj({ b: T }) });
  const empty = await localize(client, input, { model: '', existingTranslation: '', context: '' });
  t.is(empty.codeName, 'OK', empty.message);
  const f = compare(input, empty.output, { expectChanged: changed });
  t.deepEqual(f.structure, []);
  t.deepEqual(f.unchanged, [], 'an empty existing_translation reuses nothing');
  t.true(allowedCounts(input).includes(empty.count ?? -1), `strings_translated ${empty.count}`);
  // The default model named explicitly answers like the empty model field.
  const named = await localize(client, input, { model: facts.defaultModel });
  t.is(named.codeName, 'OK', named.message);
  t.deepEqual(compare(input, named.output, { expectChanged: changed }).unchanged, []);
  t.is(named.count, empty.count);
});

check('translate/localization/context-per-key/same-shape-context-accepted', async (t, c) => {
  const input = obj({ open: T, save: T, dialog: obj({ title: T, buttons: [T, T] }), version: 2 });
  const context = obj({
    open: 'Verb on a toolbar button',
    save: 'Verb; keep it short',
    dialog: obj({ title: 'Window title', buttons: ['Confirms the action', 'Cancels the action'] }),
  });
  const out = await localize(await connect(c), input, { context: render(context, '  ') });
  t.is(out.codeName, 'OK', out.message);
  const f = compare(input, out.output, { expectChanged: changed });
  t.deepEqual(f.structure, []);
  t.deepEqual(f.unchanged, []);
  t.deepEqual(f.nonStrings, []);
  t.true(allowedCounts(input).includes(out.count ?? -1), `strings_translated ${out.count}`);
});

check('translate/localization/auto-source-rejected/auto-fails', async (t, c) => {
  const out = await localize(await connect(c), obj({ greeting: T }), { sourceLanguage: 'auto' });
  t.not(out.codeName, 'OK', `translated with source_language auto: ${out.response?.json}`);
  t.is(out.response, undefined);
});

// ------------------------------------------------------------------ golden fixtures (the deterministic model)

for (const name of localizationFixtures()) {
  const request = { ...localizationInput(name), sourceLanguage: GOLDEN_SOURCE, targetLanguage: GOLDEN_TARGET };
  const golden = { needs: ['golden-model'] };
  check(`translate/localization/rpc/golden-${name}`, golden, async (t, c) => {
    const client = await connect(c);
    const out = await client.call(TranslateService.method.translateLocalization, { ...request, model: facts.goldenModel ?? '' });
    t.is(out.codeName, 'OK', out.message);
    const expected = localizationExpected(name);
    t.deepEqual(JSON.parse(out.response?.json ?? 'null'), JSON.parse(expected.json), `fixtures/translate/localization/${name}.out.json`);
    t.is(out.response?.stringsTranslated, expected.count, `fixtures/translate/localization/${name}.count`);
  });
  check(`translate/localization/output-formatting/golden-${name}-exact-text`, golden, async (t, c) => {
    const client = await connect(c);
    const out = await client.call(TranslateService.method.translateLocalization, { ...request, model: facts.goldenModel ?? '' });
    t.is(out.codeName, 'OK', out.message);
    t.is(out.response?.json, localizationExpected(name).json, `fixtures/translate/localization/${name}.out.json, byte for byte`);
  });
}
