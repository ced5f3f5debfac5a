// Options that decide who gets in and how: healthCheck, rateLimit, basicAuth and ssl.
import { validateHeaderValue } from 'node:http';
import { resolve } from 'node:path';
import { ConfigError } from './config-error.ts';
import {
  childKey,
  expectBoolean,
  expectInteger,
  expectObject,
  expectPort,
  expectString,
  expectUrlPath,
  isPlainObject,
  show,
} from './check-values.ts';
import {
  type BasicAuthOptions,
  DEFAULT_HEALTH_PATH,
  DEFAULT_RATE_LIMIT,
  DEFAULT_RATE_MESSAGE,
  DEFAULT_RATE_WINDOW_MS,
  DEFAULT_REALM,
  type RateLimitOptions,
  type SslOptions,
} from './site-config.ts';

/** A window longer than a day is almost certainly a unit mistake; the bound also keeps timers sane. */
const MAX_WINDOW_MS = 86_400_000;

export function normalizeHealthCheck(value: unknown, key: string): { path: string } | null {
  if (value === false) return null;
  if (value === true) return { path: DEFAULT_HEALTH_PATH };
  if (!isPlainObject(value)) throw new ConfigError(key, `must be true, false or an object {path} (got ${show(value)})`);
  return { path: value.path === undefined ? DEFAULT_HEALTH_PATH : expectUrlPath(value.path, `${key}.path`) };
}

export function normalizeRateLimit(value: unknown, key: string): RateLimitOptions | null {
  if (value === false) return null;
  const options = value === true ? {} : expectObject(value, key);
  const windowMs =
    options.windowMs === undefined ? DEFAULT_RATE_WINDOW_MS : expectInteger(options.windowMs, `${key}.windowMs`, 1, MAX_WINDOW_MS);
  const limit =
    options.limit === undefined ? DEFAULT_RATE_LIMIT : expectInteger(options.limit, `${key}.limit`, 1, Number.MAX_SAFE_INTEGER);
  let message: RateLimitOptions['message'] = DEFAULT_RATE_MESSAGE;
  if (options.message !== undefined) {
    if (typeof options.message !== 'string' && typeof options.message !== 'object') {
      throw new ConfigError(`${key}.message`, `must be a string or an object (got ${show(options.message)})`);
    }
    if (options.message === null) throw new ConfigError(`${key}.message`, 'must be a string or an object (got null)');
    message = options.message as RateLimitOptions['message'];
  }
  return { windowMs, limit, message };
}

export function normalizeBasicAuth(value: unknown, key: string): BasicAuthOptions {
  const options = expectObject(value, key);
  if (options.users === undefined) throw new ConfigError(`${key}.users`, 'is required (an object of username => password)');
  const users = new Map<string, string>();
  for (const [name, password] of Object.entries(expectObject(options.users, `${key}.users`))) {
    const userKey = childKey(`${key}.users`, name);
    // The Basic scheme joins name and password with the first ":", so such a name could never log in.
    if (name === '' || name.includes(':')) throw new ConfigError(userKey, `username must be non-empty without ":" (got ${show(name)})`);
    if (typeof password !== 'string') throw new ConfigError(userKey, `password must be a string (got ${show(password)})`);
    users.set(name, password);
  }
  if (users.size === 0) throw new ConfigError(`${key}.users`, 'must name at least one user');
  const challenge = options.challenge === undefined ? false : expectBoolean(options.challenge, `${key}.challenge`);
  const realm = options.realm === undefined ? DEFAULT_REALM : expectString(options.realm, `${key}.realm`);
  try {
    validateHeaderValue('WWW-Authenticate', realm);
  } catch {
    throw new ConfigError(`${key}.realm`, `must be printable header text (got ${show(realm)})`);
  }
  return { users, challenge, realm };
}

export function normalizeSsl(value: unknown, key: string, baseDir: string): SslOptions {
  const options = expectObject(value, key);
  const path = (name: string) => resolve(baseDir, expectString(options[name], `${key}.${name}`));
  return {
    key: path('key'),
    cert: path('cert'),
    ca: options.ca === undefined ? null : path('ca'),
    redirect: options.redirect === undefined ? null : expectPort(options.redirect, `${key}.redirect`),
  };
}
