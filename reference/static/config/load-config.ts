// Finds, reads and parses the config file. Shape checks are left to normalize-site; this file only knows
// where the config lives, and what to do when there is none.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError } from './config-error.ts';
import { DEFAULT_CONFIG_NAME } from './site-config.ts';

export interface LoadedConfig {
  /** The parsed JSON (not yet checked). */
  raw: unknown;
  /** Directory that relative paths in the config resolve against. */
  baseDir: string;
  /** Absolute path of the file, or null when built-in defaults are used. */
  path: string | null;
}

/** Built-in defaults when no config file exists: serve the working directory (port comes from PORT or 8000). */
export const DEFAULT_SITE = Object.freeze({ folders: '.' });

/** `--config` may name a file or a directory holding `server-config.json`; without it, the working directory. */
export function resolveConfigPath(explicit: string | undefined, cwd: string): string {
  if (explicit === undefined) return join(cwd, DEFAULT_CONFIG_NAME);
  const path = resolve(cwd, explicit);
  return isDirectory(path) ? join(path, DEFAULT_CONFIG_NAME) : path;
}

export function loadConfig(explicit: string | undefined, cwd: string, warn: (message: string) => void): LoadedConfig {
  const path = resolveConfigPath(explicit, cwd);
  if (!exists(path)) {
    // Only an explicitly named file must exist; the implicit one falls back to defaults.
    if (explicit !== undefined) throw new ConfigError('--config', `config file not found: ${path}`);
    warn(`no ${DEFAULT_CONFIG_NAME} found in ${cwd}; using built-in defaults (serving ${cwd})`);
    return { raw: { ...DEFAULT_SITE }, baseDir: cwd, path: null };
  }
  return { raw: parseFile(path), baseDir: dirname(path), path };
}

function parseFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    throw new ConfigError(path, `cannot read config file (${code})`, { cause: error });
  }
  // Editors on some systems save a byte order mark, which JSON.parse rejects.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ConfigError(path, `invalid JSON: ${(error as Error).message}`, { cause: error });
  }
}

function exists(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
