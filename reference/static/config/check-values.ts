// Small typed checks shared by the per-key normalisers. Each either returns the value with its proper type
// or throws a ConfigError naming the key path, what was expected and what was found.
import { validateHeaderName, validateHeaderValue } from 'node:http';
import { ConfigError } from './config-error.ts';

export type PlainObject = Record<string, unknown>;

/** A short rendering of a config value for error messages (long values are cut). */
export function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export function isPlainObject(value: unknown): value is PlainObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Key path of an object member: identifiers as `.name`, anything else (paths, `*`) as `["/api"]`. */
export function childKey(parent: string, name: string): string {
  if (/^[A-Za-z_$][\w$]*$/.test(name)) return parent ? `${parent}.${name}` : name;
  return `${parent}[${JSON.stringify(name)}]`;
}

export function expectObject(value: unknown, key: string): PlainObject {
  if (!isPlainObject(value)) throw new ConfigError(key, `must be an object (got ${show(value)})`);
  return value;
}

export function expectString(value: unknown, key: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new ConfigError(key, `must be a non-empty string (got ${show(value)})`);
  }
  return value;
}

export function expectBoolean(value: unknown, key: string): boolean {
  if (typeof value !== 'boolean') throw new ConfigError(key, `must be true or false (got ${show(value)})`);
  return value;
}

/** An integer within [min, max], both inclusive. */
export function expectInteger(value: unknown, key: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(key, `must be an integer from ${min} to ${max} (got ${show(value)})`);
  }
  return value;
}

export function expectPort(value: unknown, key: string): number {
  return expectInteger(value, key, 0, 65535);
}

/** A URL path: starts with `/`; a trailing slash is dropped except for the root. */
export function expectUrlPath(value: unknown, key: string): string {
  const path = expectString(value, key);
  if (!path.startsWith('/')) throw new ConfigError(key, `must be a URL path starting with "/" (got ${show(value)})`);
  return trimSlash(path);
}

export function trimSlash(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end--;
  return path.slice(0, end);
}

/** Header pairs for `setHeader`, validated now because Node would throw on them per request. */
export function expectHeaders(value: unknown, key: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [name, raw] of Object.entries(expectObject(value, key))) {
    const itemKey = childKey(key, name);
    if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') {
      throw new ConfigError(itemKey, `must be a string or number (got ${show(raw)})`);
    }
    const text = String(raw);
    try {
      validateHeaderName(name);
      validateHeaderValue(name, text);
    } catch (error) {
      throw new ConfigError(itemKey, `is not a valid HTTP header (${(error as Error).message})`);
    }
    pairs.push([name, text]);
  }
  return pairs;
}

/** `true` => `{}`, object => itself, `false` => null (off); used by the pass-through middleware options. */
export function booleanOrObject(value: unknown, key: string): PlainObject | null {
  if (value === true) return {};
  if (value === false) return null;
  if (isPlainObject(value)) return value;
  throw new ConfigError(key, `must be true, false or an options object (got ${show(value)})`);
}

/**
 * The three forms of a directory-based feature (cgi, upload): a directory string (defaults otherwise), one
 * options object, or an array of them; `entry` normalises one object, `fromDir` builds the string form.
 */
export function directoryForms<T>(
  value: unknown,
  key: string,
  fromDir: (dir: string) => T,
  entry: (item: unknown, key: string) => T,
): T[] {
  if (typeof value === 'string') return [fromDir(expectString(value, key))];
  if (Array.isArray(value)) return value.map((item, i) => entry(item, `${key}[${i}]`));
  if (isPlainObject(value)) return [entry(value, key)];
  throw new ConfigError(key, `must be a directory string, an object or an array of objects (got ${show(value)})`);
}
