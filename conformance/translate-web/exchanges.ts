// What the cases send each route and what the stub answers each RPC. A request carries a marker of the case's
// own (in its text, its JSON or its audio bytes), so a stub shared by a test file can tell the calls apart
// and answer a marked one differently (late, never, with a status). Each canned response has signatures:
// values that can only reach the HTTP answer from that response, in whatever form the gateway chose (any JSON
// shape, plain text, the audio itself or in base64/hex, a header).
import { create, type DescMessage, type JsonValue, toBinary, toJson } from '@bufbuild/protobuf';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { type StubAnswer, type StubHandler, later, type RecordedCall } from '../harness/grpc-stub.ts';
import type { HttpResponse } from '../harness/http-client.ts';
import type { RpcFields } from './body-mapping.ts';
import type { Route, Rpc } from './target.ts';

const M = TranslateService.method;

/** The RPC fields of a route's request carrying `marker`: only what the RPC needs to mean the request. */
export function requestFields(r: Route, marker: string): RpcFields {
  const audio = new Uint8Array(Buffer.from(`RIFF ${marker}`));
  switch (r.name) {
    case 'capabilities':
      return {};
    case 'translate':
      return { text: marker, targetLanguage: 'es' };
    case 'detect':
      return { text: marker };
    case 'localize':
      return { json: JSON.stringify({ greeting: marker }), sourceLanguage: 'en', targetLanguage: 'es' };
    case 'transcribe':
      return { audioData: audio };
    case 'translate-audio':
      return { audioData: audio, targetLanguage: 'es' };
    case 'synthesize':
      return { text: marker, language: 'en' };
    default:
      throw new Error(`no request for route ${r.name}`);
  }
}

const TEXT = 'Antwort vom Stub';
const SYNTHESIZED = new Uint8Array(Buffer.from('RIFF synthesized by the stub'));
const TRANSLATED_SPEECH = new Uint8Array(Buffer.from('RIFF the stub translated speech'));

/** Audio in the forms a gateway may give it: the bytes themselves, base64 (padded or not), base64url, hex. */
const audioForms = (bytes: Uint8Array): Buffer[] => {
  const b = Buffer.from(bytes);
  return [b, b.toString('base64').replace(/=+$/, ''), b.toString('base64url'), b.toString('hex')].map((x) => Buffer.from(x));
};

interface Canned {
  init: Record<string, unknown>;
  /** Values of this response, any one of which the HTTP answer must show. */
  signatures: Buffer[];
}

const text = (...values: string[]): Buffer[] => values.map((v) => Buffer.from(v));

const CANNED = new Map<string, Canned>([
  [
    M.getCapabilities.name,
    { init: { availableVoices: ['x-stub-voice'], availableModels: ['x-stub-capabilities-model'], sttAvailable: true }, signatures: text('x-stub-voice', 'x-stub-capabilities-model') },
  ],
  [M.translateText.name, { init: { translatedText: `${TEXT} (text)`, detectedLanguage: 'de', modelUsed: 'x-stub-model' }, signatures: text(`${TEXT} (text)`) }],
  [M.detectLanguage.name, { init: { language: 'x-stub-detected', probability: 0.125 }, signatures: text('x-stub-detected') }],
  [M.translateLocalization.name, { init: { json: '{"greeting":"Antwort (localize)"}', stringsTranslated: 7 }, signatures: text('Antwort (localize)') }],
  [
    M.transcribeAudio.name,
    { init: { segments: [{ text: `${TEXT} (heard)`, startTime: 0.5, endTime: 1.25 }], detectedLanguage: 'de', fullText: `${TEXT} (heard)` }, signatures: text(`${TEXT} (heard)`) },
  ],
  [
    M.translateAudio.name,
    {
      init: { translatedAudio: TRANSLATED_SPEECH, transcription: 'gehört', translatedText: `${TEXT} (speech)`, sampleRate: 12345 },
      signatures: [...text(`${TEXT} (speech)`), ...audioForms(TRANSLATED_SPEECH)],
    },
  ],
  [M.synthesizeSpeech.name, { init: { audioData: SYNTHESIZED, sampleRate: 23456 }, signatures: [...text('23456'), ...audioForms(SYNTHESIZED)] }],
]);

function canned(rpc: { name: string }): Canned {
  const found = CANNED.get(rpc.name);
  if (!found) throw new Error(`no canned response for ${rpc.name}`);
  return found;
}

/** The first signature of `rpc`'s canned response, as text (for messages, and for pages showing it). */
export const signatureOf = (rpc: Rpc): string => canned(rpc).signatures[0]!.toString('utf8');

/** Every string and number a JSON value holds (what a JSON body shows, escapes decoded). */
function leaves(value: unknown): string[] {
  if (typeof value === 'string' || typeof value === 'number') return [String(value)];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, v]) => [key, ...leaves(v)]);
}

/** Headers whose values say nothing of the response (a date or a length may hold a signature's digits). */
const GENERIC_HEADERS = new Set(['date', 'content-length', 'etag', 'last-modified', 'expires', 'age', 'keep-alive', 'connection']);

/** Whether the HTTP answer shows `rpc`'s canned response: a signature in its body (raw, or among the values
 * of a JSON body) or in a header of its own. */
export function shows(res: HttpResponse, rpc: Rpc): boolean {
  const headers = Object.entries(res.headers).filter(([name]) => !GENERIC_HEADERS.has(name));
  const places = [res.body, Buffer.from(headers.flatMap(([, value]) => value ?? []).join('\n'))];
  try {
    places.push(Buffer.from(leaves(JSON.parse(res.text)).join('\n')));
  } catch {
    // Not JSON: the raw body is what it shows.
  }
  return canned(rpc).signatures.some((signature) => places.some((place) => place.includes(signature)));
}

/** The canned response of `rpc` in the protobuf JSON mapping, every field included. */
export function cannedJson(rpc: Rpc): JsonValue {
  const schema: DescMessage = rpc.output;
  return toJson(schema, create(schema, canned(rpc).init as never), { alwaysEmitImplicit: true });
}

/** The wire bytes of each canned response by gRPC path, encoded once. */
const ANSWERS = new Map(
  TranslateService.methods.map((m) => {
    const schema: DescMessage = m.output;
    return [`/${TranslateService.typeName}/${m.name}`, toBinary(schema, create(schema, canned(m).init as never))];
  }),
);

/** The canned response of the RPC a recorded call is for (an empty message for an unknown path). */
export function cannedAnswer(call: RecordedCall): StubAnswer {
  return { response: ANSWERS.get(call.path) ?? new Uint8Array(0) };
}

/** Whether a recorded call carries `marker` (in any field: text, JSON or audio bytes). */
export const carries = (call: RecordedCall, marker: string): boolean => Buffer.from(call.message).includes(marker);

/** Markers the stubs of `markedHandler` react to, when a request carries them. */
export const HANG = 'hang-until-cancelled';
export const SLOW = 'answer-after-a-while';
export const SLOW_MS = 2_500;

/** Canned answers; a call marked HANG is never answered, one marked SLOW is answered SLOW_MS later. */
export const markedHandler: StubHandler = (call) => {
  if (carries(call, HANG)) return 'hang';
  if (carries(call, SLOW)) return later(SLOW_MS, cannedAnswer(call));
  return cannedAnswer(call);
};
