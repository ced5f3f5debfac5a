// One-time tokens for email verification, password reset and invites (catalog recipes/auth/verification-token-
// lifetime, reset-token-lifetime, recipes/invites/*).
//
// A token is 32 random bytes (crypto.randomBytes), base64url: 43 URL-safe characters. Only its SHA-256 is
// stored, so a leaked store holds no usable token (a fast hash suffices: the input is 256 random bits, not a
// password). A token is single-use — redeeming takes it out of the repository atomically — and expires:
// verification 24 hours, reset 1 hour, invite 7 days after issue. Issuing a verification or reset token
// replaces the user's earlier unused one of that kind; invites accumulate until used, revoked or expired.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { AuthError } from './auth-error.ts';
import type { OneTimeKind, OneTimeTokenRecord, TokenRepository } from './token-repository.ts';

const HOUR_MS = 60 * 60 * 1000;

export const ONE_TIME_LIFETIMES_MS: Readonly<Record<OneTimeKind, number>> = Object.freeze({
  'verify-email': 24 * HOUR_MS,
  'reset-password': HOUR_MS,
  invite: 7 * 24 * HOUR_MS,
});

export const ONE_TIME_TOKEN_BYTES = 32;
/** What a token we issued looks like: anything else is refused without a repository call. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface OneTimeTokensOptions {
  /** The clock, milliseconds since the epoch (tests move it). */
  readonly now?: () => number;
  /** Lifetimes other than ONE_TIME_LIFETIMES_MS (tests). */
  readonly lifetimesMs?: Partial<Record<OneTimeKind, number>>;
}

export interface IssuedToken {
  /** The token to put in the link: shown once, never stored. */
  readonly token: string;
  readonly record: OneTimeTokenRecord;
}

/** SHA-256 of a token, lower-case hex: the repository's key. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export class OneTimeTokens {
  readonly #repository: TokenRepository;
  readonly #now: () => number;
  readonly #lifetimes: Readonly<Record<OneTimeKind, number>>;

  constructor(repository: TokenRepository, options: OneTimeTokensOptions = {}) {
    this.#repository = repository;
    this.#now = options.now ?? Date.now;
    this.#lifetimes = { ...ONE_TIME_LIFETIMES_MS, ...options.lifetimesMs };
  }

  /** The lifetime of tokens of `kind`, in milliseconds (for the text of a mail). */
  lifetimeMs(kind: OneTimeKind): number {
    return this.#lifetimes[kind];
  }

  /**
   * A new token. `subject` is the user it acts for: required for verify-email and reset-password (whose earlier
   * unused token it replaces), null for an invite. `lifetimeMs`: shorter than the kind's (a reset link returned
   * in an answer rather than mailed).
   */
  async issue(kind: OneTimeKind, subject: string | null, createdBy: string | null = null, lifetimeMs?: number): Promise<IssuedToken> {
    if ((kind === 'invite') !== (subject === null)) {
      throw new TypeError(`a ${kind} token ${kind === 'invite' ? 'has no' : 'needs a'} subject`);
    }
    const token = randomBytes(ONE_TIME_TOKEN_BYTES).toString('base64url');
    const createdAt = this.#now();
    const record: OneTimeTokenRecord = {
      id: randomUUID(),
      kind,
      tokenHash: hashToken(token),
      subject,
      createdBy,
      createdAt,
      expiresAt: createdAt + (lifetimeMs ?? this.#lifetimes[kind]),
    };
    await this.#repository.put(record, { replace: subject !== null });
    return { token, record };
  }

  /** Uses up `token`: its record, or an AuthError (one-time-invalid, one-time-expired). Never succeeds twice. */
  async redeem(kind: OneTimeKind, token: unknown): Promise<OneTimeTokenRecord> {
    if (!isTokenShaped(token)) throw invalid(kind);
    return this.#valid(kind, await this.#repository.take(kind, hashToken(token)));
  }

  /** Like redeem, but leaves the token usable: to validate an invite before the rest of a registration. */
  async check(kind: OneTimeKind, token: unknown): Promise<OneTimeTokenRecord> {
    if (!isTokenShaped(token)) throw invalid(kind);
    return this.#valid(kind, await this.#repository.find(kind, hashToken(token)));
  }

  /** The tokens of `kind` still usable: not used, not revoked, not expired; newest first. */
  async listActive(kind: OneTimeKind): Promise<OneTimeTokenRecord[]> {
    const now = this.#now();
    const active = (await this.#repository.list(kind)).filter((r) => r.expiresAt > now);
    return active.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1));
  }

  /** Revokes the token with public id `id`; false when there is no active one (unknown, used, expired). */
  async revoke(kind: OneTimeKind, id: string): Promise<boolean> {
    const active = (await this.listActive(kind)).some((r) => r.id === id);
    return active && (await this.#repository.remove(kind, id));
  }

  /** Drops every token acting for `subject` (the user was deleted). */
  async forgetSubject(subject: string): Promise<void> {
    await this.#repository.removeSubject(subject);
  }

  /** Drops expired tokens (housekeeping: at start-up and now and then); how many. */
  async sweep(): Promise<number> {
    return this.#repository.removeExpired(this.#now());
  }

  #valid(kind: OneTimeKind, record: OneTimeTokenRecord | undefined): OneTimeTokenRecord {
    if (record === undefined) throw invalid(kind);
    if (record.expiresAt <= this.#now()) throw new AuthError('one-time-expired', `${kind} token has expired`);
    return record;
  }
}

function isTokenShaped(token: unknown): token is string {
  return typeof token === 'string' && TOKEN_SHAPE.test(token);
}

const invalid = (kind: OneTimeKind) => new AuthError('one-time-invalid', `${kind} token is unknown, used or revoked`);
