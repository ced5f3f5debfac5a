// The site's authentication sections (basicAuth, apiKey, jwtAuth, forwardAuth; shape-checked by the schema)
// into its SiteAuthConfig: defaults filled in, header names lower-cased, and the keys checked now — a PEM
// that is no public key, a JWKS file that cannot be read or holds no usable key — so that a bad key fails
// the load or the reload naming its field, never a request. The config stays plain data (it travels to
// worker processes); the data plane builds its key objects from it.
import { createPublicKey } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from './config-error.ts';
import type { ConsumerConfig, ForwardAuthConfig, JwtAuthConfig, SiteAuthConfig } from './gateway-config.ts';

export interface RawAuthSections {
  basicAuth?: false | { realm?: string; users: { username: string; password: string }[] };
  apiKey?: false | { header?: string; query?: string; keys: string[] };
  jwtAuth?: false | { secret?: string; publicKey?: string; jwksFile?: string; issuer?: string; audience?: string; clockToleranceSecs?: number };
  forwardAuth?: false | { url: string; timeoutMs?: number; copyHeaders?: string[] };
  consumers?: false | { name: string; apiKeys?: string[]; basicAuth?: { username: string; password: string }; rateLimit?: { requests: number; windowMs?: number } }[];
}

const CONSUMER_WINDOW_MS = 60_000;

export const AUTH_DEFAULTS = Object.freeze({ realm: 'gateway', apiKeyHeader: 'X-API-Key', clockToleranceSecs: 0, forwardTimeoutMs: 5000 });

/** A JWKS file larger than this is refused (a key set is a few KiB). */
const MAX_JWKS_BYTES = 1024 * 1024;

type At = (...keys: (string | number)[]) => string;

export function normalizeAuth(raw: RawAuthSections, baseDir: string, at: At): SiteAuthConfig | undefined {
  const on = <T>(section: T | false | undefined): T | undefined => (section === false ? undefined : section);
  const basicAuth = on(raw.basicAuth);
  const apiKey = on(raw.apiKey);
  const jwtAuth = on(raw.jwtAuth);
  const forwardAuth = on(raw.forwardAuth);
  const consumers = on(raw.consumers);
  if (!basicAuth && !apiKey && !jwtAuth && !forwardAuth && !consumers) return undefined;
  return {
    basic: basicAuth && { realm: basicAuth.realm ?? AUTH_DEFAULTS.realm, users: basicAuth.users.map((u) => ({ ...u })) },
    apiKey: apiKey && { header: (apiKey.header ?? AUTH_DEFAULTS.apiKeyHeader).toLowerCase(), query: apiKey.query, keys: [...apiKey.keys] },
    jwt: jwtAuth && normalizeJwt(jwtAuth, baseDir, at),
    forward: forwardAuth && normalizeForward(forwardAuth, at),
    consumers: consumers && normalizeConsumers(consumers, at),
  };
}

function normalizeConsumers(raw: NonNullable<RawAuthSections['consumers']> & object, at: At): ConsumerConfig[] {
  const names = new Map<string, number>();
  const keys = new Map<string, number>();
  const users = new Map<string, number>();
  /** `value` must not be in `seen` already (as another consumer's); records it. */
  const unique = (seen: Map<string, number>, value: string, i: number, field: () => string, what: string) => {
    const other = seen.get(value);
    if (other !== undefined && other !== i) throw new ConfigError(field(), `${what} is consumers[${other}]'s already`);
    seen.set(value, i);
  };
  return raw.map((consumer, i) => {
    unique(names, consumer.name, i, () => at('consumers', i, 'name'), `the name "${consumer.name}"`);
    const apiKeys = consumer.apiKeys ?? [];
    for (const [k, key] of apiKeys.entries()) unique(keys, key, i, () => at('consumers', i, 'apiKeys', k), 'this key');
    if (consumer.basicAuth !== undefined) {
      unique(users, consumer.basicAuth.username, i, () => at('consumers', i, 'basicAuth', 'username'), `the user name "${consumer.basicAuth.username}"`);
    }
    if (apiKeys.length === 0 && consumer.basicAuth === undefined) {
      throw new ConfigError(at('consumers', i), 'needs a credential to be known by: apiKeys or basicAuth');
    }
    const limit = consumer.rateLimit;
    return {
      name: consumer.name,
      apiKeys: [...apiKeys],
      basic: consumer.basicAuth && { ...consumer.basicAuth },
      rateLimit: limit && { requests: limit.requests, windowMs: limit.windowMs ?? CONSUMER_WINDOW_MS },
    };
  });
}

function normalizeJwt(raw: NonNullable<RawAuthSections['jwtAuth']> & object, baseDir: string, at: At): JwtAuthConfig {
  if (raw.secret === undefined && raw.publicKey === undefined && raw.jwksFile === undefined) {
    throw new ConfigError(at('jwtAuth'), 'needs a key to check tokens with: secret, publicKey or jwksFile');
  }
  if (raw.publicKey !== undefined) {
    let type: string | undefined;
    try {
      type = createPublicKey(raw.publicKey).asymmetricKeyType;
    } catch (error) {
      throw new ConfigError(at('jwtAuth', 'publicKey'), `is not a PEM public key or certificate (${(error as Error).message})`);
    }
    if (type !== 'rsa') throw new ConfigError(at('jwtAuth', 'publicKey'), `must be an RSA key for RS256 (got ${type})`);
  }
  return {
    secret: raw.secret,
    publicKey: raw.publicKey,
    jwks: raw.jwksFile === undefined ? undefined : readJwks(resolve(baseDir, raw.jwksFile), at('jwtAuth', 'jwksFile')),
    issuer: raw.issuer,
    audience: raw.audience,
    clockToleranceSecs: raw.clockToleranceSecs ?? AUTH_DEFAULTS.clockToleranceSecs,
  };
}

function readJwks(path: string, field: string): { keys: Record<string, unknown>[] } {
  let parsed: unknown;
  try {
    const size = statSync(path).size;
    if (size > MAX_JWKS_BYTES) throw new Error(`${size} bytes, more than ${MAX_JWKS_BYTES}`);
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(field, `cannot be read as a JSON Web Key Set: ${path}: ${(error as Error).message}`);
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0) throw new ConfigError(field, `${path} holds no "keys" array with a key`);
  keys.forEach((key, i) => {
    try {
      const type = createPublicKey({ key: key as never, format: 'jwk' }).asymmetricKeyType;
      if (type !== 'rsa') throw new Error(`an ${type} key; RS256 needs RSA`);
    } catch (error) {
      throw new ConfigError(field, `${path}: keys[${i}] is not a usable public key (${(error as Error).message})`);
    }
  });
  return { keys: keys as Record<string, unknown>[] };
}

function normalizeForward(raw: NonNullable<RawAuthSections['forwardAuth']> & object, at: At): ForwardAuthConfig {
  let url: URL | undefined;
  try {
    url = new URL(raw.url);
  } catch {}
  if (url === undefined || !/^https?:$/.test(url.protocol) || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new ConfigError(at('forwardAuth', 'url'), `must be an absolute http:// or https:// URL without user, password or fragment (got "${raw.url}")`);
  }
  return {
    url: raw.url,
    timeoutMs: raw.timeoutMs ?? AUTH_DEFAULTS.forwardTimeoutMs,
    copyHeaders: (raw.copyHeaders ?? []).map((name) => name.toLowerCase()),
  };
}
