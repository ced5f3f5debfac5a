// Validates the raw configuration once, at start-up, into the shape the service uses. Every error names
// the key path, the value and what was expected.
import { DEFAULT_MODES_DIR } from '../models/apertium-model.ts';
import { ConfigError } from './config-error.ts';
import type { RawConfig } from './load-config.ts';

export const DEFAULT_TTL_MINUTES = 10;
export const ADAPTERS = ['pseudo', 'apertium', 'redirect'] as const;

export type DetectorConfig = { type: 'heuristic' } | { type: 'fasttext'; path: string | undefined };

export type ModelConfig =
  | { adapter: 'pseudo' }
  | { adapter: 'apertium'; modes: string; pairs: string[] | undefined }
  | { adapter: 'redirect'; address: string; model: string };

export interface ServiceConfig {
  autoDetect: DetectorConfig;
  /** Model definitions in configuration order. */
  models: Map<string, ModelConfig>;
  defaultModel: string;
  allowedModels: string[];
  sttConfigured: boolean;
  voices: string[];
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

/** Speech engines arrive in a later version: configuring one is refused rather than silently ignored. */
function speechKeysAbsent(translation: Record<string, Json>): void {
  if (translation.AudioToText !== undefined) {
    throw new ConfigError('Translation:AudioToText', 'no speech-to-text engine is available in this version');
  }
  const tts = translation.TextToAudio === undefined ? {} : object(translation.TextToAudio, 'Translation:TextToAudio');
  if (Object.keys(tts).length > 0) {
    throw new ConfigError('Translation:TextToAudio', 'no text-to-speech engine is available in this version');
  }
}

export function normalizeConfig(raw: RawConfig): ServiceConfig {
  const translation = raw.Translation === undefined ? {} : object(raw.Translation, 'Translation');
  speechKeysAbsent(translation);
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

  const ttl = raw.ModelTtlMinutes ?? DEFAULT_TTL_MINUTES;
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0) {
    throw new ConfigError('ModelTtlMinutes', `expected a positive number of minutes, got ${show(ttl)}`);
  }
  return {
    autoDetect: detector(translation.AutoDetect, 'Translation:AutoDetect'),
    models,
    defaultModel,
    allowedModels,
    sttConfigured: false,
    voices: [],
    modelTtlMinutes: ttl,
  };
}
