// language_format on the six RPCs that carry language codes: the accepted values ('', bcp47, native), the
// refusal of flores200 and of any other value, BCP-47 as the pivot, the adapter's conversion and
// pass-through, and region collapsing. Codes come from the description's pair (facts.pair and its native
// form). Where two translations are compared, the model is taken to be deterministic for identical input.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TranslateService, type TranslateTextRequest, type TranslateTextResponse } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { check } from '../harness/check.ts';
import { NotApplicable } from '../harness/inconclusive.ts';
import type { GrpcClient, GrpcOutcome } from '../harness/grpc-client.ts';
import { answer, connect, facts, pairDetected, SPEECH_CALL, SPEECH_CASE_MS, speechWav, stagedOn, variantFor } from './target.ts';

/** A request's fields, any of them given. */
type Fields<T> = Partial<Omit<T, '$typeName' | '$unknown'>>;
const pair = facts.pair;
const native = pair.native ?? { source: pair.source, target: pair.target };
const M = TranslateService.method;
const BCP47 = /^[a-z]{2,3}(-[a-z]{4})?(-([a-z]{2}|\d{3}))?$/i;
const primary = (tag: string): string => tag.split('-')[0]!.toLowerCase();
const likely = (tag: string) => new Intl.Locale(tag).maximize();
/** What the codes decide in a TranslateText answer (detected_language has its own clauses). */
const result = (out: Pick<GrpcOutcome<TranslateTextResponse>, 'codeName' | 'response'>) => ({ code: out.codeName, text: out.response?.translatedText, model: out.response?.modelUsed });

/** Speech rather than silence: what a service answers for silence is not stated (translate/transcribe/silence). */
const wav = speechWav;

function translate(client: GrpcClient, over: Fields<TranslateTextRequest> = {}) {
  return client.call(M.translateText, { text: pair.text, sourceLanguage: pair.source, targetLanguage: pair.target, model: pair.model, ...over });
}
const codesFor = (format: string) => (format.toLowerCase() === 'native' ? native : pair);
const localizationJson = JSON.stringify({ greeting: pair.text });

interface Rpc {
  name: string;
  /** A request that is valid apart from its language_format (codes in the format's vocabulary). */
  call(client: GrpcClient, format: string): Promise<GrpcOutcome<unknown>>;
  /** An accepted format gives OK (text RPCs), or only not INVALID_ARGUMENT (speech: STT/TTS may be absent). */
  mustSucceed: boolean;
}

const RPCS: Rpc[] = [
  { name: 'translate-text', mustSucceed: true, call: (cl, f) => translate(cl, { sourceLanguage: codesFor(f).source, targetLanguage: codesFor(f).target, languageFormat: f }) },
  { name: 'detect-language', mustSucceed: true, call: (cl, f) => cl.call(M.detectLanguage, { text: pair.text, languageFormat: f }) },
  {
    name: 'translate-localization',
    mustSucceed: true,
    call: (cl, f) => cl.call(M.translateLocalization, { json: localizationJson, sourceLanguage: codesFor(f).source, targetLanguage: codesFor(f).target, model: pair.model, languageFormat: f }),
  },
  { name: 'transcribe-audio', mustSucceed: false, call: (cl, f) => cl.call(M.transcribeAudio, { audioData: wav(), language: '', audioFormat: 'wav', languageFormat: f }, SPEECH_CALL) },
  { name: 'synthesize-speech', mustSucceed: false, call: (cl, f) => cl.call(M.synthesizeSpeech, { text: pair.text, language: pair.target, speed: 1, languageFormat: f }) },
  {
    name: 'translate-audio',
    mustSucceed: false,
    call: (cl, f) => cl.call(M.translateAudio, { audioData: wav(), sourceLanguage: '', targetLanguage: codesFor(f).target, audioFormat: 'wav', languageFormat: f }, SPEECH_CALL),
  },
];

