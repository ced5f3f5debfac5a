// TranscribeAudio, SynthesizeSpeech and TranslateAudio. Checks come first, in the catalog's order
// (language_format, audio size, STT/TTS preconditions, request fields, WAV content).
import { create } from '@bufbuild/protobuf';
import {
  type SynthesizeSpeechRequest,
  type TranscribeAudioRequest,
  type TranslateAudioRequest,
  TranslateTextRequestSchema,
} from '../../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { resample, STT_SAMPLE_RATE } from '../audio/resample.ts';
import { decodeWav, encodeWav16, mixToMono } from '../audio/wav.ts';
import type { CallContext } from '../core/call-context.ts';
import { invalidArgument } from '../core/errors.ts';
import { isAuto, type LanguageFormat, normalizeCode, parseLanguageFormat } from '../core/language-codes.ts';
import type { SttHandle } from '../speech/speech-engines.ts';
import type { Voice } from '../speech/voice.ts';
import { checkAudioFormat, checkAudioSize, chooseSpeaker, effectiveSpeed } from './speech-checks.ts';
import type { ServiceDeps } from './service-deps.ts';
import { translateText } from './translate-text.ts';

/** The input as 16 kHz mono samples (INVALID_ARGUMENT for a bad WAV). */
async function toSttInput(audio: Uint8Array): Promise<Float32Array> {
  const decoded = decodeWav(audio);
  return resample(mixToMono(decoded), decoded.sampleRate, STT_SAMPLE_RATE);
}

async function recognise(stt: SttHandle, audio: Uint8Array) {
  const samples = await toSttInput(audio);
  return stt.model.use((engine) => engine.transcribe(samples));
}

/** A WAV of `text` spoken by `voice` (a valid WAV of zero samples for blank text). */
async function speak(voice: Voice, text: string, speed: number, speaker: string | undefined) {
  const samples = text.trim() === '' ? new Float32Array(0) : await voice.synthesize(text, { speed, speaker });
  return { audio: encodeWav16(samples, voice.sampleRate), sampleRate: voice.sampleRate };
}

function detectedLanguage(hint: string, stt: SttHandle, format: LanguageFormat): string {
  if (!isAuto(hint)) return format === 'native' ? hint : normalizeCode(hint);
  return format === 'native' ? stt.nativeLanguage : stt.language;
}

export async function transcribeAudio(deps: ServiceDeps, request: TranscribeAudioRequest) {
  const format = parseLanguageFormat(request.languageFormat);
  checkAudioSize(request.audioData);
  const stt = deps.speech.stt();
  checkAudioFormat(request.audioFormat);
  const segments = await recognise(stt, request.audioData);
  return {
    segments: segments.map((s) => ({ text: s.text, startTime: s.start, endTime: s.end })),
    fullText: segments.map((s) => s.text).join(' '),
    detectedLanguage: detectedLanguage(request.language, stt, format),
  };
}

export async function synthesizeSpeech(deps: ServiceDeps, request: SynthesizeSpeechRequest) {
  const format = parseLanguageFormat(request.languageFormat);
  if (request.language.trim() === '') throw invalidArgument('language is required');
  const found = deps.speech.voice(request.language, format);
  const speed = effectiveSpeed(request.speed);
  const { audio, sampleRate } = await found.model.use((voice) => speak(voice, request.text, speed, chooseSpeaker(request.voice, voice.speakers)));
  return { audioData: audio, sampleRate };
}

export async function translateAudio(deps: ServiceDeps, request: TranslateAudioRequest, call: CallContext) {
  const format = parseLanguageFormat(request.languageFormat);
  checkAudioSize(request.audioData);
  const stt = deps.speech.stt();
  const found = deps.speech.voice(request.targetLanguage, format);
  checkAudioFormat(request.audioFormat);
  const samples = await toSttInput(request.audioData);
  // The voice stays in use for the whole pipeline: its speakers are checked before recognition starts.
  return found.model.use(async (voice) => {
    const speaker = chooseSpeaker(request.targetVoice, voice.speakers);
    const segments = await stt.model.use((engine) => engine.transcribe(samples));
    const transcription = segments.map((s) => s.text).join(' ');
    let translatedText = '';
    if (transcription.trim() !== '') {
      const textRequest = create(TranslateTextRequestSchema, {
        text: transcription,
        sourceLanguage: request.sourceLanguage,
        targetLanguage: request.targetLanguage,
        languageFormat: request.languageFormat,
      });
      translatedText = (await translateText(deps, textRequest, call)).translatedText;
    }
    const { audio, sampleRate } = await speak(voice, translatedText, 1, speaker);
    return { translatedAudio: audio, transcription, translatedText, sampleRate };
  });
}
