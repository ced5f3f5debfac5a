// Rate-limit windows and cache entries kept in Redis (a site's `rateLimit.store` or `cache.store: redis`,
// global.redis; redis-cache.ts keeps the entries). A rate-limit window is the same fixed window
// per client as the in-memory bucket (rate-limiter.ts), counted by one Lua script (INCR, PEXPIRE on the first
// request, PTTL when over), so every gateway instance and worker using the Redis shares one count. Redis is
// never waited on: commands are not queued while the connection is down and time out after 500 ms, and a
// request whose check fails is let through (a cache read that fails is a miss) — counted, and logged by the
// gateway's periodic sweep (takeFailures).
// One client per Redis (URL and key prefix), kept across reloads; closed at shutdown.
import type { Redis } from 'ioredis';
import type { RateLimitRule, RedisConfig } from '../config/gateway-config.ts';
import { optionalPackage } from './optional-packages.ts';

const TAKE = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
if n <= tonumber(ARGV[2]) then return 0 end
local left = redis.call('PTTL', KEYS[1])
if left < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) left = tonumber(ARGV[1]) end
return left`;

const COMMAND_TIMEOUT_MS = 500;

type Taking = Redis & { gatewayTake(key: string, windowMs: number, requests: number): Promise<number> };

export class RedisStore {
  readonly url: string;
  readonly #client: Taking;
  #failures = 0;
  #lastError = '';

  constructor(config: RedisConfig) {
    this.url = config.url;
    this.#client = new (optionalPackage('Redis'))(config.url, {
      keyPrefix: config.keyPrefix,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: 2000,
      retryStrategy: (times) => Math.min(times * 200, 2000),
    }) as Taking;
    this.#client.defineCommand('gatewayTake', { numberOfKeys: 1, lua: TAKE });
    this.#client.on('error', (error: Error) => {
      this.#lastError = error.message;
    });
  }

  /** Resolves once connected (true), or false after `timeoutMs`. */
  ready(timeoutMs: number): Promise<boolean> {
    if (this.#client.status === 'ready') return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.#client.off('ready', connected);
        resolve(ok);
      };
      const connected = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.#client.once('ready', connected);
    });
  }

  /** Counts a request in the window `key`: 0 when allowed, else the seconds until it reopens; 0 too when
   * Redis could not be asked (a failure counted). */
  async take(key: string, rule: RateLimitRule): Promise<number> {
    try {
      const left = await this.#client.gatewayTake(key, rule.windowMs, rule.requests);
      return left === 0 ? 0 : Math.max(1, Math.ceil(left / 1000));
    } catch (error) {
      this.#failed(error);
      return 0;
    }
  }

  /** The text kept under `key` (a cache entry); undefined when there is none or Redis could not be asked
   * (a failure counted). */
  async read(key: string): Promise<string | undefined> {
    try {
      return (await this.#client.get(key)) ?? undefined;
    } catch (error) {
      this.#failed(error);
      return undefined;
    }
  }

  /** Keeps `value` under `key` for `ttlMs`; a failure is counted, never thrown. */
  write(key: string, value: string, ttlMs: number): void {
    this.#client.set(key, value, 'PX', ttlMs).catch((error: unknown) => this.#failed(error));
  }

  #failed(error: unknown): void {
    this.#failures++;
    this.#lastError = (error as Error).message;
  }

  /** The requests let through unchecked since the last call, and the last error. */
  takeFailures(): { count: number; error: string } {
    const count = this.#failures;
    this.#failures = 0;
    return { count, error: this.#lastError };
  }

  close(): Promise<void> {
    return this.#client.quit().then(
      () => undefined,
      () => this.#client.disconnect(),
    );
  }
}

const stores = new Map<string, RedisStore>();

/** The store of `config` (one per URL and key prefix in the process). */
export function redisStore(config: RedisConfig): RedisStore {
  const id = `${config.keyPrefix}\n${config.url}`;
  let store = stores.get(id);
  if (store === undefined) {
    store = new RedisStore(config);
    stores.set(id, store);
  }
  return store;
}

export const redisStores = (): Iterable<RedisStore> => stores.values();

export async function closeRedisStores(): Promise<void> {
  const all = [...stores.values()];
  stores.clear();
  await Promise.all(all.map((store) => store.close()));
}
