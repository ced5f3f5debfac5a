// The service's shape and its messages on the wire: the documented package, service and RPC paths (written
// out literally, not taken from generated code), plaintext calls without credentials, and every message's
// field numbers and wire types, checked by encoding requests and decoding responses by hand.
import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import type { CaseContext } from '../harness/case-context.ts';
import { check } from '../harness/check.ts';
import type { GrpcClient } from '../harness/grpc-client.ts';
import { connect, facts, listedVoices, pairDetected, SPEECH_CALL, SPEECH_CASE_MS, speechOn, speechWav } from './target.ts';

const SERVICE = '/vendor.translate.v1.TranslateService';
const RPCS = ['TranslateText', 'TranslateLocalization', 'DetectLanguage', 'TranscribeAudio', 'SynthesizeSpeech', 'TranslateAudio', 'GetCapabilities'];
const { LengthDelimited: LEN, Varint: VARINT, Bit32: I32 } = WireType;
const pair = facts.pair;
const primary = (tag: string): string => tag.split('-')[0]!.toLowerCase();
/** Speech rather than silence: what a service answers for silence is not stated (translate/transcribe/silence). */
const wav = speechWav;
const SPEECH_RPCS = new Set(['TranscribeAudio', 'TranslateAudio']);

type Value = string | number | Uint8Array;
/** A message as written by hand: [field number, wire type, value] (a float for I32, a number for VARINT). */
function encode(...fields: [number, WireType, Value][]): Uint8Array {
  const w = new BinaryWriter();
  for (const [no, type, v] of fields) {
    if (type === I32) w.tag(no, type).float(v as number);
    else if (type === VARINT) w.tag(no, type).uint64(v as number);
    else w.tag(no, type).bytes(typeof v === 'string' ? new TextEncoder().encode(v) : (v as Uint8Array));
  }
  return w.finish();
}

type Field = { no: number; type: WireType; value: Uint8Array | number };
/** Every field of an encoded message, in wire order. */
function decode(bytes: Uint8Array | undefined): Field[] {
  const r = new BinaryReader(bytes ?? new Uint8Array());
  const out: Field[] = [];
  while (r.pos < r.len) {
    const [no, type] = r.tag();
    out.push({ no, type, value: type === LEN ? r.bytes() : type === VARINT ? Number(r.uint64()) : type === I32 ? r.float() : r.skip(type, no) });
  }
  return out;
}
const text = (f: Field | undefined): string => new TextDecoder().decode(f?.value as Uint8Array);
/** A JSON object read from a response (an empty one when the text is no JSON object: the checks then fail
 * on its keys, not on a thrown error). */
const parsedObject = (json: string): Record<string, unknown> => {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};
const layout = (fields: Field[]): string[] => [...new Set(fields.map((f) => `${f.no}:${WireType[f.type]}`))].sort();
/** The fields on the wire with a documented number but another wire type than the documented
 * `number:WireType` pairs give it. Fields of other numbers are left alone: a message may carry more fields
 * than v1 documents (an additive version), as long as it keeps the documented ones. */
const mistyped = (fields: Field[], documented: string[]): string[] => {
  const numbers = new Set(documented.map((d) => d.split(':')[0]));
  return layout(fields).filter((l) => numbers.has(l.split(':')[0]) && !documented.includes(l));
};
/** The documented field numbers absent from the wire (fields a case needs set). */
const absent = (fields: Field[], ...numbers: number[]): number[] => numbers.filter((no) => !fields.some((f) => f.no === no));

