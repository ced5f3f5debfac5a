// One in-memory rate-limit bucket: a fixed window per client address, and the bucket's totals over all
// clients (catalog gateway/rate-limits/*). Totals only grow until the bucket is replaced (reload, restart).
import type { RateLimitRule } from '../config/gateway-config.ts';

interface Window {
  start: number;
  count: number;
}

export class RateBucket {
  passed = 0;
  rejected = 0;
  readonly #clients = new Map<string, Window>();

  constructor(readonly rule: RateLimitRule) {}

  /** Counts the request against the client's window: 0 when allowed, else the seconds until it reopens. */
  take(client: string, now: number): number {
    let window = this.#clients.get(client);
    if (window === undefined || now - window.start >= this.rule.windowMs) {
      window = { start: now, count: 0 };
      this.#clients.set(client, window);
    }
    if (window.count < this.rule.requests) {
      window.count++;
      return 0;
    }
    return Math.max(1, Math.ceil((window.start + this.rule.windowMs - now) / 1000));
  }

  /** Forgets the clients whose window is over (the periodic sweep). */
  sweep(now: number): void {
    for (const [client, window] of this.#clients) {
      if (now - window.start >= this.rule.windowMs) this.#clients.delete(client);
    }
  }

  counters(): { passed: number; rejected: number } {
    return { passed: this.passed, rejected: this.rejected };
  }
}
