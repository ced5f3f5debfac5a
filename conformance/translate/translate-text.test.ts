// TranslateText: the translation itself, source auto-detection and detected_language, the default model and
// model_used, and the optional context. Expectations come from the target description's language pair
// (facts.pair) and from the request. Where two translations of the same request are compared, the model is
// taken to be deterministic for identical input, as machine-translation models are.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TranslateService, type TranslateTextRequest } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { check } from '../harness/check.ts';
import type { GrpcClient } from '../harness/grpc-client.ts';
import { answer, capabilities, connect, defaultModelKey, facts, pairDetected } from './target.ts';

/** A request's fields, any of them given. */
type Fields<T> = Partial<Omit<T, '$typeName' | '$unknown'>>;
type TextRequest = Fields<TranslateTextRequest>;
const pair = facts.pair;
/** The pair in the model's own codes (the BCP-47 codes when the model uses those). */
const native = pair.native ?? { source: pair.source, target: pair.target };
/** A well-formed BCP-47 tag: language, optional script, optional region. */
const BCP47 = /^[a-z]{2,3}(-[a-z]{4})?(-([a-z]{2}|\d{3}))?$/i;
const primary = (tag: string): string => tag.split('-')[0]!.toLowerCase();
/** The model a request of the pair resolves to (its model, or the default one when it names none). */
const resolvedModel = (): string => (pair.model === '' ? defaultModelKey() : pair.model);

function translate(client: GrpcClient, over: TextRequest = {}) {
  const request: TextRequest = { text: pair.text, sourceLanguage: pair.source, targetLanguage: pair.target, model: pair.model, ...over };
  return client.call(TranslateService.method.translateText, request);
}

// ---------------------------------------------------------------- rpc
check('translate/translate-text/rpc/translates-pair', async (t, c) => {
  const out = await translate(await connect(c));
  t.is(out.codeName, 'OK', out.message);
  t.truthy(out.response!.translatedText, 'translated_text is empty');
  t.not(out.response!.translatedText, pair.text, 'translated_text is the input unchanged');
});

// ---------------------------------------------------------------- auto-detect-source
for (const source of ['', 'auto']) {
  const name = source === '' ? 'empty-source' : 'auto-source';
  check(`translate/translate-text/auto-detect-source/${name}-detects-language`, async (t, c) => {
    const client = await connect(c);
    await pairDetected(c, client);
    const out = await translate(client, { sourceLanguage: source });
    t.is(out.codeName, 'OK', out.message);
    t.is(primary(out.response!.detectedLanguage), primary(pair.source), `detected_language: ${out.response!.detectedLanguage}`);
    t.not(out.response!.translatedText, pair.text, 'translated_text is the input unchanged');
  });
}

check('translate/translate-text/auto-detect-source/same-translation-as-explicit', async (t, c) => {
  const client = await connect(c);
  await pairDetected(c, client);
  const [auto, explicit] = await Promise.all([translate(client, { sourceLanguage: 'auto' }), answer(c, 'TranslateText with the explicit source', translate(client))]);
  if (!t.is(auto.codeName, 'OK', auto.message)) return;
  t.is(auto.response!.translatedText, explicit.translatedText);
});

// ---------------------------------------------------------------- detected-language-only-on-auto
check('translate/translate-text/detected-language-only-on-auto/explicit-source-leaves-it-empty', async (t, c) => {
  const out = await translate(await connect(c));
  t.is(out.codeName, 'OK', out.message);
  t.is(out.response!.detectedLanguage, '');
});

check('translate/translate-text/detected-language-only-on-auto/explicit-native-source-leaves-it-empty', async (t, c) => {
  const out = await translate(await connect(c), { sourceLanguage: native.source, targetLanguage: native.target, languageFormat: 'native' });
  t.is(out.codeName, 'OK', out.message);
  t.is(out.response!.detectedLanguage, '');
});

check('translate/translate-text/detected-language-only-on-auto/auto-source-fills-it', async (t, c) => {
  const client = await connect(c);
  await pairDetected(c, client);
  const outcomes = await Promise.all(['', 'auto'].map((s) => translate(client, { sourceLanguage: s })));
  t.deepEqual(
    outcomes.map((o) => o.codeName),
    ['OK', 'OK'],
  );
  t.true(outcomes.every((o) => o.response!.detectedLanguage !== ''), 'detected_language empty for an auto source');
});

// ---------------------------------------------------------------- detected-language-format
for (const format of ['', 'bcp47']) {
  const name = format === '' ? 'empty-format' : 'bcp47-format';
  check(`translate/translate-text/detected-language-format/${name}-gives-bcp47-tag`, async (t, c) => {
    const client = await connect(c);
    await pairDetected(c, client);
    const out = await translate(client, { sourceLanguage: 'auto', languageFormat: format });
    t.is(out.codeName, 'OK', out.message);
    t.regex(out.response!.detectedLanguage, BCP47);
    t.is(primary(out.response!.detectedLanguage), primary(pair.source));
  });
}

