// The speech faults of the faulty translation front (faulty-translate.ts): refusals it answers itself,
// request fields it drops before relaying, answers it rewrites (WAV headers, times, texts) and the lines
// of the reference's log it hides or invents.
import type { Client } from '@grpc/grpc-js';
import { status } from '@grpc/grpc-js';
import { TranslateService } from '../../../proto/gen/vendor/translate/v1/translate_pb.ts';
import type { TranslateFault } from './faulty-translate-faults.ts';
import { callReference, type Fields } from './faulty-translate-wire.ts';

type IsOn = (fault: TranslateFault) => boolean;

/** audio_data from this size on is refused by `audio-limit-below-50-mb`. */
const REFUSED_AUDIO_BYTES = 50_000_000;
/** A model of the reference target's configuration other than its default (pseudo). */
const OTHER_MODEL = 'apertium';
/** The model lines `models-loaded-eagerly` prints at start-up, in the reference's own form. */
const EAGER_LOADS = ['model loaded: tts en', 'model loaded: stt en'];

export const SPEECH_REQUEST_FAULTS: TranslateFault[] = ['speed-ignored', 'speaker-ignored'];
export const SPEECH_RESPONSE_FAULTS: TranslateFault[] = [
  'wav-sizes-wrong',
  'sample-rate-mismatch',
  'full-text-no-spaces',
  'segment-times-ms',
  'detected-language-raw',
  'translate-audio-other-model',
];

const isAuto = (code: string): boolean => code.trim() === '' || code.trim().toLowerCase() === 'auto';
const isBcp47Format = (format: unknown): boolean => typeof format === 'string' && ['', 'bcp47'].includes(format.trim().toLowerCase());

/** The channel count in a WAV's `fmt ` chunk; undefined when the bytes are no WAV (the reference answers). */
function wavChannels(audio: Uint8Array): number | undefined {
  const b = Buffer.from(audio.buffer, audio.byteOffset, audio.byteLength);
  if (b.length < 12 || b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WAVE') return undefined;
  for (let at = 12; at + 8 <= b.length; ) {
    const size = b.readUInt32LE(at + 4);
    if (b.toString('latin1', at, at + 4) === 'fmt ') return at + 12 <= b.length ? b.readUInt16LE(at + 10) : undefined;
    at += 8 + size + (size % 2);
  }
  return undefined;
}

/** The WAV with a RIFF size 8 bytes too large (the whole file's length instead of length - 8). */
function oversizedRiff(audio: Uint8Array): Uint8Array {
  const b = Buffer.from(audio);
  if (b.length >= 8) b.writeUInt32LE(b.readUInt32LE(4) + 8, 4);
  return b;
}

/** A BCP-47 tag as a POSIX locale (`en` → `en_US`), which no BCP-47 parser reads as a language. */
function posixLocale(tag: string): string {
  const [language = '', region] = tag.split('-');
  return `${language.toLowerCase()}_${(region ?? (language.toLowerCase() === 'en' ? 'US' : language)).toUpperCase()}`;
}

/** TranslateAudio's translation redone with OTHER_MODEL, and spoken again so that audio and text agree. */
async function translateWithOtherModel(client: Client, request: Fields, response: Fields): Promise<void> {
  const transcription = response.transcription as string;
  if (transcription.trim() === '') return;
  const text = await callReference(client, TranslateService.method.translateText, {
    text: transcription,
    sourceLanguage: request.sourceLanguage,
    targetLanguage: request.targetLanguage,
    languageFormat: request.languageFormat,
    model: OTHER_MODEL,
  });
  if (!text) return;
  const speech = await callReference(client, TranslateService.method.synthesizeSpeech, {
    text: text.translatedText,
    language: request.targetLanguage,
    voice: request.targetVoice,
    speed: 1,
    languageFormat: request.languageFormat,
  });
  if (!speech) return;
  response.translatedText = text.translatedText;
  response.translatedAudio = speech.audioData;
  response.sampleRate = speech.sampleRate;
}

export function speechFaults(on: IsOn) {
  return {
    /** The status the front answers itself instead of relaying, if any. */
    refusal(method: string, request: Fields): { code: status; details: string } | undefined {
      const audio = method === 'TranscribeAudio' || method === 'TranslateAudio' ? (request.audioData as Uint8Array) : undefined;
      if (on('audio-limit-below-50-mb') && audio && audio.length >= REFUSED_AUDIO_BYTES) {
        return { code: status.INVALID_ARGUMENT, details: `audio_data must be less than ${REFUSED_AUDIO_BYTES} bytes` };
      }
      if (on('stereo-refused') && audio && (wavChannels(audio) ?? 1) > 1) {
        return { code: status.INVALID_ARGUMENT, details: 'audio_data must be a mono WAV file' };
      }
      if (on('source-auto-refused') && method === 'TranslateAudio' && isAuto(request.sourceLanguage as string)) {
        return { code: status.INVALID_ARGUMENT, details: 'source_language is required' };
      }
      return undefined;
    },

    /** Alters a copy of the request before it is relayed. */
    alterRequest(method: string, request: Fields): void {
      if (method === 'SynthesizeSpeech') {
        if (on('speed-ignored')) request.speed = 1;
        if (on('speaker-ignored')) request.voice = '';
      }
      if (method === 'TranslateAudio' && on('speaker-ignored')) request.targetVoice = '';
    },

    /** Alters the decoded answer of a speech RPC (`request` as the caller sent it). */
    async alterResponse(client: Client, method: string, request: Fields, response: Fields): Promise<void> {
      switch (method) {
        case 'TranscribeAudio': {
          const segments = response.segments as { text: string; startTime: number; endTime: number }[];
          if (on('full-text-no-spaces')) response.fullText = segments.map((s) => s.text).join('');
          if (on('segment-times-ms')) {
            for (const s of segments) [s.startTime, s.endTime] = [s.startTime * 1000, s.endTime * 1000];
          }
          if (on('detected-language-raw') && isBcp47Format(request.languageFormat) && response.detectedLanguage !== '') {
            response.detectedLanguage = posixLocale(response.detectedLanguage as string);
          }
          return;
        }
        case 'SynthesizeSpeech':
          if (on('wav-sizes-wrong')) response.audioData = oversizedRiff(response.audioData as Uint8Array);
          if (on('sample-rate-mismatch')) response.sampleRate = (response.sampleRate as number) * 2;
          return;
        case 'TranslateAudio':
          if (on('translate-audio-other-model')) await translateWithOtherModel(client, request, response);
          if (on('wav-sizes-wrong')) response.translatedAudio = oversizedRiff(response.translatedAudio as Uint8Array);
          if (on('sample-rate-mismatch')) response.sampleRate = (response.sampleRate as number) * 2;
          return;
      }
    },

    /** Lines to print on standard error at start-up, before the reference logs anything. */
    startupLog(): string[] {
      return on('models-loaded-eagerly') ? EAGER_LOADS : [];
    },

    /** Whether a line of the reference's standard error is passed on. */
    relaysLogLine(line: string): boolean {
      return !(on('models-never-unloaded') && line.startsWith('model unloaded: '));
    },
  };
}
