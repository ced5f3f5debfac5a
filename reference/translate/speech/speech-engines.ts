// The configured speech models: the STT model and the TTS map's voices. Each is loaded by the first call that
// needs it and released after ModelTtlMinutes without use (see model-lifetime.ts).
import { basename } from 'node:path';
import type { ServiceConfig, VoiceConfig } from '../config/normalize-config.ts';
import { ServiceError } from '../core/errors.ts';
import { type LanguageFormat, normalizeCode, parseTag } from '../core/language-codes.ts';
import { EspeakVoice } from './espeak-voice.ts';
import { ModelLifetime } from './model-lifetime.ts';
import { loadPiperVoice } from './piper-voice.ts';
import { PocketSphinxStt } from './pocketsphinx-stt.ts';
import type { Voice } from './voice.ts';

export interface SttHandle {
  /** BCP-47 language the model recognises. */
  language: string;
  /** The engine's own label for it: the model folder's name (`en-us`). */
  nativeLanguage: string;
  model: ModelLifetime<PocketSphinxStt>;
}

export interface VoiceHandle {
  key: string;
  model: ModelLifetime<Voice>;
}

function loadVoice(config: VoiceConfig): Promise<Voice> {
  if (config.engine === 'piper') return loadPiperVoice(config.model, config.config);
  return Promise.resolve(new EspeakVoice(config.voice, config.speakers));
}

export class SpeechEngines {
  readonly #config: ServiceConfig;
  readonly #log: (line: string) => void;
  #stt: ModelLifetime<PocketSphinxStt> | undefined;
  readonly #voices = new Map<string, ModelLifetime<Voice>>();

  constructor(config: ServiceConfig, log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)) {
    this.#config = config;
    this.#log = log;
  }

  get #ttlMs(): number {
    return this.#config.modelTtlMinutes * 60_000;
  }

  /** The STT model, or FAILED_PRECONDITION when none is configured. Nothing is loaded until `model.use`. */
  stt(): SttHandle {
    const config = this.#config.stt;
    if (!config) throw new ServiceError('FAILED_PRECONDITION', 'speech-to-text is not configured (Translation:AudioToText)');
    this.#stt ??= new ModelLifetime({ kind: 'stt', key: config.language, load: () => PocketSphinxStt.load(config.model), ttlMs: this.#ttlMs, log: this.#log });
    return { language: config.language, nativeLanguage: basename(config.model), model: this.#stt };
  }

  /** The voice for `language`: the TTS map key matched case-insensitively, then by primary subtag (for
   * `native`, only exactly). FAILED_PRECONDITION when there is none. Nothing is loaded until `model.use`. */
  voice(language: string, format: LanguageFormat): VoiceHandle {
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
    let model = this.#voices.get(key);
    if (!model) {
      const config = this.#config.voiceConfigs.get(key)!;
      model = new ModelLifetime({ kind: 'tts', key, load: () => loadVoice(config), ttlMs: this.#ttlMs, log: this.#log });
      this.#voices.set(key, model);
    }
    return { key, model };
  }

  /** Releases every loaded model (server shutdown). */
  async close(): Promise<void> {
    await Promise.all([this.#stt, ...this.#voices.values()].map((m) => m?.close()));
  }
}
