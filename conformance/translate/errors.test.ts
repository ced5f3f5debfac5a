// The documented error table: each condition with its status code, on the RPCs it concerns; the audio size
// bound; and (informational) the reference's choices for faults, precedence and messages. Model keys and
// languages come from the target description; cases on a condition the target cannot stage declare the
// capability for it.
import assert from 'node:assert/strict';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import fc from 'fast-check';
import { TranslateService, type TranslateLocalizationRequest, type TranslateTextRequest } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import type { CaseContext } from '../harness/case-context.ts';
import { check } from '../harness/check.ts';
import type { GrpcClient } from '../harness/grpc-client.ts';
import { capabilities, connect, facts, SPEECH_CALL, speechWav, variantFor } from './target.ts';

/** A request's fields, any of them given. */
type Fields<T> = Partial<Omit<T, '$typeName' | '$unknown'>>;
const pair = facts.pair;
const M = TranslateService.method;
/** A key no configuration defines. */
const UNDEFINED_MODEL = 'no-such-model-5c1e';
/** 50 MB, the documented bound of audio_data, in both readings: the decimal one every server accepts, and
 * the binary one the reference takes (translate/limits/audio-size-over). */
const LIMIT = 50_000_000;
const LIMIT_MIB = 50 * 1024 * 1024;

/** Fills `b` with a WAV file (header included) of 8-bit A-law silence: a WAV encoding the service need not
 * decode, so a target refuses it without recognising 27 minutes of silence. */
function alawWavInto(b: Buffer): void {
  const size = b.length;
  b.write('RIFF\0\0\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0\0\0\0\0\0\0\0\0\x02\0\x10\0data', 'latin1');
  for (const [at, value] of [[4, size - 8], [24, 16_000], [28, 32_000], [40, size - 44]] as const) b.writeUInt32LE(value, at);
  b.writeUInt16LE(6, 20); // WAVE_FORMAT_ALAW
  b.writeUInt32LE(16_000, 28);
  b.writeUInt16LE(1, 32);
  b.writeUInt16LE(8, 34);
}

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
check('translate/errors/transcribe-without-stt/failed-precondition', { needs: ['stt-unconfigured'] }, async (t, c) => {
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

check('translate/errors/synthesize-without-voice/failed-precondition', { needs: ['tts-unconfigured'] }, async (t, c) => {
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
  check(`translate/errors/translate-audio-without-speech/${missing}-unconfigured`, { needs: [`${missing}-unconfigured`] }, async (t, c) => {
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

// ---------------------------------------------------------------- limits
// The 50 MB requests are encoded by hand and sent raw from a thread of their own: the generated client's JSON
// reproducer of 50 MB of bytes, and the framing's copy, would block this file's other cases for seconds.
for (const rpc of ['TranscribeAudio', 'TranslateAudio'] as const) {
  const name = rpc === 'TranscribeAudio' ? 'transcribe' : 'translate-audio';
  async function send(c: CaseContext, size: number) {
    const client = await connect(c);
    // audio_data (1); TranscribeAudio: audio_format (3); TranslateAudio: target_language (3), audio_format (4).
    // audio_data's tag and length, the WAV written in place, then the other fields: one 50 MB buffer, not the
    // four copies an encoder makes (seconds of a loaded worker's time).
    const head = new BinaryWriter().tag(1, WireType.LengthDelimited).uint32(size).finish();
    const rest = new BinaryWriter();
    if (rpc === 'TranslateAudio') rest.tag(3, WireType.LengthDelimited).string(pair.target);
    const tail = rest.tag(rpc === 'TranscribeAudio' ? 3 : 4, WireType.LengthDelimited).string('wav').finish();
    const body = Buffer.alloc(head.length + size + tail.length);
    body.set(head, 0);
    alawWavInto(body.subarray(head.length, head.length + size));
    body.set(tail, head.length + size);
    c.note(`# ${rpc} with an A-law WAV of ${size} bytes in audio_data`);
    return client.callLarge(`/${TranslateService.typeName}/${rpc}`, body, { timeoutMs: 150_000 });
  }

  check(`translate/limits/audio-size/${name}-exactly-50-mb-not-refused-for-size`, { timeoutMs: 180_000 }, async (t, c) => {
    const out = await send(c, LIMIT);
    t.not(out.codeName, 'RESOURCE_EXHAUSTED', out.message);
  });

  check(`translate/limits/audio-size-over/${name}-50-mib-not-refused-for-size`, { timeoutMs: 180_000 }, async (t, c) => {
    const out = await send(c, LIMIT_MIB);
    t.not(out.codeName, 'RESOURCE_EXHAUSTED', out.message);
  });

  check(`translate/limits/audio-size-over/${name}-one-byte-over-resource-exhausted`, { timeoutMs: 180_000 }, async (t, c) => {
    const out = await send(c, LIMIT_MIB + 1);
    t.is(out.codeName, 'RESOURCE_EXHAUSTED', out.message);
  });
}

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
