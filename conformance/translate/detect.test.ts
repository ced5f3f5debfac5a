// DetectLanguage: sample sentences detected as their language, BCP-47 answers, probability in [0, 1] and
// exactly 0 for the heuristic detector (the `unscored-detector` variant), the raw label for `native`; and,
// informationally, the reference's labels and its answer for text without letters.
// Samples: fixtures/translate/detect/samples.json. A script that writes one language (kana, Hangul, Greek,
// Thai, Hebrew, Armenian, Georgian) identifies it for any detector; the other samples (Latin, Cyrillic,
// Arabic, Han, Devanagari sentences) are only expected from a detector that scores its guesses.
import assert from 'node:assert/strict';
import type { ExecutionContext } from 'ava';
import { parse } from 'bcp-47';
import fc from 'fast-check';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { type DetectSample, detectGolden, detectSamples } from '../../tools/fixtures/translate-golden.ts';
import type { CaseContext } from '../harness/case-context.ts';
import { scalarString } from '../harness/arbitraries.ts';
import { check } from '../harness/check.ts';
import type { GrpcClient } from '../harness/grpc-client.ts';
import { connect, facts, stagedOn, variantFor } from './target.ts';

const UNSCORED = 'unscored-detector';
/** The cases of the unscored detector: on the main instance, or on a variant of that name (needs launch). */
const variant = { needs: stagedOn(UNSCORED) };
const unscored = variantFor(UNSCORED);

/** Languages whose script identifies them, with that script. */
const SCRIPT_OF: Record<string, RegExp> = {
  ja: /[\p{Script=Hiragana}\p{Script=Katakana}]/u,
  ko: /\p{Script=Hangul}/u,
  el: /\p{Script=Greek}/u,
  th: /\p{Script=Thai}/u,
  he: /\p{Script=Hebrew}/u,
  hy: /\p{Script=Armenian}/u,
  ka: /\p{Script=Georgian}/u,
};
/** Other BCP-47 primary subtags that also name a sample's language (macrolanguage members, legacy codes). */
const ALSO: Record<string, string[]> = { zh: ['cmn'], ar: ['arb'], he: ['iw'] };

const SAMPLES = detectSamples();
const SCRIPT_SAMPLES = SAMPLES.filter((s) => SCRIPT_OF[s.language]?.test(s.text));
/** What this target's detector is expected to get right. */
const EXPECTED_SAMPLES = facts.detector === 'scored' ? SAMPLES : SCRIPT_SAMPLES;
/** Texts without any letter: what the call answers for them is not stated (see blank-or-undetermined). */
const NO_LETTERS = ['', ' ', '\n\t', '12345', '3.14 + 2 = 5.14', '!!! ???', '🎉🎉👍', '— … —', '(555) 010-0199'];

const hasLetter = (text: string): boolean => /\p{L}/u.test(text);
const SAMPLE_TEXTS = SAMPLES.map((s) => s.text);
const primary = (tag: string): string => (parse(tag).language ?? '').toLowerCase();
const wellFormed = (tag: string): boolean => {
  const p = parse(tag);
  return Boolean(p.language || p.irregular || p.regular || p.privateuse.length > 0);
};
const sameLanguage = (tag: string, expected: string): boolean => [expected, ...(ALSO[expected] ?? [])].includes(primary(tag));

function detect(client: GrpcClient, text: string, languageFormat = '') {
  return client.call(TranslateService.method.detectLanguage, { text, languageFormat });
}

async function detectsSamples(t: ExecutionContext, c: CaseContext, samples: DetectSample[], variantName?: string): Promise<void> {
  const client = await connect(c, variantName);
  for (const { text, language } of samples) {
    const out = await detect(client, text);
    t.is(out.codeName, 'OK', `${text}: ${out.message}`);
    t.true(sameLanguage(out.response?.language ?? '', language), `${text}: detected ${JSON.stringify(out.response?.language)}, expected ${language}`);
  }
}

check('translate/detect/rpc/detects-sample-languages', async (t, c) => {
  await detectsSamples(t, c, EXPECTED_SAMPLES);
});

check('translate/detect/rpc/unscored-variant-script-samples', variant, async (t, c) => {
  await detectsSamples(t, c, SCRIPT_SAMPLES, unscored);
});

for (const [suffix, onUnscored] of [['', false], ['-unscored-variant', true]] as const) {
  const options = onUnscored ? variant : {};
  const variantName = onUnscored ? unscored : undefined;
  check(`translate/detect/language-in-format/bcp47-tags${suffix}`, options, async (t, c) => {
    const client = await connect(c, variantName);
    for (const text of SAMPLE_TEXTS) {
      for (const format of ['', 'bcp47']) {
        const out = await detect(client, text, format);
        t.is(out.codeName, 'OK', `${JSON.stringify(text)} (${format || 'empty'}): ${out.message}`);
        t.true(wellFormed(out.response?.language ?? ''), `${JSON.stringify(text)} (${format || 'empty'}): ${JSON.stringify(out.response?.language)} is not a BCP-47 tag`);
      }
    }
  });

  check(`translate/detect/probability-range/samples${suffix}`, options, async (t, c) => {
    const client = await connect(c, variantName);
    for (const text of SAMPLE_TEXTS) {
      for (const format of ['', 'native']) {
        const out = await detect(client, text, format);
        t.is(out.codeName, 'OK', out.message);
        const p = out.response?.probability ?? Number.NaN;
        t.true(p >= 0 && p <= 1, `${JSON.stringify(text)} (${format || 'empty'}): probability ${p}`);
      }
    }
  });

  check(`translate/detect/native-raw-label/labels-returned${suffix}`, options, async (t, c) => {
    const client = await connect(c, variantName);
    for (const { text } of SAMPLES) {
      const out = await detect(client, text, 'native');
      t.is(out.codeName, 'OK', `${text}: ${out.message}`);
      t.not(out.response?.language ?? '', '', `${text}: no label`);
    }
  });
}

