// `unhandled`: the response for requests nothing else answered, keyed by Accept key (html, json, xml, *).
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from './config-error.ts';
import { childKey, expectHeaders, expectInteger, expectObject, isPlainObject, show } from './check-values.ts';
import {
  DEFAULT_UNHANDLED_STATUS,
  UNHANDLED_KEYS,
  type UnhandledEntry,
  type UnhandledKey,
  type UnhandledOptions,
} from './site-config.ts';

export function normalizeUnhandled(value: unknown, key: string, baseDir: string): UnhandledOptions {
  const options: UnhandledOptions = {};
  for (const [name, entry] of Object.entries(expectObject(value, key))) {
    const entryKey = childKey(key, name);
    if (!UNHANDLED_KEYS.includes(name as UnhandledKey)) {
      throw new ConfigError(entryKey, `unknown Accept key ${show(name)}; allowed: ${UNHANDLED_KEYS.join(', ')}`);
    }
    options[name as UnhandledKey] = normalizeEntry(entry, entryKey, baseDir);
  }
  return options;
}

function normalizeEntry(value: unknown, key: string, baseDir: string): UnhandledEntry {
  const entry = expectObject(value, key);
  const status =
    entry.status === undefined ? DEFAULT_UNHANDLED_STATUS : expectInteger(entry.status, `${key}.status`, 200, 599);
  const headers = entry.headers === undefined ? [] : expectHeaders(entry.headers, `${key}.headers`);
  return { status, headers, send: normalizeSend(entry.send, `${key}.send`), file: normalizeFile(entry.file, `${key}.file`, baseDir) };
}

function normalizeSend(value: unknown, key: string): UnhandledEntry['send'] {
  if (value === undefined) return null;
  if (typeof value === 'string') return { body: value, json: false };
  if (isPlainObject(value) || Array.isArray(value)) return { body: JSON.stringify(value), json: true };
  throw new ConfigError(key, `must be a string or an object (got ${show(value)})`);
}

/** The file must exist now: a broken error page is a startup error, not a 500 on every miss. */
function normalizeFile(value: unknown, key: string, baseDir: string): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || value === '') throw new ConfigError(key, `must be a file path (got ${show(value)})`);
  const file = resolve(baseDir, value);
  let isFile = false;
  try {
    isFile = statSync(file).isFile();
  } catch {
    throw new ConfigError(key, `file not found: ${file}`);
  }
  if (!isFile) throw new ConfigError(key, `is not a file: ${file}`);
  return file;
}