// ---------------------------------------------------------------- field-on-every-rpc
for (const rpc of RPCS) {
  check(`translate/language-format/field-on-every-rpc/${rpc.name}-accepts-documented-values`, { timeoutMs: rpc.mustSucceed ? undefined : SPEECH_CASE_MS }, async (t, c) => {
    const client = await connect(c);
    const outcomes = await Promise.all(['', 'bcp47', 'native'].map(async (f) => ({ f, out: await rpc.call(client, f) })));
    const refused = outcomes.filter(({ out }) => (rpc.mustSucceed ? out.codeName !== 'OK' : out.codeName === 'INVALID_ARGUMENT'));
    t.deepEqual(refused.map(({ f, out }) => `${JSON.stringify(f)}: ${out.codeName} ${out.message}`), []);
  });
}

// ---------------------------------------------------------------- empty-means-bcp47
check('translate/language-format/empty-means-bcp47/translate-text-same-as-bcp47', async (t, c) => {
  const client = await connect(c);
  await pairDetected(c, client);
  const [empty, bcp47] = await Promise.all(['', 'bcp47'].map((f) => translate(client, { sourceLanguage: 'auto', languageFormat: f })));
  t.is(empty!.codeName, 'OK', empty!.message);
  t.deepEqual(empty!.response, bcp47!.response);
});

check('translate/language-format/empty-means-bcp47/detect-language-same-as-bcp47', async (t, c) => {
  const client = await connect(c);
  const [empty, bcp47] = await Promise.all(['', 'bcp47'].map((f) => client.call(M.detectLanguage, { text: pair.text, languageFormat: f })));
  t.is(empty!.codeName, 'OK', empty!.message);
  t.is(empty!.response?.language, bcp47!.response?.language);
  t.regex(empty!.response?.language ?? '', BCP47);
});

// ---------------------------------------------------------------- bcp47-value
check('translate/language-format/bcp47-value/primary-subtags-translate', async (t, c) => {
  const out = await translate(await connect(c), { languageFormat: 'bcp47' });
  t.is(out.codeName, 'OK', out.message);
  t.not(out.response!.translatedText, pair.text);
});

check('translate/language-format/bcp47-value/script-subtags-accepted', async (t, c) => {
  const [source, target] = [pair.source, pair.target].map((tag) => `${primary(tag)}-${likely(tag).script}`);
  const out = await translate(await connect(c), { sourceLanguage: source, targetLanguage: target, languageFormat: 'bcp47' });
  t.is(out.codeName, 'OK', `${source} -> ${target}: ${out.message}`);
});

check('translate/language-format/bcp47-value/detected-language-is-tag', async (t, c) => {
  const out = await (await connect(c)).call(M.detectLanguage, { text: pair.text, languageFormat: 'bcp47' });
  t.is(out.codeName, 'OK', out.message);
  // A tag; which language it names is translate/detect/rpc's.
  t.regex(out.response!.language, BCP47);
});

// ---------------------------------------------------------------- native-value
check('translate/language-format/native-value/native-codes-translate', async (t, c) => {
  const out = await translate(await connect(c), { sourceLanguage: native.source, targetLanguage: native.target, languageFormat: 'native' });
  t.is(out.codeName, 'OK', out.message);
  t.not(out.response!.translatedText, pair.text);
});

check('translate/language-format/native-value/localization-native-codes', async (t, c) => {
  const out = await RPCS[2]!.call(await connect(c), 'native');
  t.is(out.codeName, 'OK', out.message);
});

// ---------------------------------------------------------------- flores200-rejected
for (const rpc of RPCS) {
  check(`translate/language-format/flores200-rejected/${rpc.name}`, async (t, c) => {
    const out = await rpc.call(await connect(c), 'flores200');
    t.is(out.codeName, 'INVALID_ARGUMENT', out.message);
  });
}

// ---------------------------------------------------------------- bcp47-pivot
check('translate/language-format/bcp47-pivot/detected-source-reaches-model', async (t, c) => {
  const client = await connect(c);
  await pairDetected(c, client);
  const [auto, explicit] = await Promise.all([translate(client, { sourceLanguage: 'auto' }), answer(c, 'TranslateText with the explicit source', translate(client))]);
  if (!t.is(auto.codeName, 'OK', auto.message)) return;
  t.is(auto.response!.translatedText, explicit.translatedText);
});

