// Validates the raw configuration once, at start-up, into the shape the service uses. Every error names
// the key path, the value and what was expected.
import { resolve } from 'node:path';
import { DEFAULT_MODES_DIR } from '../models/apertium-model.ts';
import { DEFAULT_POCKETSPHINX_MODEL } from '../speech/pocketsphinx-stt.ts';
import { ConfigError } from './config-error.ts';
import type { RawConfig } from './load-config.ts';

export const DEFAULT_TTL_MINUTES = 10;
export const ADAPTERS = ['pseudo', 'apertium', 'redirect', 'onnx-seq2seq'] as const;

export type DetectorConfig = { type: 'heuristic' } | { type: 'fasttext'; path: string | undefined };

export type ModelConfig =
  | { adapter: 'pseudo' }
  | { adapter: 'apertium'; modes: string; pairs: string[] | undefined }
  | { adapter: 'redirect'; address: string; model: string }
  | OnnxSeq2SeqConfig;

/** An encoder–decoder model exported to ONNX (NLLB, M2M100, Marian layout): a folder holding
 * `config.json`, `tokenizer.json`, `tokenizer_config.json`, `onnx/encoder_model.onnx` and
 * `onnx/decoder_model.onnx`. */
export interface OnnxSeq2SeqConfig {
  adapter: 'onnx-seq2seq';
  /** The model folder (absolute, or relative to the configuration file). */
  path: string;
  /** BCP-47 pairs the model serves (`en-es`). */
  pairs: string[];
  /** BCP-47 code → the model's language token (`eng_Latn`, `__en__`) for multilingual models: the source
   * text is prefixed with the source token and decoding is forced to start with the target token. Absent
   * for a single-pair model (Marian). The tokens are the model's native codes. */
  languageTokens: Record<string, string> | undefined;
}

export interface SttConfig {
  engine: 'pocketsphinx';
  /** The model folder (acoustic model, language model, dictionary). */
  model: string;
  /** BCP-47 language the model recognises. */
  language: string;
}

export type VoiceConfig =
  | {
      engine: 'espeak-ng';
      /** The engine's voice name (default: the map key). */
      voice: string;
      /** Speaker names of a multi-speaker voice (espeak-ng variants such as `f3`, `m1`). */
      speakers: string[];
    }
  | {
      engine: 'piper';
      /** The voice's ONNX graph (absolute, or relative to the configuration file). */
      model: string;
      /** Its JSON description (default: `<model>.json`, Piper's convention). */
      config: string;
    };

export interface ServiceConfig {
  autoDetect: DetectorConfig;
  /** Model definitions in configuration order. */
  models: Map<string, ModelConfig>;
  defaultModel: string;
  allowedModels: string[];
  sttConfigured: boolean;
  /** TTS map keys in configuration order. */
  voices: string[];
  stt: SttConfig | undefined;
  voiceConfigs: Map<string, VoiceConfig>;
  modelTtlMinutes: number;
}

type Json = unknown;

const show = (value: Json): string => JSON.stringify(value) ?? String(value);

function isObject(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function object(value: Json, key: string): Record<string, Json> {
  if (!isObject(value)) throw new ConfigError(key, `expected an object, got ${show(value)}`);
  return value;
}

function optionalString(value: Json, key: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new ConfigError(key, `expected a non-empty string, got ${show(value)}`);
  return value;
}

function stringList(value: Json, key: string): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v === '')) {
    throw new ConfigError(key, `expected an array of non-empty strings, got ${show(value)}`);
  }
  return [...new Set(value as string[])];
}

function detector(value: Json, key: string): DetectorConfig {
  if (value === undefined || value === 'heuristic') return { type: 'heuristic' };
  if (value === 'fasttext') return { type: 'fasttext', path: undefined };
  const section = object(value, key);
  if (section.type === 'heuristic') return { type: 'heuristic' };
  if (section.type === 'fasttext') return { type: 'fasttext', path: optionalString(section.path, `${key}:path`) };
  throw new ConfigError(`${key}:type`, `unknown detector ${show(section.type)} (expected "heuristic" or "fasttext")`);
}

/** A path from the configuration: relative ones are taken from the configuration file's folder. */
function configPath(value: Json, key: string, baseDir: string): string {
  const path = optionalString(value, key);
  if (path === undefined || path === '') throw new ConfigError(key, `expected a path, got ${show(value)}`);
  return resolve(baseDir, path);
}

function onnxSeq2Seq(section: Record<string, Json>, key: string, baseDir: string): OnnxSeq2SeqConfig {
  const pairs = stringList(section.pairs, `${key}:pairs`);
  // Primary language subtags only: `en-es`.
  const bad = pairs.find((p) => !/^[a-z]{2,3}-[a-z]{2,3}$/.test(p));
  if (bad !== undefined || pairs.length === 0) throw new ConfigError(`${key}:pairs`, `expected BCP-47 pairs like "en-es", got ${show(section.pairs)}`);
  let languageTokens: Record<string, string> | undefined;
  if (section.languageTokens !== undefined) {
    languageTokens = {};
    for (const [code, token] of Object.entries(object(section.languageTokens, `${key}:languageTokens`))) {
      languageTokens[code] = optionalString(token, `${key}:languageTokens:${code}`)!;
    }
  }
  const untokened = languageTokens && pairs.flatMap((p) => p.split('-')).find((code) => !(code in languageTokens));
  if (untokened) throw new ConfigError(`${key}:languageTokens`, `has no token for "${untokened}", a language of ${key}:pairs`);
  return { adapter: 'onnx-seq2seq', path: configPath(section.path, `${key}:path`, baseDir), pairs, languageTokens };
}

