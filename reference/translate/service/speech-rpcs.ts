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
import type { FoundVoice } from '../speech/speech-engines.ts';
import { checkAudioFormat, checkAudioSize, chooseSpeaker, effectiveSpeed } from './speech-checks.ts';
import type { ServiceDeps } from './service-deps.ts';
import { translateText } from './translate-text.ts';

async function recognise(deps: ServiceDeps, audio: Uint8Array) {
  const { engine, language } = deps.speech.stt();
  const decoded = decodeWav(audio);
  const samples = await resample(mixToMono(decoded), decoded.sampleRate, STT_SAMPLE_RATE);
  const segments = await engine.transcribe(samples);
  return { segments, language, nativeLanguage: engine.nativeLanguage };
}

async function speak(found: FoundVoice, text: string, speed: number, speaker: string | undefined) {
  const samples = text.trim() === '' ? new Float32Array(0) : await found.voice.synthesize(text, { speed, speaker });
  return { audio: encodeWav16(samples, found.voice.sampleRate), sampleRate: found.voice.sampleRate };
}

function detectedLanguage(hint: string, stt: { language: string; nativeLanguage: string }, format: LanguageFormat): string {
  if (!isAuto(hint)) return format === 'native' ? hint : normalizeCode(hint);
  return format === 'native' ? stt.nativeLanguage : stt.language;
}

export async function transcribeAudio(deps: ServiceDeps, request: TranscribeAudioRequest) {
  const format = parseLanguageFormat(request.languageFormat);
  checkAudioSize(request.audioData);
  deps.speech.stt();
  checkAudioFormat(request.audioFormat);
  const result = await recognise(deps, request.audioData);
  return {
    segments: result.segments.map((s) => ({ text: s.text, startTime: s.start, endTime: s.end })),
    fullText: result.segments.map((s) => s.text).join(' '),
    detectedLanguage: detectedLanguage(request.language, result, format),
  };
}

export async function synthesizeSpeech(deps: ServiceDeps, request: SynthesizeSpeechRequest) {
  const format = parseLanguageFormat(request.languageFormat);
  if (request.language.trim() === '') throw invalidArgument('language is required');
  const found = deps.speech.voice(request.language, format);
  const speed = effectiveSpeed(request.speed);
  const speaker = chooseSpeaker(request.voice, found.config.speakers);
  const { audio, sampleRate } = await speak(found, request.text, speed, speaker);
  return { audioData: audio, sampleRate };
}

export async function translateAudio(deps: ServiceDeps, request: TranslateAudioRequest, call: CallContext) {
  const format = parseLanguageFormat(request.languageFormat);
  checkAudioSize(request.audioData);
  deps.speech.stt();
  const found = deps.speech.voice(request.targetLanguage, format);
  checkAudioFormat(request.audioFormat);
  const speaker = chooseSpeaker(request.targetVoice, found.config.speakers);
  const heard = await recognise(deps, request.audioData);
  const transcription = heard.segments.map((s) => s.text).join(' ');
  let translatedText = '';
  if (transcription.trim() !== '') {
    const translated = await translateText(
      deps,
      create(TranslateTextRequestSchema, {
        text: transcription,
        sourceLanguage: request.sourceLanguage,
        targetLanguage: request.targetLanguage,
        languageFormat: request.languageFormat,
      }),
      call,
    );
    translatedText = translated.translatedText;
  }
  const { audio, sampleRate } = await speak(found, translatedText, 1, speaker);
  return { translatedAudio: audio, transcription, translatedText, sampleRate };
}