// A label of a variant is asked of that variant's own instance (launch).
const labelsOnVariants = (facts.detectorLabels ?? []).some((l) => l.variant !== undefined);
check('translate/detect/native-raw-label/declared-labels', { needs: ['detector-labels', ...(labelsOnVariants ? ['launch'] : [])] }, async (t, c) => {
  const labels = facts.detectorLabels ?? [];
  t.true(labels.length > 0, 'detectorLabels is empty');
  for (const { text, label, variant: name } of labels) {
    const client = await connect(c, name);
    const out = await detect(client, text, 'native');
    t.is(out.codeName, 'OK', out.message);
    t.is(out.response?.language, label, `${text}${name ? ` (${name})` : ''}`);
  }
});

check('translate/detect/no-score-zero/heuristic-variant-samples', variant, async (t, c) => {
  const client = await connect(c, unscored);
  for (const text of SAMPLE_TEXTS) {
    for (const format of ['', 'bcp47', 'native']) {
      const out = await detect(client, text, format);
      t.is(out.codeName, 'OK', out.message);
      t.is(out.response?.probability, 0, `${JSON.stringify(text)} (${format || 'empty'})`);
    }
  }
});

// ------------------------------------------------------------------ arbitrary text

const anyText = fc.oneof(
  scalarString({ maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.string({ unit: 'binary-ascii', maxLength: 80 }),
  fc.tuple(fc.constantFrom(...SAMPLES.map((s) => s.text)), fc.string({ unit: 'grapheme', maxLength: 20 }), fc.boolean()).map(([s, r, first]) => (first ? s + r : r + s)),
);
const anyRequest = fc.record({ text: anyText, languageFormat: fc.constantFrom('', 'bcp47', 'native') });
const RUNS = { numRuns: 50 };

/** A property over arbitrary text: a text with a letter is answered (for one without, the document does not
 * say), and every answer satisfies `verdict`. */
async function detectProperty(c: CaseContext, variantName: string | undefined, verdict: (out: { language: string; probability: number }, text: string, format: string) => string[]): Promise<void> {
  const client = await connect(c, variantName);
  await c.property(
    anyRequest,
    async ({ text, languageFormat }) => {
      const out = await detect(client, text, languageFormat);
      const refused = hasLetter(text) && out.codeName !== 'OK' ? [`${out.codeName}: ${out.message}`] : [];
      assert.deepEqual([...refused, ...(out.response ? verdict(out.response, text, languageFormat) : [])], []);
    },
    RUNS,
  );
}

check('translate/detect/probability-range/arbitrary-unicode-text', async (_t, c) => {
  await detectProperty(c, undefined, ({ probability: p }) => (p >= 0 && p <= 1 ? [] : [`probability ${p}`]));
});

check('translate/detect/no-score-zero/arbitrary-unicode-text', variant, async (_t, c) => {
  await detectProperty(c, unscored, ({ probability: p }) => (p === 0 ? [] : [`probability ${p}, expected exactly 0`]));
});

check('translate/detect/language-in-format/arbitrary-unicode-text', async (_t, c) => {
  await detectProperty(c, undefined, ({ language }, text, format) =>
    format === 'native' || !hasLetter(text) || wellFormed(language) ? [] : [`${JSON.stringify(language)} is not a BCP-47 tag`],
  );
});

// ------------------------------------------------------------------ the reference's choices (informational)

check('translate/detect/raw-label-form/reference-labels', async (t, c) => {
  const client = await connect(c);
  for (const g of detectGolden()) {
    const out = await detect(client, g.text, 'native');
    t.is(out.response?.language, facts.detector === 'scored' ? g.scored.label : g.unscored.label, g.text);
  }
});

check('translate/detect/raw-label-form/unscored-variant-script-names', variant, async (t, c) => {
  const client = await connect(c, unscored);
  for (const g of detectGolden()) {
    const out = await detect(client, g.text, 'native');
    t.is(out.response?.language, g.unscored.label, g.text);
  }
});

for (const [suffix, onUnscored] of [['', false], ['-unscored-variant', true]] as const) {
  check(`translate/detect/blank-or-undetermined/und-with-zero-probability${suffix}`, onUnscored ? variant : {}, async (t, c) => {
    const client = await connect(c, onUnscored ? unscored : undefined);
    for (const text of NO_LETTERS) {
      for (const format of ['', 'native']) {
        const out = await detect(client, text, format);
        t.is(out.codeName, 'OK', out.message);
        t.is(out.response?.language, 'und', `${JSON.stringify(text)} (${format || 'empty'})`);
        t.is(out.response?.probability, 0, `${JSON.stringify(text)} (${format || 'empty'})`);
      }
    }
  });
}