const raw = (client: GrpcClient, rpc: string, body: Uint8Array) => client.callRaw(`${SERVICE}/${rpc}`, body, SPEECH_RPCS.has(rpc) ? SPEECH_CALL : {});
const textRequest = (...extra: [number, WireType, Value][]) => encode([1, LEN, pair.text], [3, LEN, pair.target], [4, LEN, pair.model], ...extra);
/** A valid request of each RPC, written with the documented numbers, and its language_format number. */
const REQUESTS: Record<string, { clause: string; fields: [number, WireType, Value][]; format: number }> = {
  TranslateText: { clause: 'translate-text-request', fields: [[1, LEN, pair.text], [2, LEN, pair.source], [3, LEN, pair.target], [4, LEN, pair.model], [5, LEN, 'a greeting']], format: 6 },
  TranslateLocalization: { clause: 'translate-localization-request', fields: [[1, LEN, '{"a":"b"}'], [2, LEN, pair.source], [3, LEN, pair.target], [4, LEN, pair.model], [6, LEN, '{}']], format: 7 },
  DetectLanguage: { clause: 'detect-language-request', fields: [[1, LEN, pair.text]], format: 2 },
  TranscribeAudio: { clause: 'transcribe-audio-request', fields: [[1, LEN, wav()], [2, LEN, pair.source], [3, LEN, 'wav']], format: 4 },
  SynthesizeSpeech: { clause: 'synthesize-speech-request', fields: [[1, LEN, pair.text], [2, LEN, pair.target], [3, LEN, ''], [4, I32, 1]], format: 5 },
  TranslateAudio: { clause: 'translate-audio-request', fields: [[1, LEN, wav()], [2, LEN, ''], [3, LEN, pair.target], [4, LEN, 'wav'], [5, LEN, '']], format: 6 },
  GetCapabilities: { clause: 'get-capabilities-request', fields: [], format: 0 },
};
/** Whether a valid request was refused: text RPCs must succeed; speech RPCs may lack STT or TTS (whose
 * status belongs to the error clauses), but are not refused as invalid. */
const refused = (rpc: string, code: string): boolean => (/Audio|Speech/.test(rpc) ? ['INVALID_ARGUMENT', 'UNIMPLEMENTED'].includes(code) : code !== 'OK');

// ---------------------------------------------------------------- service
check('translate/service/package-and-name/documented-path-answers', async (t, c) => {
  const out = await (await connect(c)).callRaw('/vendor.translate.v1.TranslateService/GetCapabilities', new Uint8Array());
  t.is(out.codeName, 'OK', out.message);
});

check('translate/service/seven-unary-rpcs/each-path-implemented', async (t, c) => {
  const client = await connect(c);
  const codes = await Promise.all(RPCS.map(async (rpc) => `${rpc}: ${(await raw(client, rpc, new Uint8Array())).codeName}`));
  t.deepEqual(codes.filter((code) => code.endsWith('UNIMPLEMENTED')), []);
});

// Offline inference cannot be proven from outside: that needs the target's outbound network blocked, which
// this suite cannot do. It checks the observable part: detection and translation are answered by a target
// given no cloud credentials or endpoints (run the target on an isolated host for the full check).
check('translate/service/offline-inference/translate-and-detect-answered', async (t, c) => {
  const client = await connect(c);
  const [translated, detected] = await Promise.all([raw(client, 'TranslateText', textRequest([2, LEN, pair.source])), raw(client, 'DetectLanguage', encode([1, LEN, pair.text]))]);
  t.deepEqual([translated.codeName, detected.codeName], ['OK', 'OK'], translated.message || detected.message);
});

check('translate/auth/plaintext-without-credentials/every-rpc-callable', { timeoutMs: SPEECH_CASE_MS }, async (t, c) => {
  t.false((c.target.url ?? '').startsWith('grpcs:'), 'the target is reached over TLS: plaintext cannot be checked');
  const client = await connect(c);
  const codes = await Promise.all(RPCS.map(async (rpc) => [rpc, (await raw(client, rpc, encode(...REQUESTS[rpc]!.fields))).codeName]));
  t.deepEqual(codes.filter(([rpc, code]) => refused(rpc!, code!) || /UNAUTHENTICATED|PERMISSION_DENIED|UNAVAILABLE/.test(code!)), []);
});

check('translate/versioning/package-v1/v1-package-serves', async (t, c) => {
  const out = await (await connect(c)).callRaw('/vendor.translate.v1.TranslateService/TranslateText', textRequest([2, LEN, pair.source]));
  t.is(out.codeName, 'OK', out.message);
});

