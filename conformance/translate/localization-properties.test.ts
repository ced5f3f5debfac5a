// TranslateLocalization over generated documents: awkward keys (empty, `__proto__`, integer-like, unicode,
// control characters), arbitrary unicode strings, blank strings, numbers, booleans and null, nested objects
// and arrays, compact or indented request text. Only the pair text (facts.pair.text), or any string when
// the golden model is used, is required to come back changed.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { GOLDEN_SOURCE, GOLDEN_TARGET } from '../../tools/fixtures/translate-golden.ts';
import { scalarString } from '../harness/arbitraries.ts';
import { check } from '../harness/check.ts';
import type { CaseContext } from '../harness/case-context.ts';
import type { GrpcClient } from '../harness/grpc-client.ts';
import {
  allowedCounts,
  compare,
  type Findings,
  isAmbiguousBlank,
  isBlank,
  type Json,
  type JsonPath,
  type LocalizationFields,
  leafStrings,
  localizeText,
  Obj,
  pathKey,
  render,
  WHITESPACE_CHARS,
} from './localization-doc.ts';
import { connect, facts } from './target.ts';

const T = facts.pair.text;
const RUNS = { numRuns: 40 };

const key = fc.oneof(
  fc.constantFrom('', ' ', '__proto__', 'constructor', 'toString', '0', '1', '2', '10', '-1', '01', '1.5', '4294967295'),
  fc.constantFrom('a.b', 'a/b', '$ref', '"', '\\', '\u0000', '\t', 'key with spaces', '🎉', 'ключ', '键', 'مفتاح', 'e\u0301', T),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  scalarString({ maxLength: 6 }),
  fc.stringMatching(/^[a-z][A-Za-z0-9_]{0,10}$/),
);
const blank = fc.array(fc.constantFrom(...WHITESPACE_CHARS), { maxLength: 4 }).map((chars) => chars.join(''));
const text = fc
  .oneof(
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
    scalarString({ minLength: 1, maxLength: 20 }),
    fc.constantFrom('Hello {name}', '{{count}} files', '%d items left', '%1$s of %2$s', '<b>Bold</b> move', 'Tom &amp; Jerry'),
    fc.constantFrom("It's 5 o'clock", 'Ünïcødé', '日本語のテキスト', 'مرحبا بالعالم', 'line\nbreak', '\ud800 lone surrogate', '"q" \\ b', T),
  )
  .filter((s) => !isAmbiguousBlank(s));
const number = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, 1e21, -1.5e-7, Number.MAX_SAFE_INTEGER),
);

/** Documents with an object at the top, whose non-blank strings come from `leaf`. */
function documents(leaf: fc.Arbitrary<string>, maxDepth = 4): fc.Arbitrary<Obj> {
  const scalar = fc.oneof({ arbitrary: leaf, weight: 5 }, blank, number, fc.boolean(), fc.constant(null));
  const tree = fc.letrec<{ value: Json; array: Json[]; object: Obj }>((tie) => ({
    value: fc.oneof({ depthSize: 'small', maxDepth }, scalar, tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 5 }),
    object: fc.uniqueArray(fc.tuple(key, tie('value')), { maxLength: 6, selector: ([k]) => k }).map((e) => new Obj(e)),
  }));
  return fc.uniqueArray(fc.tuple(key, tree.value), { minLength: 1, maxLength: 8, selector: ([k]) => k }).map((e) => new Obj(e));
}

/** A document wrapped in up to `levels` more objects and arrays. */
const nested = (inner: fc.Arbitrary<Obj>, levels: number): fc.Arbitrary<Obj> =>
  fc.tuple(inner, fc.array(fc.option(key, { nil: undefined }), { maxLength: levels })).map(([doc, wraps]) => {
    let value: Json = doc;
    for (const k of wraps) value = k === undefined ? [value] : new Obj([[k, value]]);
    return new Obj([['root', value]]);
  });

const layout = fc.constantFrom(undefined, '  ', '\t', '    ');

interface Run {
  doc: Obj;
  indent: string | undefined;
}

/** A property over documents: each run sends one request and checks the findings of `verdict`. */
async function localizationProperty(
  c: CaseContext,
  arb: fc.Arbitrary<Run>,
  verdict: (doc: Obj, out: Awaited<ReturnType<typeof localizeText>>) => unknown[],
  fields: LocalizationFields = {},
): Promise<void> {
  const client: GrpcClient = await connect(c);
  await c.property(
    arb,
    async ({ doc, indent }) => {
      const out = await localizeText(client, render(doc, indent), fields);
      assert.equal(out.codeName, 'OK', out.message);
      assert.deepEqual(verdict(doc, out), []);
    },
    RUNS,
  );
}

const anyDocument = fc.record({ doc: documents(text), indent: layout });
const findings = (pick: keyof Findings, expectChanged?: (s: string) => boolean) => (doc: Obj, out: { output: Json | undefined }) =>
  compare(doc, out.output, { expectChanged })[pick];

check('translate/localization/structure-preserved/arbitrary-documents', async (_t, c) => {
  await localizationProperty(c, anyDocument, findings('structure'));
});

check('translate/localization/non-strings-unchanged/arbitrary-documents', async (_t, c) => {
  await localizationProperty(c, anyDocument, findings('nonStrings'));
});

check('translate/localization/blank-strings-unchanged/arbitrary-documents', async (_t, c) => {
  await localizationProperty(c, fc.record({ doc: documents(fc.oneof(text, blank)), indent: layout }), findings('blanks'));
});

