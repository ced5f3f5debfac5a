// Authentication of a site's requests (catalog gateway/site-auth/*): basic, API key, JWT, forward auth and
// named consumers, every configured kind in that order; the first that refuses answers. The basic and API-key
// kinds also take the consumers' credentials; the consumers kind names the consumer to the upstream
// (X-Consumer-Name) and holds it to its own rate limit. Built once per loaded config (with
// the site table), so a reload swaps it whole. Basic and API keys answer at once; a JWT or a forward-auth
// question makes the verdict a promise.
import { createHash, createPublicKey, createSecretKey, type KeyObject } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import parseBasic from 'basic-auth';
import { createLocalJWKSet, type JWTVerifyGetKey, jwtVerify } from 'jose';
import type { ConsumerConfig, SiteAuthConfig } from '../config/gateway-config.ts';
import { AUTH_DEFAULTS } from '../config/normalize-auth.ts';
import { keyCheck, keyLookup, passwordCheck } from '../../shared/secret-check.ts';
import { ForwardAuth } from './forward-auth.ts';
import { RateBucket } from './rate-limiter.ts';

/** What the client gets instead of the upstream's answer. */
export interface Refusal {
  status: number;
  headers: Record<string, string | string[]>;
  /** undefined: the reason phrase as a text body. */
  body?: Buffer;
  /** The body's content type (with body). */
  type?: string;
}

/** Refused, or admitted (with any headers to set on the upstream request). */
export interface Verdict {
  refusal?: Refusal;
  set?: readonly (readonly [string, string])[];
}

const ADMITTED: Verdict = {};
const BEARER = /^bearer +(\S+) *$/i;

type Check = (req: IncomingMessage, scheme: string, client: string) => Verdict | Promise<Verdict>;

export class SiteAuth {
  readonly #checks: Check[] = [];
  /** Request headers only authentication gives the upstream (forward auth's copyHeaders, the consumer's
   * name): the client's own are taken off, so one the auth service did not answer cannot be forged. */
  readonly setHeaders: ReadonlySet<string>;

  /** Request headers that carry a credential the cache does not already keep apart (the API key's header,
   * cookies; a request with Authorization is never stored, a key in the query is part of the cache key). */
  readonly #credentialHeaders: readonly string[];

  constructor(config: SiteAuthConfig) {
    this.#credentialHeaders = [(config.apiKey?.header ?? AUTH_DEFAULTS.apiKeyHeader).toLowerCase(), 'cookie'];
    this.setHeaders = new Set([
      ...(config.forward?.copyHeaders ?? []).map((name) => name.toLowerCase()),
      ...(config.consumers === undefined ? [] : ['x-consumer-name']),
    ]);
    const consumers = config.consumers ?? [];
    const users = consumers.flatMap((c) => (c.basic === undefined ? [] : [c.basic]));
    const keys = consumers.flatMap((c) => c.apiKeys);
    if (config.basic !== undefined) this.#checks.push(basicCheck({ ...config.basic, users: [...config.basic.users, ...users] }));
    if (config.apiKey !== undefined) this.#checks.push(apiKeyCheck({ ...config.apiKey, keys: [...config.apiKey.keys, ...keys] }));
    if (config.jwt !== undefined) this.#checks.push(jwtCheck(config.jwt));
    if (config.forward !== undefined) {
      const forward = new ForwardAuth(config.forward);
      this.#checks.push((req, scheme, client) => forward.ask(req, scheme, client));
    }
    const keysAt = config.apiKey ?? { header: AUTH_DEFAULTS.apiKeyHeader.toLowerCase(), query: undefined };
    if (config.consumers !== undefined) this.#checks.push(consumersCheck(config.consumers, keysAt));
  }

