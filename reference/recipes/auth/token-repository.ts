// Where one-time tokens live. The auth module only needs these few operations; the server backs them with the
// store, tests with MemoryTokenRepository. The repository sees hashes only, never a usable token.

export const ONE_TIME_KINDS = ['verify-email', 'reset-password', 'invite'] as const;
export type OneTimeKind = (typeof ONE_TIME_KINDS)[number];

export interface OneTimeTokenRecord {
  /** Public id (a UUID): how an invite is listed and revoked. Not the token. */
  readonly id: string;
  readonly kind: OneTimeKind;
  /** SHA-256 of the token, lower-case hex. */
  readonly tokenHash: string;
  /** The user the token acts for (verify-email, reset-password); null for invites. */
  readonly subject: string | null;
  /** Who created it (the admin of an invite); null otherwise. */
  readonly createdBy: string | null;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  /** Milliseconds since the epoch; the token is valid while now < expiresAt. */
  readonly expiresAt: number;
}

export interface TokenRepository {
  /** Stores `record`. With `replace`, first removes every record of the same kind and subject, in the same write. */
  put(record: OneTimeTokenRecord, options?: { replace?: boolean }): Promise<void>;
  /**
   * Removes and returns the record of that kind and hash, atomically: of two concurrent takes of one token, one
   * gets the record and the other undefined. A record of another kind is left alone.
   */
  take(kind: OneTimeKind, tokenHash: string): Promise<OneTimeTokenRecord | undefined>;
  /** The record of that kind and hash, left in place. */
  find(kind: OneTimeKind, tokenHash: string): Promise<OneTimeTokenRecord | undefined>;
  /** Every record of that kind, expired ones included, in any order. */
  list(kind: OneTimeKind): Promise<OneTimeTokenRecord[]>;
  /** Removes the record of that kind and id; whether there was one. */
  remove(kind: OneTimeKind, id: string): Promise<boolean>;
  /** Removes every record whose subject is `subject` (a deleted user); how many. */
  removeSubject(subject: string): Promise<number>;
  /** Removes every record with expiresAt <= now; how many. */
  removeExpired(now: number): Promise<number>;
}

/** A TokenRepository in memory, for tests and for a server without persistence. */
export class MemoryTokenRepository implements TokenRepository {
  readonly #records = new Map<string, OneTimeTokenRecord>();

  async put(record: OneTimeTokenRecord, options: { replace?: boolean } = {}): Promise<void> {
    if (options.replace) this.#removeWhere((r) => r.kind === record.kind && r.subject === record.subject);
    this.#records.set(record.tokenHash, record);
  }

  async take(kind: OneTimeKind, tokenHash: string): Promise<OneTimeTokenRecord | undefined> {
    const record = this.#records.get(tokenHash);
    if (record?.kind !== kind) return undefined;
    this.#records.delete(tokenHash);
    return record;
  }

  async find(kind: OneTimeKind, tokenHash: string): Promise<OneTimeTokenRecord | undefined> {
    const record = this.#records.get(tokenHash);
    return record?.kind === kind ? record : undefined;
  }

  async list(kind: OneTimeKind): Promise<OneTimeTokenRecord[]> {
    return [...this.#records.values()].filter((r) => r.kind === kind);
  }

  async remove(kind: OneTimeKind, id: string): Promise<boolean> {
    return this.#removeWhere((r) => r.kind === kind && r.id === id) > 0;
  }

  async removeSubject(subject: string): Promise<number> {
    return this.#removeWhere((r) => r.subject === subject);
  }

  async removeExpired(now: number): Promise<number> {
    return this.#removeWhere((r) => r.expiresAt <= now);
  }

  /** How many records are held (tests). */
  get size(): number {
    return this.#records.size;
  }

  #removeWhere(match: (record: OneTimeTokenRecord) => boolean): number {
    let removed = 0;
    for (const [hash, record] of this.#records) {
      if (match(record)) {
        this.#records.delete(hash);
        removed++;
      }
    }
    return removed;
  }
}
