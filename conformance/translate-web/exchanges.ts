// What the cases send each route and what the stub answers each RPC. A request carries a marker of the case's
// own (in its text, its JSON or its audio bytes), so a stub shared by a test file can tell the calls apart
// and answer a marked one differently (late, never, with a status). Each canned response has a signature: a
// value that can only reach the HTTP body from that response.
import { create, type DescMessage, type JsonValue, toBinary, toJson } from '@bufbuild/protobuf';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { type StubAnswer, type StubHandler, later, type RecordedCall } from '../harness/grpc-stub.ts';
import type { Route, Rpc } from './target.ts';

const M = TranslateService.method;

/** The JSON body of a route's request carrying `marker` (the protobuf JSON mapping); none for GET. */
export function requestBody(r: Route, marker: string): Record<string, unknown> | undefined {
  const audio = Buffer.from(`RIFF ${marker}`).toString('base64');
  switch (r.name) {
    case 'capabilities':
      return undefined;
    case 'translate':
      return { text: marker, targetLanguage: 'es' };
    case 'detect':
      return { text: marker };
    case 'localize':
      return { json: JSON.stringify({ greeting: marker }), sourceLanguage: 'en', targetLanguage: 'es' };
    case 'transcribe':
      return { audioData: audio, language: 'en' };
    case 'translate-audio':
      return { audioData: audio, sourceLanguage: 'en', targetLanguage: 'es' };
    case 'synthesize':
      return { text: marker, language: 'en' };
    default:
      throw new Error(`no request body for route ${r.name}`);
  }
}

const TEXT = 'Antwort vom Stub';
const WAV = new Uint8Array(Buffer.from('RIFF stub audio'));

interface Canned {
  init: Record<string, unknown>;
  /** A value of this response that the HTTP body must show (in whatever JSON shape). */
  signature: string;
}

const CANNED = new Map<string, Canned>([
  [M.getCapabilities.name, { init: { availableVoices: ['stub-voice'], availableModels: ['stub-model'], sttAvailable: true }, signature: 'stub-voice' }],
  [M.translateText.name, { init: { translatedText: `${TEXT} (text)`, detectedLanguage: 'de', modelUsed: 'stub-model' }, signature: `${TEXT} (text)` }],
  [M.detectLanguage.name, { init: { language: 'x-stub-detected', probability: 0.125 }, signature: 'x-stub-detected' }],
  [M.translateLocalization.name, { init: { json: '{"greeting":"Antwort (localize)"}', stringsTranslated: 7 }, signature: 'Antwort (localize)' }],
  [
    M.transcribeAudio.name,
    { init: { segments: [{ text: `${TEXT} (heard)`, startTime: 0.5, endTime: 1.25 }], detectedLanguage: 'de', fullText: `${TEXT} (heard)` }, signature: `${TEXT} (heard)` },
  ],
  [M.translateAudio.name, { init: { translatedAudio: WAV, transcription: 'gehört', translatedText: `${TEXT} (speech)`, sampleRate: 12345 }, signature: `${TEXT} (speech)` }],
  [M.synthesizeSpeech.name, { init: { audioData: WAV, sampleRate: 23456 }, signature: '23456' }],
]);

function canned(rpc: { name: string }): Canned {
  const found = CANNED.get(rpc.name);
  if (!found) throw new Error(`no canned response for ${rpc.name}`);
  return found;
}

/** What only the canned response of `rpc` puts into an HTTP body. */
export const signatureOf = (rpc: Rpc): string => canned(rpc).signature;

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
