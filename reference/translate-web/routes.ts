// The gateway's seven routes: method, path, the RPC behind each and where its deadline comes from
// (document 000, "Web gateway"). The router, the OpenAPI document and the tests all read this table.
import type { DescMethodUnary } from '@bufbuild/protobuf';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';

export const TIMEOUT_VARIABLES = ['TRANSLATE_TIMEOUT_MS', 'LOCALIZE_TIMEOUT_MS', 'TRANSCRIBE_TIMEOUT_MS'] as const;
export type TimeoutVariable = (typeof TIMEOUT_VARIABLES)[number];

export const FIXED_DEADLINE_MS = 30_000;

export interface Route {
  method: 'GET' | 'POST';
  path: string;
  rpc: DescMethodUnary;
  /** A fixed deadline in ms, or the variable holding it (no deadline when unset). */
  deadline: number | TimeoutVariable;
  summary: string;
}

const m = TranslateService.method;

export const ROUTES: readonly Route[] = [
  { method: 'GET', path: '/api/capabilities', rpc: m.getCapabilities, deadline: FIXED_DEADLINE_MS, summary: 'Voices, models and whether STT and TTS are available' },
  { method: 'POST', path: '/api/translate', rpc: m.translateText, deadline: 'TRANSLATE_TIMEOUT_MS', summary: 'Translate text' },
  { method: 'POST', path: '/api/detect', rpc: m.detectLanguage, deadline: FIXED_DEADLINE_MS, summary: 'Detect the language of text' },
  { method: 'POST', path: '/api/localize', rpc: m.translateLocalization, deadline: 'LOCALIZE_TIMEOUT_MS', summary: 'Translate every string of a JSON localization file' },
  { method: 'POST', path: '/api/transcribe', rpc: m.transcribeAudio, deadline: 'TRANSCRIBE_TIMEOUT_MS', summary: 'Transcribe a WAV file' },
  { method: 'POST', path: '/api/translate-audio', rpc: m.translateAudio, deadline: 'TRANSCRIBE_TIMEOUT_MS', summary: 'Speech to translated speech' },
  { method: 'POST', path: '/api/synthesize', rpc: m.synthesizeSpeech, deadline: FIXED_DEADLINE_MS, summary: 'Text to speech (WAV)' },
];

export const OPENAPI_PATH = '/api/openapi.json';
