// The documented error table: each condition with its status code, on the RPCs it concerns; and
// (informational) the reference's choices for faults, precedence and messages (the audio size bound is in
// audio-size.test.ts). Model keys and languages come from the target description; cases on a condition the
// target cannot stage declare the capability for it.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TranslateService, type TranslateLocalizationRequest, type TranslateTextRequest } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { check } from '../harness/check.ts';
import type { GrpcClient } from '../harness/grpc-client.ts';
import { capabilities, connect, facts, SPEECH_CALL, speechWav, stagedOn, variantFor } from './target.ts';

/** A request's fields, any of them given. */
type Fields<T> = Partial<Omit<T, '$typeName' | '$unknown'>>;
const pair = facts.pair;
const M = TranslateService.method;
/** A key no configuration defines. */
const UNDEFINED_MODEL = 'no-such-model-5c1e';

function translate(client: GrpcClient, over: Fields<TranslateTextRequest> = {}) {
  return client.call(M.translateText, { text: pair.text, sourceLanguage: pair.source, targetLanguage: pair.target, model: pair.model, ...over });
}

function localize(client: GrpcClient, over: Fields<TranslateLocalizationRequest> = {}) {
  const json = JSON.stringify({ greeting: pair.text, farewell: ['Goodbye'] });
  return client.call(M.translateLocalization, { json, sourceLanguage: pair.source, targetLanguage: pair.target, model: pair.model, ...over });
}

/** The two RPCs that have a model field, as one request each. */
const MODEL_RPCS = [
  ['translate-text', translate],
  ['translate-localization', localize],
] as const;

// ---------------------------------------------------------------- model keys
for (const [name, call] of MODEL_RPCS) {
  check(`translate/errors/unknown-model/${name}-invalid-argument`, async (t, c) => {
    const out = await call(await connect(c), { model: UNDEFINED_MODEL });
    t.is(out.codeName, 'INVALID_ARGUMENT', out.message);
  });

  check(`translate/errors/model-not-allowed/${name}-permission-denied`, { needs: ['model-not-allowed'] }, async (t, c) => {
    const out = await call(await connect(c), { model: facts.notAllowedModel! });
    t.is(out.codeName, 'PERMISSION_DENIED', out.message);
  });

  check(`translate/errors/model-file-missing/${name}-internal`, { needs: ['model-file-missing'] }, async (t, c) => {
    const { model, source, target } = facts.missingFileModel!;
    const out = await call(await connect(c), { model, sourceLanguage: source, targetLanguage: target });
    t.is(out.codeName, 'INTERNAL', out.message);
  });

  check(`translate/errors/redirect-cycle/${name}-failed-precondition`, { needs: ['redirect-loop'] }, async (t, c) => {
    const out = await call(await connect(c), { model: facts.redirectLoopModel! });
    t.is(out.codeName, 'FAILED_PRECONDITION', out.message);
  });
}

// ---------------------------------------------------------------- speech preconditions
check('translate/errors/transcribe-without-stt/failed-precondition', { needs: stagedOn('stt-unconfigured') }, async (t, c) => {
  const client = await connect(c, variantFor('stt-unconfigured'));
  const hints = ['', 'auto', pair.source];
  // A valid WAV of speech: only the missing STT can refuse it (which check runs first is not stated).
  const outcomes = await Promise.all(hints.map((language) => client.call(M.transcribeAudio, { audioData: speechWav(), language, audioFormat: 'wav' })));
  t.deepEqual(
    outcomes.map((o) => o.codeName),
    hints.map(() => 'FAILED_PRECONDITION'),
    outcomes[0]!.message,
  );
});

check('translate/errors/synthesize-without-voice/failed-precondition', { needs: stagedOn('tts-unconfigured') }, async (t, c) => {
  const client = await connect(c, variantFor('tts-unconfigured'));
  const languages = [pair.source, pair.target];
  const outcomes = await Promise.all(languages.map((language) => client.call(M.synthesizeSpeech, { text: pair.text, language, speed: 1 })));
  t.deepEqual(
    outcomes.map((o) => o.codeName),
    languages.map(() => 'FAILED_PRECONDITION'),
    outcomes[0]!.message,
  );
});

check('translate/errors/synthesize-without-voice/language-not-in-voices', async (t, c) => {
  const client = await connect(c);
  const voiced = new Set((await capabilities(c, client)).availableVoices.map((v) => v.split(/[-_]/)[0]!.toLowerCase()));
  const language = ['mt', 'cy', 'eu', 'ga', 'is', 'lb', 'sw', 'yo'].find((l) => !voiced.has(l))!;
  const out = await client.call(M.synthesizeSpeech, { text: 'Bongu', language, speed: 1 });
  t.is(out.codeName, 'FAILED_PRECONDITION', `language ${language}: ${out.message}`);
});

for (const missing of ['stt', 'tts']) {
  check(`translate/errors/translate-audio-without-speech/${missing}-unconfigured`, { needs: stagedOn(`${missing}-unconfigured`) }, async (t, c) => {
    // Speech, not silence: a service that recognises first must not find an empty text to skip the rest on.
    const request = { audioData: speechWav(), sourceLanguage: pair.source, targetLanguage: pair.target, audioFormat: 'wav' };
    const out = await (await connect(c, variantFor(`${missing}-unconfigured`))).call(M.translateAudio, request, SPEECH_CALL);
    t.is(out.codeName, 'FAILED_PRECONDITION', out.message);
  });
}

