// Reads the raw configuration: the JSON file (--config or TRANSLATE_CONFIG) or the embedded default (from
// what this machine has, see embedded-default.ts), then environment overrides: `Translation__AutoDetect`
// sets `Translation:AutoDetect` (`__` stands for `:`), the value JSON-parsed when it parses, else taken as
// a string; JSON `null` removes the key.
import { readFileSync } from 'node:fs';
import { ConfigError } from './config-error.ts';
import { embeddedDefault, thisMachine } from './embedded-default.ts';

export type RawConfig = Record<string, unknown>;

const TOP_LEVEL_KEYS = ['Translation', 'AllowedModels', 'ModelTtlMinutes'];

function readFile(path: string): RawConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError('config', `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ConfigError('config', `${path} is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError('config', `${path} must hold a JSON object`);
  }
  return value as RawConfig;
}

function parseEnvValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function setPath(config: RawConfig, path: string[], value: unknown): void {
  let node = config;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[key] = {};
    node = node[key] as RawConfig;
  }
  const last = path.at(-1)!;
  if (value === null) delete node[last];
  else node[last] = value;
}

/** `report`: given the embedded default's line of what it found on this machine, when that default is used. */
export function loadRawConfig(file: string | undefined, env: NodeJS.ProcessEnv, report: (line: string) => void = () => {}): RawConfig {
  let config: RawConfig;
  if (file) config = readFile(file);
  else {
    const fallback = embeddedDefault(thisMachine(env));
    report(fallback.found);
    config = fallback.config;
  }
  for (const name of Object.keys(env).sort()) {
    const path = name.split('__');
    if (!TOP_LEVEL_KEYS.includes(path[0]!) || path.some((p) => p === '')) continue;
    setPath(config, path, parseEnvValue(env[name]!));
  }
  return config;
}
