// The auth module's TokenRepository backed by the durable store. Verification and reset tokens live in
// `tokens`, keyed by their hash; invites in `invites`, keyed by their public id (they are listed and revoked by
// it). Each change is one store update, so it is on disk when the promise resolves, and a take runs alone
// against the document: of two concurrent takes of one token exactly one finds it. Times are ISO strings in the
// document and milliseconds in the records.
import type { OneTimeKind, OneTimeTokenRecord, TokenRepository } from '../auth/index.ts';
import type { DeepReadonly, Invite, OneTimeToken, RecipesData, RecipesStore } from '../store/index.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const ms = (text: string) => Date.parse(text);

function tokenRecord(tokenHash: string, t: DeepReadonly<OneTimeToken>): OneTimeTokenRecord {
  return {
    id: t.id,
    kind: t.purpose,
    tokenHash,
    subject: t.userId,
    createdBy: null,
    createdAt: ms(t.createdAt),
    expiresAt: ms(t.expiresAt),
  };
}

function inviteRecord(i: DeepReadonly<Invite>): OneTimeTokenRecord {
  return {
    id: i.id,
    kind: 'invite',
    tokenHash: i.tokenHash,
    subject: null,
    createdBy: i.createdBy,
    createdAt: ms(i.createdAt),
    expiresAt: ms(i.expiresAt),
  };
}

/** Invites by token hash: a scan, as invites are few (an admin makes them one by one). */
function inviteByHash(data: DeepReadonly<RecipesData>, tokenHash: string): DeepReadonly<Invite> | undefined {
  for (const invite of Object.values(data.invites)) if (invite.tokenHash === tokenHash) return invite;
  return undefined;
}

function findIn(data: DeepReadonly<RecipesData>, kind: OneTimeKind, tokenHash: string): OneTimeTokenRecord | undefined {
  if (kind === 'invite') {
    const invite = inviteByHash(data, tokenHash);
    return invite && inviteRecord(invite);
  }
  const token = data.tokens[tokenHash];
  return token?.purpose === kind ? tokenRecord(tokenHash, token) : undefined;
}

function removeWhere<T>(collection: Record<string, T>, match: (key: string, value: T) => boolean): number {
  let removed = 0;
  for (const [key, value] of Object.entries(collection)) {
    if (match(key, value)) {
      delete collection[key];
      removed++;
    }
  }
  return removed;
}

export class StoreTokenRepository implements TokenRepository {
  readonly #store: RecipesStore;

  constructor(store: RecipesStore) {
    this.#store = store;
  }

  async put(record: OneTimeTokenRecord, options: { replace?: boolean } = {}): Promise<void> {
    await this.#store.update((draft) => {
      if (record.kind === 'invite') {
        if (options.replace) removeWhere(draft.invites, () => record.subject === null);
        draft.invites[record.id] = {
          id: record.id,
          tokenHash: record.tokenHash,
          createdBy: record.createdBy,
          createdAt: iso(record.createdAt),
          expiresAt: iso(record.expiresAt),
        };
        return;
      }
      if (record.subject === null) throw new TypeError(`a ${record.kind} token needs a subject`);
      if (options.replace) removeWhere(draft.tokens, (_, t) => t.purpose === record.kind && t.userId === record.subject);
      draft.tokens[record.tokenHash] = {
        id: record.id,
        purpose: record.kind,
        userId: record.subject,
        createdAt: iso(record.createdAt),
        expiresAt: iso(record.expiresAt),
      };
    });
  }

  take(kind: OneTimeKind, tokenHash: string): Promise<OneTimeTokenRecord | undefined> {
    return this.#store.update((draft) => {
      const found = findIn(draft, kind, tokenHash);
      if (found === undefined) return undefined;
      if (kind === 'invite') delete draft.invites[found.id];
      else delete draft.tokens[tokenHash];
      return found;
    });
  }

  async find(kind: OneTimeKind, tokenHash: string): Promise<OneTimeTokenRecord | undefined> {
    return findIn(this.#store.data, kind, tokenHash);
  }

  async list(kind: OneTimeKind): Promise<OneTimeTokenRecord[]> {
    const { data } = this.#store;
    if (kind === 'invite') return Object.values(data.invites).map(inviteRecord);
    return Object.entries(data.tokens)
      .filter(([, t]) => t.purpose === kind)
      .map(([hash, t]) => tokenRecord(hash, t));
  }

  remove(kind: OneTimeKind, id: string): Promise<boolean> {
    return this.#store.update((draft) => {
      if (kind === 'invite') return removeWhere(draft.invites, (key) => key === id) > 0;
      return removeWhere(draft.tokens, (_, t) => t.purpose === kind && t.id === id) > 0;
    });
  }

  removeSubject(subject: string): Promise<number> {
    return this.#store.update((draft) => removeWhere(draft.tokens, (_, t) => t.userId === subject));
  }

  removeExpired(now: number): Promise<number> {
    return this.#store.update((draft) => {
      const expired = (value: { expiresAt: string }) => ms(value.expiresAt) <= now;
      return removeWhere(draft.tokens, (_, t) => expired(t)) + removeWhere(draft.invites, (_, i) => expired(i));
    });
  }
}