// ---------------------------------------------------------------- messages
// Each request with a language_format: the valid request is served, and a made-up format at the documented
// number is refused, so that number is read as language_format.
for (const [rpc, { clause, fields, format }] of Object.entries(REQUESTS).filter(([, r]) => r.format > 0)) {
  check(`translate/proto/${clause}/documented-numbers-understood`, { timeoutMs: SPEECH_CASE_MS }, async (t, c) => {
    const client = await connect(c);
    const request = (f: string) => raw(client, rpc, encode(...fields, [format, LEN, f]));
    const [plain, bad] = await Promise.all([request(''), request('no-such-format')]);
    t.false(refused(rpc, plain.codeName), `${plain.codeName}: ${plain.message}`);
    t.is(bad.codeName, 'INVALID_ARGUMENT', `language_format (${format}) = no-such-format`);
  });
}

check('translate/proto/translate-text-request/source-number', async (t, c) => {
  const client = await connect(c);
  await pairDetected(c, client);
  const [auto, explicit] = await Promise.all([raw(client, 'TranslateText', textRequest()), raw(client, 'TranslateText', textRequest([2, LEN, pair.source]))]);
  t.deepEqual([auto.codeName, explicit.codeName], ['OK', 'OK'], auto.message);
  t.true(decode(auto.response).some((f) => f.no === 2), 'source_language (2) omitted: detected_language is set');
});

// A key that is configured but not allowed is refused (with its own status, see the errors clauses) where
// the default model would have served: the target read field 4 as the model.
check('translate/proto/translate-text-request/model-number', { needs: ['model-not-allowed'] }, async (t, c) => {
  const out = await raw(await connect(c), 'TranslateText', encode([1, LEN, pair.text], [2, LEN, pair.source], [3, LEN, pair.target], [4, LEN, facts.notAllowedModel!]));
  t.not(out.codeName, 'OK');
});

check('translate/proto/translate-text-response/documented-numbers-and-types', async (t, c) => {
  const client = await connect(c);
  await pairDetected(c, client);
  const out = await raw(client, 'TranslateText', textRequest([2, LEN, 'auto']));
  const fields = decode(out.response);
  t.is(out.codeName, 'OK', out.message);
  t.deepEqual(mistyped(fields, ['1:LengthDelimited', '2:LengthDelimited', '3:LengthDelimited']), []);
  t.deepEqual(absent(fields, 1, 2), [], 'translated_text (1) and detected_language (2) of an auto-detected translation');
  t.not(text(fields.find((f) => f.no === 1)), pair.text);
  t.is(primary(text(fields.find((f) => f.no === 2))), primary(pair.source));
  // model_used (3), when present (its presence is translate/translate-text/model-used), is the key.
  const model = pair.model || facts.defaultModel;
  if (model !== '') t.true(fields.filter((f) => f.no === 3).every((f) => text(f) === model), 'model_used (3)');
});

check('translate/proto/detect-language-response/documented-numbers-and-types', async (t, c) => {
  const out = await raw(await connect(c), 'DetectLanguage', encode([1, LEN, pair.text]));
  const fields = decode(out.response);
  t.is(out.codeName, 'OK', out.message);
  // A probability of zero (an unscored detector) is left out by proto3; any other is written as a 32-bit float.
  t.deepEqual(mistyped(fields, ['1:LengthDelimited', '2:Bit32']), []);
  t.deepEqual(absent(fields, 1), [], 'language (1)');
  // A language tag at 1 (which language is translate/detect/rpc's).
  t.regex(text(fields.find((f) => f.no === 1)), /^[a-z]{2,3}\b/i, 'language (1)');
});

check('translate/proto/translate-localization-request/existing-translation-number', async (t, c) => {
  const json = JSON.stringify({ greeting: pair.text, farewell: 'Goodbye' });
  const out = await raw(await connect(c), 'TranslateLocalization', encode([1, LEN, json], [2, LEN, pair.source], [3, LEN, pair.target], [4, LEN, pair.model], [5, LEN, '{"farewell":"KEEP"}'], [7, LEN, 'bcp47']));
  t.is(out.codeName, 'OK', out.message);
  // existing_translation (5) supplied the farewell.
  t.is(parsedObject(text(decode(out.response).find((f) => f.no === 1))).farewell, 'KEEP');
});

