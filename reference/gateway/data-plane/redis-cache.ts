// A site's response cache kept in Redis (`cache.store: redis`, global.redis), so every gateway instance and
// worker using it shares the entries: the variants of one key are one JSON value (bodies in base64) that
// expires with its newest entry. Redis is never waited on for long (redis-store.ts): a read that fails is a
// miss, a write that fails is dropped. Entries cannot be purged (the document: purging works on the
// in-memory cache only; catalog gateway/cache-purge/redis-backend).
import type { IncomingHttpHeaders } from 'node:http';
import type { RedisStore } from './redis-store.ts';
import { type CachedResponse, MAX_ENTRY_BYTES, pickVariant, type SiteCache, withVariant } from './response-cache.ts';

type Stored = Omit<CachedResponse, 'body'> & { body: string };

function decode(text: string | undefined): CachedResponse[] {
  if (text === undefined) return [];
  try {
    return (JSON.parse(text) as Stored[]).map((entry) => ({ ...entry, body: Buffer.from(entry.body, 'base64') }));
  } catch {
    return [];
  }
}

export class RedisCache implements SiteCache {
  readonly #store: RedisStore;
  readonly #prefix: string;

  /** `prefix` keeps the site's keys apart (its host and the TTL: a changed TTL starts afresh). */
  constructor(
    store: RedisStore,
    prefix: string,
    readonly ttlMs: number,
  ) {
    this.#store = store;
    this.#prefix = prefix;
  }

  async get(key: string, method: string, requestHeaders: IncomingHttpHeaders, now: number, identity: string): Promise<CachedResponse | undefined> {
    return pickVariant(decode(await this.#store.read(this.#prefix + key)), method, requestHeaders, now, identity);
  }

  store(key: string, entry: CachedResponse): void {
    if (entry.body.length > MAX_ENTRY_BYTES) return;
    const redisKey = this.#prefix + key;
    void this.#store.read(redisKey).then((text) => {
      const variants = withVariant(decode(text), entry);
      const stored: Stored[] = variants.map((v) => ({ ...v, body: v.body.toString('base64') }));
      const ttlMs = Math.max(1, Math.max(...variants.map((v) => v.expires)) - Date.now());
      this.#store.write(redisKey, JSON.stringify(stored), ttlMs);
    });
  }

  purge(): undefined {
    return undefined;
  }
}
