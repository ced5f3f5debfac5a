// Bearer tokens (catalog recipes/auth/jwt-*): compact JWS, HS256 only, signed with JWT_SECRET.
//
// Claims: sub (user id), role ("admin" | "user", informational: decisions use the stored user, see access.ts),
// tv (the user's token version), iat and exp (seconds). A password reset raises the user's tokenVersion, so every
// token issued before it is refused (sessionRefusal → token-revoked) while tokens issued after it work; a
// counter rather than comparing iat with the time of the change, because iat has whole-second precision and a
// token issued in the same second as the reset would be ambiguous. Deactivation does not touch the version:
// the catalog wants tokens to work again once an admin reactivates the account.
//
// Verification refuses, each with its AuthError code: anything that is not a string of three base64url
// segments of at most 4 KiB (token-malformed); alg other than HS256, "none" included (token-algorithm); a
// signature that does not match, or is not the canonical 43-character encoding of 32 bytes (token-signature:
// jose decodes the segment leniently, so without that check three other spellings of each signature — same
// bytes, different low bits in the last character — would verify); exp reached (token-expired, no clock
// tolerance); and a payload without the claims above (token-claims).
import { errors, jwtVerify, SignJWT } from 'jose';
import type { AuthConfig } from './auth-config.ts';
import { AuthError } from './auth-error.ts';
import { isRole, type Role } from './access.ts';

export const JWT_ALGORITHM = 'HS256';
/** Longest token looked at; ours are about 250 characters. */
export const MAX_TOKEN_LENGTH = 4096;

export interface TokenSubject {
  readonly id: string;
  readonly role: Role;
  readonly tokenVersion: number;
}

export interface JwtClaims {
  readonly sub: string;
  readonly role: Role;
  readonly tv: number;
  /** Issued at, seconds since the epoch. */
  readonly iat: number;
  /** Expires at, seconds since the epoch. */
  readonly exp: number;
}

export interface JwtOptions {
  /** The clock, milliseconds since the epoch (tests move it). */
  readonly now?: () => number;
}

const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export class JwtTokens {
  readonly #key: Uint8Array;
  readonly #lifetime: number;
  readonly #now: () => number;

  constructor(config: AuthConfig, options: JwtOptions = {}) {
    this.#key = config.jwtSecret;
    this.#lifetime = config.jwtLifetimeSeconds;
    this.#now = options.now ?? Date.now;
  }

  /** A signed token for `user`, expiring after JWT_EXPIRES_IN. */
  async issue(user: TokenSubject): Promise<string> {
    const iat = Math.floor(this.#now() / 1000);
    return new SignJWT({ role: user.role, tv: user.tokenVersion })
      .setProtectedHeader({ alg: JWT_ALGORITHM, typ: 'JWT' })
      .setSubject(user.id)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.#lifetime)
      .sign(this.#key);
  }

  /** The claims of a token this service issued and that has not expired; otherwise an AuthError (token-*). */
  async verify(token: unknown): Promise<JwtClaims> {
    if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH || !COMPACT_JWS.test(token)) {
      throw new AuthError('token-malformed', 'not a compact JWS token');
    }
    const signature = token.slice(token.lastIndexOf('.') + 1);
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.#key, {
        algorithms: [JWT_ALGORITHM],
        currentDate: new Date(this.#now()),
        requiredClaims: ['sub', 'iat', 'exp'],
      }));
    } catch (err) {
      throw refusalOf(err);
    }
    // After jwtVerify, so that a token with another alg is reported as such rather than as a bad signature.
    if (Buffer.from(signature, 'base64url').toString('base64url') !== signature) {
      throw new AuthError('token-signature', 'signature is not canonically encoded');
    }
    return claimsOf(payload);
  }
}

function refusalOf(err: unknown): AuthError {
  if (err instanceof errors.JWTExpired) return new AuthError('token-expired', 'token has expired', { cause: err });
  if (err instanceof errors.JWSSignatureVerificationFailed) {
    return new AuthError('token-signature', 'signature verification failed', { cause: err });
  }
  if (err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported) {
    return new AuthError('token-algorithm', `only ${JWT_ALGORITHM} tokens are accepted`, { cause: err });
  }
  if (err instanceof errors.JWTClaimValidationFailed) {
    return new AuthError('token-claims', `claim ${err.claim}: ${err.reason}`, { cause: err });
  }
  if (err instanceof errors.JOSEError) return new AuthError('token-malformed', err.message, { cause: err });
  // Anything else is a fault of ours (a bad key, say), not of the token: let the server see it as such.
  throw err;
}

function claimsOf(payload: Record<string, unknown>): JwtClaims {
  const { sub, role, tv, iat, exp } = payload;
  if (typeof sub !== 'string' || sub === '') throw new AuthError('token-claims', 'claim sub: not a user id');
  if (!isRole(role)) throw new AuthError('token-claims', 'claim role: not admin or user');
  if (!Number.isSafeInteger(tv) || (tv as number) < 0) throw new AuthError('token-claims', 'claim tv: not a token version');
  if (!Number.isSafeInteger(iat) || !Number.isSafeInteger(exp)) {
    throw new AuthError('token-claims', 'claims iat and exp: not whole seconds');
  }
  return { sub, role, tv: tv as number, iat: iat as number, exp: exp as number };
}
