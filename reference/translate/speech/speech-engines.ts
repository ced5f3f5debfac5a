// The configured speech engines: the STT model and the TTS map's voices, built on first use.
import type { ServiceConfig, VoiceConfig } from '../config/normalize-config.ts';
import { ServiceError } from '../core/errors.ts';
import { type LanguageFormat, normalizeCode, parseTag } from '../core/language-codes.ts';
import { EspeakVoice } from './espeak-voice.ts';
import { PocketSphinxStt } from './pocketsphinx-stt.ts';

export interface FoundVoice {
  key: string;
  config: VoiceConfig;
  voice: EspeakVoice;
}

export class SpeechEngines {
  readonly #config: ServiceConfig;
  #stt: PocketSphinxStt | undefined;
  readonly #voices = new Map<string, EspeakVoice>();

  constructor(config: ServiceConfig) {
    this.#config = config;
  }

  /** The STT engine, or FAILED_PRECONDITION when none is configured. */
  stt(): { engine: PocketSphinxStt; language: string } {
    const config = this.#config.stt;
    if (!config) throw new ServiceError('FAILED_PRECONDITION', 'speech-to-text is not configured (Translation:AudioToText)');
    this.#stt ??= new PocketSphinxStt(config.model);
    return { engine: this.#stt, language: config.language };
  }

  /** The voice for `language`: the TTS map key matched case-insensitively, then by primary subtag (for
   * `native`, only exactly). FAILED_PRECONDITION when there is none. */
  voice(language: string, format: LanguageFormat): FoundVoice {
    const keys = this.#config.voices;
    let key: string | undefined;
    if (format === 'native') key = keys.find((k) => k === language);
    else {
      const wanted = normalizeCode(language).toLowerCase();
      const primary = parseTag(language)?.language;
      key = keys.find((k) => normalizeCode(k).toLowerCase() === wanted) ?? keys.find((k) => normalizeCode(k).toLowerCase() === primary);
    }
    if (key === undefined) {
      throw new ServiceError('FAILED_PRECONDITION', `no text-to-speech voice is configured for "${language}" (Translation:TextToAudio)`);
    }
    const config = this.#config.voiceConfigs.get(key)!;
    let voice = this.#voices.get(key);
    if (!voice) {
      voice = new EspeakVoice(config.voice);
      this.#voices.set(key, voice);
    }
    return { key, config, voice };
  }
}