check('translate/language-format/bcp47-pivot/unscored-detector-label-converted', { needs: stagedOn('unscored-detector') }, async (t, c) => {
  // The second detector's raw label need not be a language code (a script name, for example): the model
  // still gets a BCP-47 tag, and so does the caller. Staged only where that detector takes the pair's text
  // for the pair's source (a script alone does not tell Latin-script languages apart).
  const client = await connect(c, variantFor('unscored-detector'));
  const detected = await answer(c, 'DetectLanguage of the pair text by the unscored detector', client.call(M.detectLanguage, { text: pair.text }));
  if (primary(detected.language) !== primary(pair.source)) {
    throw new NotApplicable(`the unscored detector takes ${JSON.stringify(pair.text)} for "${detected.language}", not ${pair.source}`);
  }
  const out = await translate(client, { sourceLanguage: 'auto' });
  t.is(out.codeName, 'OK', out.message);
  t.regex(out.response!.detectedLanguage, BCP47);
});

// ---------------------------------------------------------------- adapter-converts
check('translate/language-format/adapter-converts/bcp47-same-as-native-codes', async (t, c) => {
  const client = await connect(c);
  const [bcp47, nat] = await Promise.all([RPCS[0]!.call(client, 'bcp47'), RPCS[0]!.call(client, 'native')]);
  t.is(bcp47.codeName, 'OK', bcp47.message);
  t.deepEqual(result(bcp47 as GrpcOutcome<TranslateTextResponse>), result(nat as GrpcOutcome<TranslateTextResponse>));
});

check('translate/language-format/adapter-converts/localization-bcp47-codes', async (t, c) => {
  const client = await connect(c);
  const [bcp47, nat] = await Promise.all([RPCS[2]!.call(client, ''), RPCS[2]!.call(client, 'native')]);
  t.is(bcp47.codeName, 'OK', bcp47.message);
  t.deepEqual(bcp47.response, nat.response);
});

// ---------------------------------------------------------------- unrecognised-passthrough
check('translate/language-format/unrecognised-passthrough/native-codes-under-bcp47', async (t, c) => {
  const client = await connect(c);
  const viaBcp47 = await translate(client, { sourceLanguage: native.source, targetLanguage: native.target, languageFormat: 'bcp47' });
  const viaNative = await answer(c, 'TranslateText of the native codes under native', RPCS[0]!.call(client, 'native') as Promise<GrpcOutcome<TranslateTextResponse>>);
  t.is(viaBcp47.codeName, 'OK', viaBcp47.message);
  t.deepEqual(result(viaBcp47), result({ codeName: 'OK', response: viaNative }));
});

// ---------------------------------------------------------------- region-collapse
check('translate/language-format/region-collapse/likely-region-same-as-bare', async (t, c) => {
  const client = await connect(c);
  const [source, target] = [pair.source, pair.target].map((tag) => `${tag}-${likely(tag).region}`);
  const [regional, bare] = await Promise.all([translate(client, { sourceLanguage: source, targetLanguage: target }), answer(c, 'TranslateText of the bare tags', translate(client))]);
  t.is(regional.codeName, 'OK', `${source} -> ${target}: ${regional.message}`);
  t.deepEqual(result(regional), result({ codeName: 'OK', response: bare }));
});

const region = fc.oneof(fc.constantFrom('US', 'GB', 'BR', 'MX', 'ES', 'CA', 'IN', '419', '001', '150'), fc.stringMatching(/^[A-Z]{2}$/), fc.stringMatching(/^\d{3}$/));
const regions = fc.record({ source: fc.option(region), target: fc.option(region) }).filter((r) => r.source !== null || r.target !== null);