function model(value: Json, key: string, baseDir: string): ModelConfig {
  const section = object(value, key);
  switch (section.adapter) {
    case 'pseudo':
      return { adapter: 'pseudo' };
    case 'apertium': {
      const pairs = section.pairs === undefined ? undefined : stringList(section.pairs, `${key}:pairs`);
      const bad = pairs?.find((p) => !/^[a-z]{2,3}(_[A-Za-z]+)?-[a-z]{2,3}(_[A-Za-z]+)?$/.test(p));
      if (bad !== undefined) throw new ConfigError(`${key}:pairs`, `"${bad}" is not a pair like "eng-spa"`);
      return { adapter: 'apertium', modes: optionalString(section.modes, `${key}:modes`) ?? DEFAULT_MODES_DIR, pairs };
    }
    case 'redirect': {
      const address = optionalString(section.address, `${key}:address`);
      if (address === undefined || !/^[^\s:]+:\d{1,5}$/.test(address)) {
        throw new ConfigError(`${key}:address`, `expected "host:port", got ${show(section.address)}`);
      }
      return { adapter: 'redirect', address, model: section.model === undefined ? '' : optionalString(section.model, `${key}:model`)! };
    }
    case 'onnx-seq2seq':
      return onnxSeq2Seq(section, key, baseDir);
    default:
      throw new ConfigError(`${key}:adapter`, `unknown adapter ${show(section.adapter)} (expected one of ${ADAPTERS.join(', ')})`);
  }
}

function sttConfig(value: Json, key: string, baseDir: string): SttConfig | undefined {
  if (value === undefined) return undefined;
  const section = object(value, key);
  if (section.engine !== 'pocketsphinx') {
    throw new ConfigError(`${key}:engine`, `unknown speech-to-text engine ${show(section.engine)} (expected "pocketsphinx")`);
  }
  return {
    engine: 'pocketsphinx',
    model: section.model === undefined ? DEFAULT_POCKETSPHINX_MODEL : configPath(section.model, `${key}:model`, baseDir),
    language: optionalString(section.language, `${key}:language`) ?? 'en',
  };
}

function voiceConfig(section: Record<string, Json>, key: string, language: string, baseDir: string): VoiceConfig {
  switch (section.engine) {
    case 'espeak-ng':
      return {
        engine: 'espeak-ng',
        voice: optionalString(section.voice, `${key}:voice`) ?? language,
        speakers: section.speakers === undefined ? [] : stringList(section.speakers, `${key}:speakers`),
      };
    case 'piper': {
      const model = configPath(section.model, `${key}:model`, baseDir);
      return { engine: 'piper', model, config: section.config === undefined ? `${model}.json` : configPath(section.config, `${key}:config`, baseDir) };
    }
    default:
      throw new ConfigError(`${key}:engine`, `unknown text-to-speech engine ${show(section.engine)} (expected "espeak-ng" or "piper")`);
  }
}

function voiceConfigs(value: Json, key: string, baseDir: string): Map<string, VoiceConfig> {
  const voices = new Map<string, VoiceConfig>();
  if (value === undefined) return voices;
  for (const [language, entry] of Object.entries(object(value, key))) {
    voices.set(language, voiceConfig(object(entry, `${key}:${language}`), `${key}:${language}`, language, baseDir));
  }
  return voices;
}

/** `baseDir`: the folder relative paths are taken from (the configuration file's). */
export function normalizeConfig(raw: RawConfig, baseDir = process.cwd()): ServiceConfig {
  const translation = raw.Translation === undefined ? {} : object(raw.Translation, 'Translation');
  const modelSection = object(translation.Models, 'Translation:Models');
  const models = new Map<string, ModelConfig>();
  for (const [key, value] of Object.entries(modelSection)) models.set(key, model(value, `Translation:Models:${key}`, baseDir));
  if (models.size === 0) throw new ConfigError('Translation:Models', 'defines no model');

  const allowedModels = raw.AllowedModels === undefined ? [...models.keys()] : stringList(raw.AllowedModels, 'AllowedModels');
  const undefinedAllowed = allowedModels.find((key) => !models.has(key));
  if (undefinedAllowed !== undefined) {
    throw new ConfigError('AllowedModels', `"${undefinedAllowed}" is not defined in Translation:Models`);
  }
  const defaultModel = optionalString(translation.DefaultModel, 'Translation:DefaultModel') ?? allowedModels[0];
  if (defaultModel === undefined) throw new ConfigError('AllowedModels', 'is empty, so there is no default model');
  if (!models.has(defaultModel)) throw new ConfigError('Translation:DefaultModel', `"${defaultModel}" is not defined in Translation:Models`);
  if (!allowedModels.includes(defaultModel)) throw new ConfigError('Translation:DefaultModel', `"${defaultModel}" is not in AllowedModels`);

  const stt = sttConfig(translation.AudioToText, 'Translation:AudioToText', baseDir);
  const voices = voiceConfigs(translation.TextToAudio, 'Translation:TextToAudio', baseDir);
  const ttl = raw.ModelTtlMinutes ?? DEFAULT_TTL_MINUTES;
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0) {
    throw new ConfigError('ModelTtlMinutes', `expected a positive number of minutes, got ${show(ttl)}`);
  }
  return {
    autoDetect: detector(translation.AutoDetect, 'Translation:AutoDetect'),
    models,
    defaultModel,
    allowedModels,
    sttConfigured: stt !== undefined,
    voices: [...voices.keys()],
    stt,
    voiceConfigs: voices,
    modelTtlMinutes: ttl,
  };
}