check('translate/proto/translate-localization-response/documented-numbers-and-types', async (t, c) => {
  const json = JSON.stringify({ greeting: pair.text, farewell: `${pair.text}?`, count: 7 });
  const out = await raw(await connect(c), 'TranslateLocalization', encode([1, LEN, json], [2, LEN, pair.source], [3, LEN, pair.target], [4, LEN, pair.model]));
  const fields = decode(out.response);
  t.is(out.codeName, 'OK', out.message);
  t.deepEqual(mistyped(fields, ['1:LengthDelimited', '2:Varint']), []);
  t.deepEqual(absent(fields, 1, 2), [], 'json (1) and strings_translated (2)');
  t.deepEqual(Object.keys(parsedObject(text(fields.find((f) => f.no === 1)))).sort(), ['count', 'farewell', 'greeting']);
  t.is(fields.find((f) => f.no === 2)?.value, 2);
});

// ---------------------------------------------------------------- messages: speech responses
// Only a target with STT and TTS configured answers these; the speech to recognise is its own synthesis, by
// the voice of the pair's source language (the text's), else the first one listed.
async function synthesize(c: CaseContext, client: GrpcClient) {
  const voices = await listedVoices(c, client);
  const voice = voices.find((v) => primary(v) === primary(pair.source)) ?? voices[0] ?? pair.source;
  const out = await raw(client, 'SynthesizeSpeech', encode([1, LEN, pair.text], [2, LEN, voice], [4, I32, 1]));
  const fields = decode(out.response);
  return { out, voice, fields, audio: (fields.find((f) => f.no === 1)?.value ?? new Uint8Array()) as Uint8Array };
}
/** Speech by the target's own voice, as a step the case needs. */
async function ownSpeech(c: CaseContext, client: GrpcClient) {
  const spoken = await synthesize(c, client);
  if (spoken.out.codeName !== 'OK' || !isWav(spoken.fields.find((f) => f.no === 1))) {
    c.inconclusive(`SynthesizeSpeech (${spoken.voice}), the speech to send: ${spoken.out.codeName} ${spoken.out.message}`);
  }
  return spoken;
}
async function transcribeSpeech(c: CaseContext) {
  const client = await connect(c);
  const out = await raw(client, 'TranscribeAudio', encode([1, LEN, (await ownSpeech(c, client)).audio]));
  return { out, fields: decode(out.response) };
}
const isWav = (f: Field | undefined): boolean => Buffer.from((f?.value as Uint8Array) ?? []).subarray(0, 4).toString('latin1') === 'RIFF';

check('translate/proto/synthesize-speech-response/documented-numbers-and-types', { applicable: speechOn('tts') }, async (t, c) => {
  const { out, fields } = await synthesize(c, await connect(c));
  t.is(out.codeName, 'OK', out.message);
  t.deepEqual(mistyped(fields, ['1:LengthDelimited', '2:Varint']), []);
  t.deepEqual(absent(fields, 2), [], 'sample_rate (2)');
  t.true(isWav(fields.find((f) => f.no === 1)), 'audio_data (1) is a RIFF file');
});

check('translate/proto/transcribe-audio-response/documented-numbers-and-types', { applicable: speechOn('stt', 'tts'), timeoutMs: SPEECH_CASE_MS }, async (t, c) => {
  const { out, fields } = await transcribeSpeech(c);
  t.is(out.codeName, 'OK', out.message);
  t.deepEqual(mistyped(fields, ['1:LengthDelimited', '2:LengthDelimited', '3:LengthDelimited']), []);
  t.not(text(fields.find((f) => f.no === 3)), '', 'full_text (3)');
});

check('translate/proto/transcription-segment/documented-numbers-and-types', { applicable: speechOn('stt', 'tts'), timeoutMs: SPEECH_CASE_MS }, async (t, c) => {
  const { out, fields } = await transcribeSpeech(c);
  const segments = fields.filter((f) => f.no === 1).map((f) => decode(f.value as Uint8Array));
  t.not(segments.length, 0, `${out.codeName} ${out.message}`);
  t.deepEqual(segments.flatMap((s) => mistyped(s, ['1:LengthDelimited', '2:Bit32', '3:Bit32'])), []);
  t.true(segments.every((s) => text(s.find((f) => f.no === 1)) !== ''), 'each segment has its text (1)');
});

