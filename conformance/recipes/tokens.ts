// JWTs as the cases look at them and forge them: the compact form's three parts, an HMAC signature with a
// secret the suite gave the target (JWT_SECRET), and the ways a token can be wrong (fast-check arbitraries).
// Only HMAC algorithms are forged: "signed with a configured secret" is a shared secret, and a token whose
// header names anything else cannot be re-signed here (the case is then inconclusive, not failed).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fc from 'fast-check';
import { Inconclusive } from '../harness/inconclusive.ts';

export interface Jwt {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  /** The three base64url parts as issued. */
  parts: [string, string, string];
}

const HMACS: Record<string, string> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };

const b64json = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

function jsonPart(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The parts of a compact JWS, or undefined when `token` is not one. */
export function decodeJwt(token: string): Jwt | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const header = jsonPart(parts[0]!);
  const payload = jsonPart(parts[1]!);
  if (!header || !payload) return undefined;
  return { header, payload, parts: parts as [string, string, string] };
}

/** The token's parts; Inconclusive when the target's token is not a compact JWS with an HMAC algorithm. */
export function hmacJwt(token: string): Jwt {
  const jwt = decodeJwt(token);
  if (!jwt) throw new Inconclusive(`the issued token is not a compact JWT (three base64url parts, JSON header and payload): ${token.slice(0, 80)}`);
  if (typeof jwt.header['alg'] !== 'string' || !HMACS[jwt.header['alg']]) {
    throw new Inconclusive(`the issued token's header names alg ${JSON.stringify(jwt.header['alg'])}: the suite forges HMAC-signed tokens only`);
  }
  return jwt;
}

/** The keys a secret given as JWT_SECRET may sign with: its bytes as text, or the bytes it encodes (base64). */
export function keysOf(secret: string): Buffer[] {
  const keys = [Buffer.from(secret, 'utf8')];
  const decoded = Buffer.from(secret, 'base64');
  if (decoded.length > 0 && decoded.toString('base64').replace(/=+$/, '') === secret.replace(/=+$/, '')) keys.push(decoded);
  return keys;
}

const signature = (alg: string, key: Buffer, input: string): Buffer => createHmac(HMACS[alg]!, key).update(input).digest();

/** Whether `jwt` carries an HMAC of its header and payload made with `key`. */
export function signedWith(jwt: Jwt, key: Buffer): boolean {
  const alg = String(jwt.header['alg']);
  if (!HMACS[alg]) return false;
  const expected = signature(alg, key, `${jwt.parts[0]}.${jwt.parts[1]}`);
  const given = Buffer.from(jwt.parts[2], 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The key among `keysOf(secret)` that signed `jwt`, if any. */
export const signingKey = (jwt: Jwt, secret: string): Buffer | undefined => keysOf(secret).find((key) => signedWith(jwt, key));

/** A compact JWS of `header` and `payload` with an HMAC (`header.alg`) under `key`. */
export function signJwt(header: Record<string, unknown>, payload: Record<string, unknown>, key: Buffer): string {
  const input = `${b64json(header)}.${b64json(payload)}`;
  return `${input}.${signature(String(header['alg']), key, input).toString('base64url')}`;
}

/** Seconds since the epoch. */
export const nowS = (): number => Math.floor(Date.now() / 1000);

/** A wrong token made from a genuine one, and what was done to it. */
export interface WrongToken {
  kind: string;
  token: string;
}

const claimValue = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.boolean(), fc.constant(null));

/** The genuine token with its payload changed and its signature kept. */
function tamperedPayload(jwt: Jwt): fc.Arbitrary<WrongToken> {
  const keys = Object.keys(jwt.payload);
  const change = fc.oneof(
    fc.record({ key: keys.length > 0 ? fc.constantFrom(...keys) : fc.constant('sub'), value: claimValue }),
    fc.record({ key: fc.constantFrom('role', 'admin', 'isAdmin', 'scope'), value: fc.constantFrom<unknown>('admin', true, 'admin:all') }),
    fc.record({ key: fc.constant('exp'), value: fc.integer({ min: nowS() + 60, max: nowS() + 10 * 365 * 86400 }) }),
  );
  return change
    .map(({ key, value }) => ({ ...jwt.payload, [key]: value }))
    .filter((payload) => JSON.stringify(payload) !== JSON.stringify(jwt.payload))
    .map((payload) => ({ kind: 'payload changed, signature kept', token: `${jwt.parts[0]}.${b64json(payload)}.${jwt.parts[2]}` }));
}

/** The genuine token with one bit of its signature flipped (in the bytes: a base64url character's unused bits
 * may decode to the same signature). */
function tamperedSignature(jwt: Jwt): fc.Arbitrary<WrongToken> {
  const bytes = Buffer.from(jwt.parts[2], 'base64url');
  return fc.record({ at: fc.nat({ max: Math.max(0, bytes.length - 1) }), bit: fc.nat({ max: 7 }) }).map(({ at, bit }) => {
    const flipped = Buffer.from(bytes);
    flipped[at] = (flipped[at] ?? 0) ^ (1 << bit);
    return { kind: `signature byte ${at} bit ${bit} flipped`, token: `${jwt.parts[0]}.${jwt.parts[1]}.${flipped.toString('base64url')}` };
  });
}

/** The genuine claims signed with a secret the target was not given. */
function otherSecret(jwt: Jwt, secret: string): fc.Arbitrary<WrongToken> {
  return fc
    .uint8Array({ minLength: 16, maxLength: 64 })
    .filter((bytes) => !keysOf(secret).some((key) => key.equals(Buffer.from(bytes))))
    .map((bytes) => ({ kind: 'signed with another secret', token: signJwt(jwt.header, jwt.payload, Buffer.from(bytes)) }));
}

/** The genuine claims with alg none, with or without a signature part. */
function algNone(jwt: Jwt): fc.Arbitrary<WrongToken> {
  return fc.record({ alg: fc.constantFrom('none', 'None', 'NONE', 'nOnE'), keep: fc.boolean() }).map(({ alg, keep }) => ({
    kind: `alg ${alg}${keep ? ', signature kept' : ', no signature'}`,
    token: `${b64json({ ...jwt.header, alg })}.${jwt.parts[1]}.${keep ? jwt.parts[2] : ''}`,
  }));
}

/** Printable text that is no JWT of the target's (header values must be visible ASCII). */
const garbage: fc.Arbitrary<WrongToken> = fc
  .oneof(
    fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.'), minLength: 1, maxLength: 80 }),
    fc.tuple(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 40 })).map((ps) => ps.map((p) => Buffer.from(p).toString('base64url')).join('.')),
  )
  .map((token) => ({ kind: 'garbage', token }));

/** An expired token: the genuine claims with iat and exp in the past, signed with the right key. */
export function expiredToken(jwt: Jwt, key: Buffer, agoS = 3600): string {
  const exp = nowS() - agoS;
  return signJwt(jwt.header, { ...jwt.payload, iat: exp - 60, exp }, key);
}

/** Tokens that are not signed by the target's secret, or altered after signing (another secret only for a
 * token whose alg is an HMAC the suite can sign with). */
export function forgedTokens(jwt: Jwt, secret: string): fc.Arbitrary<WrongToken> {
  const hmac = typeof jwt.header['alg'] === 'string' && HMACS[jwt.header['alg']] !== undefined;
  return fc.oneof(tamperedPayload(jwt), tamperedSignature(jwt), ...(hmac ? [otherSecret(jwt, secret)] : []), algNone(jwt), garbage);
}

/** A random secret of the suite's own (never the target's). */
export const otherKey = (): Buffer => randomBytes(32);