check('translate/localization/strings-translated-count/arbitrary-documents', async (_t, c) => {
  await localizationProperty(c, anyDocument, (doc, out) => {
    const allowed = allowedCounts(doc);
    return allowed.includes(out.count ?? -1) ? [] : [`strings_translated ${out.count}, expected one of ${allowed}`];
  });
});

check('translate/localization/leaf-strings-any-depth/pair-text-at-any-depth', async (_t, c) => {
  const arb = fc.record({ doc: nested(documents(fc.constant(T), 6), 24), indent: layout });
  await localizationProperty(c, arb, findings('unchanged', (s) => s === T));
});

check('translate/localization/strings-in-arrays/pair-text-in-nested-arrays', async (_t, c) => {
  const arrays = fc.letrec<{ value: Json; array: Json[] }>((tie) => ({
    value: fc.oneof({ depthSize: 'small', maxDepth: 5 }, fc.constant(T), blank, number, tie('array')),
    array: fc.array(tie('value'), { minLength: 1, maxLength: 5 }),
  }));
  const arb = fc.record({ doc: fc.array(arrays.array, { minLength: 1, maxLength: 3 }).map((lists) => new Obj(lists.map((l, i) => [`list${i}`, l]))), indent: layout });
  await localizationProperty(c, arb, findings('unchanged', (s) => s === T));
});

check('translate/localization/leaf-strings-any-depth/golden-model-arbitrary-strings', { needs: ['golden-model'] }, async (_t, c) => {
  const fields = { model: facts.goldenModel ?? '', sourceLanguage: GOLDEN_SOURCE, targetLanguage: GOLDEN_TARGET };
  await localizationProperty(c, fc.record({ doc: nested(documents(text), 8), indent: layout }), findings('unchanged', () => true), fields);
});

// ------------------------------------------------------------------ existing_translation over a random subset

/** An existing_translation holding a distinct marker at the picked non-blank leaves of `doc`, and nothing
 * (or, to keep later array indices, an empty container, the same blank or non-string, or another marker)
 * elsewhere; with the markers expected at their paths. */
function existingFor(doc: Json, picks: boolean[]): { existing: string; reused: Map<string, string> } {
  const reused = new Map<string, string>();
  let leaves = 0;
  const marker = (path: JsonPath): string => {
    const value = `«existente ${reused.size + 1}» ✓`;
    reused.set(pathKey(path), value);
    return value;
  };
  const filler = (v: Json, path: JsonPath): Json =>
    typeof v === 'string' ? (isBlank(v) ? v : marker(path)) : Array.isArray(v) ? [] : v instanceof Obj ? new Obj([]) : v;
  const build = (v: Json, path: JsonPath): Json | undefined => {
    if (typeof v === 'string') {
      const picked = picks[leaves++ % picks.length];
      return picked && !isBlank(v) ? marker(path) : undefined;
    }
    if (Array.isArray(v)) {
      const items = v.map((x, i) => build(x, [...path, i]));
      const end = items.findLastIndex((x) => x !== undefined) + 1;
      return end === 0 ? undefined : items.slice(0, end).map((x, i) => x ?? filler(v[i]!, [...path, i]));
    }
    if (v instanceof Obj) {
      const entries = v.entries.map(([k, x]): [string, Json | undefined] => [k, build(x, [...path, k])]).filter((e): e is [string, Json] => e[1] !== undefined);
      return entries.length === 0 ? undefined : new Obj(entries);
    }
    return undefined;
  };
  const existing = build(doc, []);
  return { existing: existing === undefined ? '' : render(existing), reused };
}

const withExisting = fc.record({ doc: documents(text), picks: fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }), indent: layout });

async function existingProperty(c: CaseContext, verdict: (doc: Obj, reused: Map<string, string>, out: Awaited<ReturnType<typeof localizeText>>) => unknown[]) {
  const client = await connect(c);
  await c.property(
    withExisting,
    async ({ doc, picks, indent }) => {
      const { existing, reused } = existingFor(doc, picks);
      const out = await localizeText(client, render(doc, indent), { existingTranslation: existing });
      assert.equal(out.codeName, 'OK', out.message);
      assert.deepEqual(verdict(doc, reused, out), []);
    },
    RUNS,
  );
}

check('translate/localization/existing-translation-reused/arbitrary-subset', async (_t, c) => {
  await existingProperty(c, (doc, reused, out) => compare(doc, out.output, { reused }).reused);
});

check('translate/localization/reused-not-counted/arbitrary-subset', async (_t, c) => {
  await existingProperty(c, (doc, reused, out) => {
    const allowed = allowedCounts(doc, new Set(reused.keys()));
    return allowed.includes(out.count ?? -1) ? [] : [`strings_translated ${out.count}, expected one of ${allowed} (${reused.size} reused)`];
  });
});

// ------------------------------------------------------------------ the reference's choices (informational)

check('translate/localization/key-order/arbitrary-documents', async (_t, c) => {
  await localizationProperty(c, anyDocument, findings('order'));
});

check('translate/localization/count-details/arbitrary-documents', async (_t, c) => {
  await localizationProperty(c, anyDocument, (doc, out) => {
    const positions = leafStrings(doc).filter((l) => !isBlank(l.text)).length;
    return out.count === positions ? [] : [`strings_translated ${out.count}, expected ${positions} (one per non-blank leaf)`];
  });
});

check('translate/localization/output-formatting/arbitrary-documents', async (_t, c) => {
  await localizationProperty(c, anyDocument, (_doc, out) => {
    const expected = out.output === undefined ? undefined : render(out.output, '  ');
    return out.response?.json === expected ? [] : [`not laid out like JSON.stringify(value, null, 2): ${JSON.stringify(out.response?.json)}`];
  });
});