check('translate/translate-text/detected-language-format/native-format-gives-native-code', async (t, c) => {
  const client = await connect(c);
  await pairDetected(c, client);
  const out = await translate(client, { sourceLanguage: 'auto', targetLanguage: native.target, languageFormat: 'native' });
  const detected = client.call(TranslateService.method.detectLanguage, { text: pair.text, languageFormat: 'native' });
  const { language: label } = await answer(c, "DetectLanguage with native (the detector's own label)", detected);
  t.is(out.codeName, 'OK', out.message);
  // Whose vocabulary is left open (translate/language-format/native-output-source): the model's code for
  // the source language, or the detector's own label.
  const accepted = [native.source, label];
  t.true(accepted.includes(out.response!.detectedLanguage), `detected_language ${out.response!.detectedLanguage}, expected one of ${accepted}`);
});

// ---------------------------------------------------------------- default-model
check('translate/translate-text/default-model/empty-model-translates', async (t, c) => {
  const out = await translate(await connect(c), { model: '' });
  t.is(out.codeName, 'OK', out.message);
  t.not(out.response!.translatedText, pair.text);
});

check('translate/translate-text/default-model/same-as-naming-default', async (t, c) => {
  const model = defaultModelKey();
  const client = await connect(c);
  const [implicit, named] = await Promise.all([translate(client, { model: '' }), answer(c, `TranslateText naming the default model ${model}`, translate(client, { model }))]);
  if (!t.is(implicit.codeName, 'OK', implicit.message)) return;
  t.is(implicit.response!.translatedText, named.translatedText);
});

// ---------------------------------------------------------------- model-used
check('translate/translate-text/model-used/names-requested-key', async (t, c) => {
  const model = resolvedModel();
  const out = await translate(await connect(c), { model });
  t.is(out.codeName, 'OK', out.message);
  t.is(out.response!.modelUsed, model);
});

check('translate/translate-text/model-used/names-default-key-when-empty', async (t, c) => {
  const model = defaultModelKey();
  const out = await translate(await connect(c), { model: '' });
  t.is(out.codeName, 'OK', out.message);
  t.is(out.response!.modelUsed, model);
});

check('translate/translate-text/model-used/listed-in-capabilities', async (t, c) => {
  const client = await connect(c);
  const out = await translate(client);
  const models = (await capabilities(c, client)).availableModels;
  t.is(out.codeName, 'OK', out.message);
  t.true(models.includes(out.response?.modelUsed ?? ''), `model_used ${out.response?.modelUsed} not among ${models}`);
});

// ---------------------------------------------------------------- context-optional
check('translate/translate-text/context-optional/omitted-context-succeeds', async (t, c) => {
  const out = await translate(await connect(c));
  t.is(out.codeName, 'OK', out.message);
});

check('translate/translate-text/context-optional/given-context-succeeds', async (t, c) => {
  const out = await translate(await connect(c), { context: 'A greeting at the start of a friendly letter.' });
  t.is(out.codeName, 'OK', out.message);
  t.truthy(out.response!.translatedText);
});

check('translate/translate-text/context-optional/any-context-never-fails', { timeoutMs: 120_000 }, async (_t, c) => {
  const client = await connect(c);
  await c.property(
    fc.string({ unit: 'grapheme', maxLength: 200 }),
    async (context) => {
      const out = await translate(client, { context });
      assert.equal(out.codeName, 'OK', `context ${JSON.stringify(context)}: ${out.message}`);
    },
    { numRuns: 30 },
  );
});

// ---------------------------------------------------------------- unspecified (informational)
check('translate/translate-text/context-non-llm/context-ignored', async (t, c) => {
  const client = await connect(c);
  const [plain, hinted] = await Promise.all([translate(client), translate(client, { context: 'formal register, legal text' })]);
  t.deepEqual([plain.codeName, hinted.codeName], ['OK', 'OK'], hinted.message);
  t.is(hinted.response!.translatedText, plain.response!.translatedText);
});

check('translate/translate-text/blank-text/returned-unchanged', async (t, c) => {
  const model = resolvedModel();
  const client = await connect(c);
  for (const text of ['', '   \n\t']) {
    const out = await translate(client, { text });
    t.is(out.codeName, 'OK', out.message);
    t.is(out.response!.translatedText, text);
    t.is(out.response!.modelUsed, model);
  }
});

check('translate/translate-text/blank-text/auto-source-gives-und', async (t, c) => {
  const out = await translate(await connect(c), { text: '  ', sourceLanguage: 'auto' });
  t.is(out.codeName, 'OK', out.message);
  t.is(out.response!.detectedLanguage, 'und');
});

check('translate/translate-text/same-language/text-unchanged', async (t, c) => {
  const model = resolvedModel();
  const out = await translate(await connect(c), { targetLanguage: pair.source });
  t.is(out.codeName, 'OK', out.message);
  t.is(out.response!.translatedText, pair.text);
  t.is(out.response!.modelUsed, model);
});

check('translate/translate-text/empty-target/invalid-argument', async (t, c) => {
  const client = await connect(c);
  for (const target of ['', 'auto']) {
    const out = await translate(client, { targetLanguage: target });
    t.is(out.codeName, 'INVALID_ARGUMENT', `target_language ${JSON.stringify(target)}`);
    t.regex(out.message, /target_language/);
  }
});
