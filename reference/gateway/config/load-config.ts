// Entry point of the config layer: `loadConfig(path, env)` reads the file (YAML, or JSON for a `.json` name),
// checks it against gateway-config.schema.json, then the rules the schema cannot express, and returns the
// normalised GatewayConfig. Every problem is one ConfigError (`<field>: <reason>`): at start-up, on
// POST /reload and in `gateway validate` alike.
import { resolve } from 'node:path';
import { ConfigError } from './config-error.ts';
import type { GatewayConfig } from './gateway-config.ts';
import { normalizeConfig, type RawConfig } from './normalize-config.ts';
import { type ConfigFormat, configFormat, parseConfigText, readConfigText } from './read-config-file.ts';
import { checkSchema } from './schema-check.ts';

export { ConfigError };

/** The config file every command reads when `-c` is not given, in the working directory. */
export const DEFAULT_CONFIG_FILE = 'gateway.yaml';

/** The absolute path of `-c FILE` (relative to `cwd`), or of gateway.yaml in `cwd` without it. */
export function resolveConfigPath(file: string | undefined, cwd: string): string {
  return resolve(cwd, file ?? DEFAULT_CONFIG_FILE);
}

/** Reads, validates and normalises the file at `path` (made absolute against the process's working
 * directory); `env` supplies `$NAME` tokens. Throws ConfigError. */
export function loadConfig(path: string, env: NodeJS.ProcessEnv): GatewayConfig {
  const absolute = resolve(path);
  const format = configFormat(absolute);
  const raw = parseConfigText(readConfigText(absolute), format, absolute);
  return validateConfig(raw, absolute, format, env);
}

/** The checks of loadConfig on a value already parsed (`path` absolute: it names the top level in errors and
 * relative TLS paths resolve against its folder). */
export function validateConfig(raw: unknown, path: string, format: ConfigFormat, env: NodeJS.ProcessEnv): GatewayConfig {
  checkSchema(raw, path);
  return normalizeConfig(raw as RawConfig, path, format, env);
}

/** One line per section configured but not built (`logging: configured but not compiled in`), each section once,
 * in the order the sites name them; empty when there is none. POST /reload sends them as `warnings`. */
export function notCompiledInWarnings(config: GatewayConfig): string[] {
  const sections = new Set(config.sites.flatMap((site) => site.notCompiledIn));
  return [...sections].map((section) => `${section}: configured but not compiled in`);
}
