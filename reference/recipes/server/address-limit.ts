// A bound on how often one key (an email address) may be used in a window: forgot-password takes at most
// RESET_REQUESTS_PER_ADDRESS per address per RESET_WINDOW_MS (catalog recipes/email/links-in-answer-exposure,
// recipes/limits/rate-limiting). Known and unknown addresses are counted alike, so the limit says nothing about
// which addresses have accounts. Kept in memory, at most MAX_KEYS addresses (the oldest forgotten first).
import { ApiError } from './api-error.ts';

export const RESET_REQUESTS_PER_ADDRESS = 3;
export const RESET_WINDOW_MS = 15 * 60_000;
const MAX_KEYS = 10_000;

export class AddressLimit {
  readonly #max: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  /** Key → times of its requests in the window, oldest first; the Map's order is first use. */
  readonly #uses = new Map<string, number[]>();

  constructor(max = RESET_REQUESTS_PER_ADDRESS, windowMs = RESET_WINDOW_MS, now: () => number = Date.now) {
    this.#max = max;
    this.#windowMs = windowMs;
    this.#now = now;
  }

  /** Counts a request for `key`, or a 429 (Retry-After: when the oldest one in the window leaves it). */
  take(key: string): void {
    const now = this.#now();
    const since = now - this.#windowMs;
    const times = (this.#uses.get(key) ?? []).filter((time) => time > since);
    if (times.length >= this.#max) {
      const retryAfter = Math.max(1, Math.ceil((times[0]! + this.#windowMs - now) / 1000));
      const minutes = Math.ceil(retryAfter / 60);
      throw new ApiError(429, `Too many password reset requests for this address; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`, {
        headers: { 'Retry-After': String(retryAfter) },
      });
    }
    times.push(now);
    this.#uses.delete(key);
    this.#uses.set(key, times);
    if (this.#uses.size > MAX_KEYS) this.#forget(since);
  }

  /** Drops the keys with nothing in the window; then, if still full, the least recently used. */
  #forget(since: number): void {
    for (const [key, times] of this.#uses) if (times[times.length - 1]! <= since) this.#uses.delete(key);
    for (const key of this.#uses.keys()) {
      if (this.#uses.size <= MAX_KEYS) break;
      this.#uses.delete(key);
    }
  }
}