// ---------------------------------------------------------------- localization-invalid-json
check('translate/errors/localization-invalid-json/examples', async (t, c) => {
  const client = await connect(c);
  const samples = ['{', '{"a": }', "{'a': 'b'}", 'hello', '[1, 2', '{"a": "b",}', '{"a" "b"}', '{"a": "b"} x', '// c\n{}', '01', 'NaN', '"\u0001"'];
  const outcomes = await Promise.all(samples.map(async (json) => `${json}: ${(await localize(client, { json })).codeName}`));
  t.deepEqual(
    outcomes,
    samples.map((json) => `${json}: INVALID_ARGUMENT`),
  );
});

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
/** Non-blank text that is not JSON: arbitrary strings, and JSON documents cut short or with a trailing comma. */
const notJson = fc
  .oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }), fc.json().map((j) => j.slice(0, -1)), fc.json().map((j) => `${j},`))
  .filter((s) => s.trim() !== '' && !parses(s));

check('translate/errors/localization-invalid-json/any-invalid-text', { timeoutMs: 120_000 }, async (_t, c) => {
  const client = await connect(c);
  await c.property(
    notJson,
    async (json) => {
      const out = await localize(client, { json });
      assert.equal(out.codeName, 'INVALID_ARGUMENT', `json ${JSON.stringify(json)}: ${out.message}`);
    },
    { numRuns: 30 },
  );
});

// ---------------------------------------------------------------- unsupported-language
check('translate/errors/unsupported-language/as-source', { needs: ['unsupported-language'] }, async (t, c) => {
  const { model, language } = facts.unsupportedLanguage!;
  const out = await translate(await connect(c), { model, sourceLanguage: language });
  t.is(out.codeName, 'INVALID_ARGUMENT', out.message);
});

check('translate/errors/unsupported-language/as-target', { needs: ['unsupported-language'] }, async (t, c) => {
  const { model, language } = facts.unsupportedLanguage!;
  const out = await translate(await connect(c), { model, targetLanguage: language });
  t.is(out.codeName, 'INVALID_ARGUMENT', out.message);
});

check('translate/errors/unsupported-language/localization-target', { needs: ['unsupported-language'] }, async (t, c) => {
  const { model, language } = facts.unsupportedLanguage!;
  const out = await localize(await connect(c), { model, targetLanguage: language });
  t.is(out.codeName, 'INVALID_ARGUMENT', out.message);
});

// ---------------------------------------------------------------- unsupported-language-format
check('translate/errors/unsupported-language-format/every-rpc', async (t, c) => {
  const client = await connect(c);
  const languageFormat = 'iso639-3';
  const outcomes = await Promise.all([
    translate(client, { languageFormat }),
    localize(client, { languageFormat }),
    client.call(M.detectLanguage, { text: pair.text, languageFormat }),
    client.call(M.transcribeAudio, { audioData: speechWav(), languageFormat }, SPEECH_CALL),
    client.call(M.synthesizeSpeech, { text: pair.text, language: pair.target, speed: 1, languageFormat }),
    client.call(M.translateAudio, { audioData: speechWav(), targetLanguage: pair.target, languageFormat }, SPEECH_CALL),
  ]);
  t.deepEqual(
    outcomes.map((o) => o.codeName),
    outcomes.map(() => 'INVALID_ARGUMENT'),
  );
});

// ---------------------------------------------------------------- unspecified (informational)
check('translate/errors/unexpected-fault/garbage-request-gets-status', async (t, c) => {
  const client = await connect(c);
  const garbage = new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0xff, 0x07]);
  const codes = [];
  for (const method of TranslateService.methods) {
    codes.push(`${method.name}: ${(await client.callRaw(`/${TranslateService.typeName}/${method.name}`, garbage)).codeName}`);
  }
  t.deepEqual(
    codes,
    TranslateService.methods.map((m) => `${m.name}: INTERNAL`),
  );
  const after = await client.call(M.getCapabilities, {});
  t.is(after.codeName, 'OK', 'the server still answers afterwards');
});

check('translate/errors/unknown-before-not-allowed/undefined-key-invalid-argument', { needs: ['model-not-allowed'] }, async (t, c) => {
  const client = await connect(c);
  const [undefinedKey, notAllowed] = await Promise.all([translate(client, { model: UNDEFINED_MODEL }), translate(client, { model: facts.notAllowedModel! })]);
  t.deepEqual([undefinedKey.codeName, notAllowed.codeName], ['INVALID_ARGUMENT', 'PERMISSION_DENIED']);
});

check('translate/errors/messages-and-details/message-names-the-value', async (t, c) => {
  const client = await connect(c);
  const [model, format] = await Promise.all([translate(client, { model: UNDEFINED_MODEL }), translate(client, { languageFormat: 'flores200' })]);
  t.true(model.message.includes(UNDEFINED_MODEL), model.message);
  t.true(format.message.includes('flores200'), format.message);
});