  /** Who is asking, for the response cache: a digest of the request's credentials and of what
   * authentication set for the upstream (a consumer's name, forward auth's copied headers). An answer
   * fetched for one identity is never served to another. */
  identity(req: IncomingMessage, set: Verdict['set']): string {
    const hash = createHash('sha256');
    for (const name of this.#credentialHeaders) hash.update(`${name}\0${String(req.headers[name] ?? '')}\0`);
    for (const [name, value] of set ?? []) hash.update(`${name}\0${value}\0`);
    return hash.digest('base64url');
  }

  /** Runs the checks in order; a promise only once a check gives one. */
  check(req: IncomingMessage, scheme: string, client: string): Verdict | Promise<Verdict> {
    const set: (readonly [string, string])[] = [];
    for (let i = 0; i < this.#checks.length; i++) {
      const verdict = this.#checks[i]!(req, scheme, client);
      if (verdict instanceof Promise) return this.#finish(verdict, i, set, req, scheme, client);
      if (verdict.refusal !== undefined) return verdict;
      if (verdict.set !== undefined) set.push(...verdict.set);
    }
    return set.length === 0 ? ADMITTED : { set };
  }

  async #finish(
    pending: Promise<Verdict>,
    at: number,
    set: (readonly [string, string])[],
    req: IncomingMessage,
    scheme: string,
    client: string,
  ): Promise<Verdict> {
    let verdict = await pending;
    for (let i = at + 1; ; i++) {
      if (verdict.refusal !== undefined) return verdict;
      if (verdict.set !== undefined) set.push(...verdict.set);
      if (i === this.#checks.length) return set.length === 0 ? ADMITTED : { set };
      verdict = await this.#checks[i]!(req, scheme, client);
    }
  }
}

function basicCheck(config: NonNullable<SiteAuthConfig['basic']>): Check {
  const matches = passwordCheck(config.users.map((u) => [u.username, u.password] as const));
  const refusal: Verdict = { refusal: { status: 401, headers: { 'www-authenticate': `Basic realm="${config.realm}", charset="UTF-8"` } } };
  return (req) => {
    const credentials = parseBasic(req);
    return credentials !== undefined && matches(credentials.name, credentials.pass) ? ADMITTED : refusal;
  };
}

/** The API key a request carries in `header`, else in the `query` parameter. */
function apiKeyOf(req: IncomingMessage, header: string, query: string | undefined): string | undefined {
  let given = req.headers[header];
  if (given === undefined && query !== undefined) {
    const url = req.url ?? '';
    const at = url.indexOf('?');
    if (at !== -1) given = new URLSearchParams(url.slice(at + 1)).get(query) ?? undefined;
  }
  return typeof given === 'string' && given !== '' ? given : undefined;
}

function apiKeyCheck(config: NonNullable<SiteAuthConfig['apiKey']>): Check {
  const known = keyCheck(config.keys);
  const refusal: Verdict = { refusal: { status: 401, headers: {} } };
  return (req) => {
    const given = apiKeyOf(req, config.header, config.query);
    return given !== undefined && known(given) ? ADMITTED : refusal;
  };
}

/** Names the consumer whose API key (where the apiKey section reads keys) or basic credentials the request
 * carries; 401 when none; 429 when that consumer's own limit is spent. */
function consumersCheck(consumers: ConsumerConfig[], keys: { header: string; query: string | undefined }): Check {
  const known = consumers.map((consumer) => ({ consumer, bucket: consumer.rateLimit === undefined ? undefined : new RateBucket(consumer.rateLimit) }));
  type Known = (typeof known)[number];
  const byKey = keyLookup(known.flatMap((k) => k.consumer.apiKeys.map((key) => [key, k] as const)));
  const byUser = new Map(known.flatMap((k): [string, Known][] => (k.consumer.basic === undefined ? [] : [[k.consumer.basic.username, k]])));
  const password = passwordCheck(known.flatMap((k) => (k.consumer.basic === undefined ? [] : [[k.consumer.basic.username, k.consumer.basic.password] as const])));
  const unknown: Verdict = { refusal: { status: 401, headers: {} } };
  return (req) => {
    const key = apiKeyOf(req, keys.header, keys.query);
    let found = key === undefined ? undefined : byKey(key);
    if (found === undefined) {
      const credentials = parseBasic(req);
      if (credentials !== undefined && password(credentials.name, credentials.pass)) found = byUser.get(credentials.name);
    }
    if (found === undefined) return unknown;
    const wait = found.bucket?.take(found.consumer.name, Date.now()) ?? 0;
    if (wait > 0) return { refusal: { status: 429, headers: { 'retry-after': String(wait) } } };
    return { set: [['x-consumer-name', found.consumer.name]] };
  };
}

/** Why a token was refused, for the challenge (RFC 6750 error_description). */
function tokenProblem(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'ERR_JWT_EXPIRED') return 'the token has expired';
  if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') return 'the signature does not verify';
  if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') return 'a claim does not match';
  return 'the token is not valid';
}

function jwtCheck(config: NonNullable<SiteAuthConfig['jwt']>): Check {
  const secret: KeyObject | undefined = config.secret === undefined ? undefined : createSecretKey(Buffer.from(config.secret, 'utf8'));
  const publicKey: KeyObject | undefined = config.publicKey === undefined ? undefined : createPublicKey(config.publicKey);
  const jwks = config.jwks === undefined ? undefined : createLocalJWKSet(config.jwks as never);
  const algorithms = [...(secret ? ['HS256'] : []), ...(publicKey || jwks ? ['RS256'] : [])];
  const key: JWTVerifyGetKey = async (header, token) => {
    if (header.alg === 'HS256' && secret) return secret;
    // A kid names a key of the JWKS file; without one (or without a file) the configured public key.
    if (jwks && (header.kid !== undefined || !publicKey)) return jwks(header, token);
    if (publicKey) return publicKey;
    throw new Error('no key for this token');
  };
  const options = { algorithms, issuer: config.issuer, audience: config.audience, clockTolerance: config.clockToleranceSecs };
  const missing: Verdict = { refusal: { status: 401, headers: { 'www-authenticate': 'Bearer' } } };
  return (req) => {
    const token = BEARER.exec(req.headers.authorization ?? '')?.[1];
    if (token === undefined) return missing;
    return jwtVerify(token, key, options).then(
      () => ADMITTED,
      (error: unknown) => ({
        refusal: { status: 401, headers: { 'www-authenticate': `Bearer error="invalid_token", error_description="${tokenProblem(error)}"` } },
      }),
    );
  };
}
