// TranscribeAudio, SynthesizeSpeech and TranslateAudio. This version has no speech engine: after the
// request checks that come first (language_format, audio size, empty language), each refuses with
// FAILED_PRECONDITION, as the document requires when STT or TTS is not configured.
import type {
  SynthesizeSpeechRequest,
  TranscribeAudioRequest,
  TranslateAudioRequest,
} from '../../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { invalidArgument, ServiceError } from '../core/errors.ts';
import { parseLanguageFormat } from '../core/language-codes.ts';
import type { ServiceDeps } from './service-deps.ts';

/** 50 MB, the documented bound of audio_data. */
export const MAX_AUDIO_BYTES = 50 * 1024 * 1024;

function checkAudioSize(audio: Uint8Array): void {
  if (audio.length > MAX_AUDIO_BYTES) {
    throw new ServiceError('RESOURCE_EXHAUSTED', `audio_data is ${audio.length} bytes; the limit is ${MAX_AUDIO_BYTES} bytes (50 MB)`);
  }
}

function sttMissing(): ServiceError {
  return new ServiceError('FAILED_PRECONDITION', 'speech-to-text is not configured (Translation:AudioToText)');
}

function voiceMissing(language: string): ServiceError {
  return new ServiceError('FAILED_PRECONDITION', `no text-to-speech voice is configured for "${language}" (Translation:TextToAudio)`);
}

export async function transcribeAudio({ config }: ServiceDeps, request: TranscribeAudioRequest): Promise<never> {
  parseLanguageFormat(request.languageFormat);
  checkAudioSize(request.audioData);
  if (!config.sttConfigured) throw sttMissing();
  throw new ServiceError('UNIMPLEMENTED', 'speech-to-text engines are not available in this version');
}

export async function synthesizeSpeech(_deps: ServiceDeps, request: SynthesizeSpeechRequest): Promise<never> {
  parseLanguageFormat(request.languageFormat);
  if (request.language.trim() === '') throw invalidArgument('language is required');
  throw voiceMissing(request.language);
}

export async function translateAudio({ config }: ServiceDeps, request: TranslateAudioRequest): Promise<never> {
  parseLanguageFormat(request.languageFormat);
  checkAudioSize(request.audioData);
  if (!config.sttConfigured) throw sttMissing();
  throw voiceMissing(request.targetLanguage);
}