check('translate/language-format/region-collapse/any-region-same-as-bare', { timeoutMs: 120_000 }, async (_t, c) => {
  const client = await connect(c);
  const bare = { codeName: 'OK', response: await answer(c, 'TranslateText of the bare tags', translate(client)) };
  await c.property(
    regions,
    async (r) => {
      const source = r.source === null ? pair.source : `${pair.source}-${r.source}`;
      const target = r.target === null ? pair.target : `${pair.target}-${r.target}`;
      const out = await translate(client, { sourceLanguage: source, targetLanguage: target });
      assert.equal(out.codeName, 'OK', `${source} -> ${target}: ${out.message}`);
      assert.deepEqual(result(out), result(bare), `${source} -> ${target}`);
    },
    { numRuns: 30 },
  );
});

check('translate/language-format/region-collapse/localization-region-same-as-bare', async (t, c) => {
  const client = await connect(c);
  const regional = (tag: string) => `${tag}-${likely(tag).region}`;
  const request = { json: localizationJson, sourceLanguage: regional(pair.source), targetLanguage: regional(pair.target), model: pair.model };
  const [withRegion, bare] = await Promise.all([client.call(M.translateLocalization, request), answer(c, 'TranslateLocalization of the bare tags', RPCS[2]!.call(client, ''))]);
  t.is(withRegion.codeName, 'OK', withRegion.message);
  t.deepEqual(withRegion.response, bare);
});

// ---------------------------------------------------------------- any other value (errors clause, rule 1)
const otherFormat = fc
  .oneof(fc.constantFrom('flores200', 'FLORES200', 'iso639-3', 'iso639-1', 'bcp-47', 'bcp_47', 'nativ', 'natives', 'auto', 'json'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 16 }))
  .filter((f) => !['', 'bcp47', 'native'].includes(f.trim().toLowerCase())); // case and spaces: value-case

check('translate/errors/unsupported-language-format/any-other-value-on-any-rpc', { timeoutMs: 120_000 }, async (_t, c) => {
  const client = await connect(c);
  await c.property(
    fc.tuple(otherFormat, fc.constantFrom(...RPCS)),
    async ([format, rpc]) => {
      const out = await rpc.call(client, format);
      assert.equal(out.codeName, 'INVALID_ARGUMENT', `${rpc.name} with language_format ${JSON.stringify(format)}: ${out.message}`);
    },
    { numRuns: 40 },
  );
});

// ---------------------------------------------------------------- unspecified (informational)
check('translate/language-format/value-case/case-insensitive-untrimmed', async (t, c) => {
  const client = await connect(c);
  const codes = await Promise.all(['BCP47', 'Native', ' bcp47'].map(async (f) => (await RPCS[0]!.call(client, f)).codeName));
  t.deepEqual(codes, ['OK', 'OK', 'INVALID_ARGUMENT']);
});

check('translate/language-format/script-subtag/same-as-bare', async (t, c) => {
  const client = await connect(c);
  const source = `${pair.source}-${likely(pair.source).script}`;
  const [scripted, bare] = await Promise.all([translate(client, { sourceLanguage: source }), translate(client)]);
  t.deepEqual(result(scripted), result(bare), `${source}: ${scripted.message}`);
});

check('translate/language-format/tag-case/any-case-accepted', async (t, c) => {
  const client = await connect(c);
  const [upper, bare] = await Promise.all([translate(client, { sourceLanguage: pair.source.toUpperCase(), targetLanguage: `${pair.target}-us` }), translate(client)]);
  t.deepEqual(result(upper), result(bare), upper.message);
});

check('translate/language-format/bcp47-output-form/primary-subtag-and-und', async (t, c) => {
  const client = await connect(c);
  const [text, digits] = await Promise.all([pair.text, '12345 !!!'].map((s) => client.call(M.detectLanguage, { text: s })));
  t.is(text!.response?.language, primary(pair.source));
  t.is(digits!.response?.language, 'und');
});

check('translate/language-format/native-output-source/translate-text-model-vocabulary', async (t, c) => {
  const out = await translate(await connect(c), { sourceLanguage: '', targetLanguage: native.target, languageFormat: 'native' });
  t.is(out.response?.detectedLanguage, native.source, out.message);
});
