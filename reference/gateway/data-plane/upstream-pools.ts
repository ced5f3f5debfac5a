// One keep-alive pool per upstream origin, with bounded waits (connect, headers, body) and header sizes:
// the work an upstream can cost the gateway is limited.
import { UpstreamPool } from '../../shared/upstream-client/upstream-pool.ts';

export const POOL_LIMITS = {
  /** Connections per origin at most. */
  connections: 256,
  keepAliveTimeoutMs: 10_000,
  connectTimeoutMs: 5_000,
  /** Time allowed for an upstream's response headers (504 after it). */
  headersTimeoutMs: 30_000,
  /** Time allowed between two chunks of an upstream's body. */
  bodyTimeoutMs: 60_000,
  maxHeaderSize: 32 * 1024,
} as const;

export class UpstreamPools {
  readonly #pools = new Map<string, UpstreamPool>();

  get(origin: string): UpstreamPool {
    let pool = this.#pools.get(origin);
    if (pool === undefined) {
      pool = new UpstreamPool(origin, POOL_LIMITS);
      this.#pools.set(origin, pool);
    }
    return pool;
  }

  /** Closes (gracefully: requests under way finish) the pools of origins no longer used. */
  retain(origins: ReadonlySet<string>): void {
    for (const [origin, pool] of this.#pools) {
      if (origins.has(origin)) continue;
      this.#pools.delete(origin);
      pool.close().catch(() => {});
    }
  }

  /** Ends every pool at once, cutting what is still under way. */
  async destroy(): Promise<void> {
    const pools = [...this.#pools.values()];
    this.#pools.clear();
    await Promise.all(pools.map((pool) => pool.destroy().catch(() => {})));
  }
}