check('translate/proto/translate-audio-response/documented-numbers-and-types', { applicable: speechOn('stt', 'tts'), timeoutMs: SPEECH_CASE_MS }, async (t, c) => {
  const client = await connect(c);
  const { audio, voice } = await ownSpeech(c, client);
  const out = await raw(client, 'TranslateAudio', encode([1, LEN, audio], [3, LEN, voice]));
  const fields = decode(out.response);
  t.is(out.codeName, 'OK', out.message);
  t.deepEqual(mistyped(fields, ['1:LengthDelimited', '2:LengthDelimited', '3:LengthDelimited', '4:Varint']), []);
  t.deepEqual(absent(fields, 1, 4), [], 'translated_audio (1) and sample_rate (4)');
  t.true(isWav(fields.find((f) => f.no === 1)), 'translated_audio (1) is a RIFF file');
});

check('translate/proto/get-capabilities-request/empty-message-accepted', async (t, c) => {
  const out = await raw(await connect(c), 'GetCapabilities', new Uint8Array());
  t.is(out.codeName, 'OK', out.message);
});

check('translate/proto/get-capabilities-response/documented-numbers-and-types', async (t, c) => {
  const out = await raw(await connect(c), 'GetCapabilities', new Uint8Array());
  const fields = decode(out.response);
  t.is(out.codeName, 'OK', out.message);
  t.deepEqual(mistyped(fields, ['2:LengthDelimited', '3:LengthDelimited', '4:Varint', '5:Varint']), []);
  t.deepEqual(layout(fields).filter((l) => l.startsWith('1:')), [], 'no field 1');
  const models = fields.filter((f) => f.no === 3).map(text);
  t.true(facts.defaultModel === '' ? models.length > 0 : models.includes(facts.defaultModel), `available_models (3): ${models}`);
  t.true(fields.filter((f) => f.type === VARINT).every((f) => f.value === 0 || f.value === 1), 'bools (4, 5) are 0 or 1');
});

check('translate/versioning/reserved-supported-languages/field-1-unused', async (t, c) => {
  const out = await raw(await connect(c), 'GetCapabilities', new Uint8Array());
  t.is(out.codeName, 'OK', out.message);
  t.deepEqual(decode(out.response).filter((f) => f.no === 1), []);
});

check('translate/proto/proto3-types/unknown-fields-and-explicit-defaults', async (t, c) => {
  const client = await connect(c);
  const plain = await raw(client, 'TranslateText', textRequest([2, LEN, pair.source]));
  if (plain.codeName !== 'OK') c.inconclusive(`the plain request to compare with: ${plain.codeName} ${plain.message}`);
  // Proto3: unknown fields are skipped, and a default value written out equals one left out.
  const padded = await raw(client, 'TranslateText', textRequest([2, LEN, pair.source], [5, LEN, ''], [6, LEN, ''], [99, LEN, 'x'], [100, VARINT, 7]));
  t.is(padded.codeName, 'OK', padded.message);
  t.deepEqual(decode(padded.response), decode(plain.response));
});

// ---------------------------------------------------------------- unspecified (informational)
check('translate/service/unknown-method/unimplemented', async (t, c) => {
  const client = await connect(c);
  const paths = [`${SERVICE}/TranslateTexts`, '/vendor.translate.v1.Other/GetCapabilities', '/vendor.translate.v2.TranslateService/GetCapabilities'];
  const codes = await Promise.all(paths.map(async (p) => (await client.callRaw(p, new Uint8Array())).codeName));
  t.deepEqual(codes, ['UNIMPLEMENTED', 'UNIMPLEMENTED', 'UNIMPLEMENTED']);
  t.is((await raw(client, 'GetCapabilities', new Uint8Array())).codeName, 'OK', 'still serving');
});

check('translate/service/health/serving', async (t, c) => {
  const client = await connect(c);
  const health = (...service: [number, WireType, Value][]) => client.callRaw('/grpc.health.v1.Health/Check', encode(...service));
  const [all, service] = await Promise.all([health(), health([1, LEN, 'vendor.translate.v1.TranslateService'])]);
  t.deepEqual(decode(all.response), [{ no: 1, type: VARINT, value: 1 }], all.message);
  t.deepEqual(decode(service.response), [{ no: 1, type: VARINT, value: 1 }], service.message);
});
