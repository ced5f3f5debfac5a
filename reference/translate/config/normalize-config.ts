// Validates the raw configuration once, at start-up, into the shape the service uses. Every error names
// the key path, the value and what was expected.
import { DEFAULT_MODES_DIR } from '../models/apertium-model.ts';
import { DEFAULT_POCKETSPHINX_MODEL } from '../speech/pocketsphinx-stt.ts';
import { ConfigError } from './config-error.ts';
import type { RawConfig } from './load-config.ts';

export const DEFAULT_TTL_MINUTES = 10;
export const ADAPTERS = ['pseudo', 'apertium', 'redirect'] as const;

export type DetectorConfig = { type: 'heuristic' } | { type: 'fasttext'; path: string | undefined };

export type ModelConfig =
  | { adapter: 'pseudo' }
  | { adapter: 'apertium'; modes: string; pairs: string[] | undefined }
  | { adapter: 'redirect'; address: string; model: string };

export interface SttConfig {
  engine: 'pocketsphinx';
  /** The model folder (acoustic model, language model, dictionary). */
  model: string;
  /** BCP-47 language the model recognises. */
  language: string;
}

export interface VoiceConfig {
  engine: 'espeak-ng';
  /** The engine's voice name (default: the map key). */
  voice: string;
  /** Speaker names of a multi-speaker voice (espeak-ng variants such as `f3`, `m1`). */
  speakers: string[];
}

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

function model(value: Json, key: string): ModelConfig {
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
    default:
      throw new ConfigError(`${key}:adapter`, `unknown adapter ${show(section.adapter)} (expected one of ${ADAPTERS.join(', ')})`);
  }
}

function sttConfig(value: Json, key: string): SttConfig | undefined {
  if (value === undefined) return undefined;
  const section = object(value, key);
  if (section.engine !== 'pocketsphinx') {
    throw new ConfigError(`${key}:engine`, `unknown speech-to-text engine ${show(section.engine)} (expected "pocketsphinx")`);
  }
  return {
    engine: 'pocketsphinx',
    model: optionalString(section.model, `${key}:model`) ?? DEFAULT_POCKETSPHINX_MODEL,
    language: optionalString(section.language, `${key}:language`) ?? 'en',
  };
}

function voiceConfigs(value: Json, key: string): Map<string, VoiceConfig> {
  const voices = new Map<string, VoiceConfig>();
  if (value === undefined) return voices;
  for (const [language, entry] of Object.entries(object(value, key))) {
    const section = object(entry, `${key}:${language}`);
    if (section.engine !== 'espeak-ng') {
      throw new ConfigError(`${key}:${language}:engine`, `unknown text-to-speech engine ${show(section.engine)} (expected "espeak-ng")`);
    }
    voices.set(language, {
      engine: 'espeak-ng',
      voice: optionalString(section.voice, `${key}:${language}:voice`) ?? language,
      speakers: section.speakers === undefined ? [] : stringList(section.speakers, `${key}:${language}:speakers`),
    });
  }
  return voices;
}

export function normalizeConfig(raw: RawConfig): ServiceConfig {
  const translation = raw.Translation === undefined ? {} : object(raw.Translation, 'Translation');
  const modelSection = object(translation.Models, 'Translation:Models');
  const models = new Map<string, ModelConfig>();
  for (const [key, value] of Object.entries(modelSection)) models.set(key, model(value, `Translation:Models:${key}`));
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

  const stt = sttConfig(translation.AudioToText, 'Translation:AudioToText');
  const voices = voiceConfigs(translation.TextToAudio, 'Translation:TextToAudio');
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
