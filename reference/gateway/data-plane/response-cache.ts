// The response cache of a site, in memory (the Redis one is redis-cache.ts): GET/HEAD 200 answers, keyed by scheme + host without port + path
// + query, so a purge URL with or without a port names the same entry (catalog gateway/cache-purge/*).
// Variants (method, Vary) live under one key and are dropped together. Entries are bounded in number
// (least recently stored first out) and in size.
import type { IncomingHttpHeaders } from 'node:http';

/** Bodies larger than this pass through without being stored. */
export const MAX_ENTRY_BYTES = 1024 * 1024;

export interface CachedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  storedAt: number;
  expires: number;
  method: string;
  /** Request header values named by the response's Vary, in order. */
  vary: readonly string[];
  varyValues: readonly string[];
}

/** `http://host/path?query` from a request; undefined when the Host header cannot be read. */
export function requestKey(scheme: string, host: string | undefined, url: string | undefined): string | undefined {
  if (host === undefined || url === undefined || !URL.canParse(url, `${scheme}://${host}`)) return undefined;
  return urlKey(new URL(url, `${scheme}://${host}`));
}

/** The same key from a purge URL; undefined when it is not an absolute URL. */
export function purgeKey(url: string): string | undefined {
  return URL.canParse(url) ? urlKey(new URL(url)) : undefined;
}

const urlKey = (url: URL): string => `${url.protocol}//${url.hostname}${url.pathname}${url.search}`;

export function varyNames(headers: IncomingHttpHeaders): string[] | undefined {
  const vary = headers['vary'];
  if (vary === undefined) return [];
  const names = vary
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  return names.includes('*') ? undefined : names;
}

const headerValue = (headers: IncomingHttpHeaders, name: string): string => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
};

export function varyValues(requestHeaders: IncomingHttpHeaders, names: readonly string[]): string[] {
  return names.map((name) => headerValue(requestHeaders, name));
}

/** The fresh variant of `variants` for the request; a HEAD may be answered from a stored GET. */
export function pickVariant(variants: readonly CachedResponse[], method: string, requestHeaders: IncomingHttpHeaders, now: number): CachedResponse | undefined {
  let found: CachedResponse | undefined;
  for (const entry of variants) {
    if (entry.expires <= now) continue;
    if (entry.method !== method && !(method === 'HEAD' && entry.method === 'GET')) continue;
    if (!entry.vary.every((name, i) => headerValue(requestHeaders, name) === entry.varyValues[i])) continue;
    if (found === undefined || entry.method === method) found = entry;
  }
  return found;
}

/** `variants` with `entry` in place of the one it replaces (same method and Vary values), expired ones out. */
export function withVariant(variants: readonly CachedResponse[], entry: CachedResponse): CachedResponse[] {
  const fresh = variants.filter(
    (old) => old.expires > entry.storedAt && !(old.method === entry.method && old.varyValues.join('\n') === entry.varyValues.join('\n')),
  );
  fresh.push(entry);
  return fresh;
}

/** A site's cache: in this process's memory (below) or in Redis (redis-cache.ts, read asynchronously). */
export interface SiteCache {
  readonly ttlMs: number;
  get(key: string, method: string, requestHeaders: IncomingHttpHeaders, now: number): CachedResponse | undefined | Promise<CachedResponse | undefined>;
  store(key: string, entry: CachedResponse): void;
  /** Drops every variant of the key (true when something fresh was there); undefined when the store cannot
   * be purged (Redis). */
  purge(key: string, now: number): boolean | undefined;
}

export class ResponseCache implements SiteCache {
  readonly #entries = new Map<string, CachedResponse[]>();

  constructor(
    readonly ttlMs: number,
    readonly maxEntries: number,
  ) {}

  get(key: string, method: string, requestHeaders: IncomingHttpHeaders, now: number): CachedResponse | undefined {
    const variants = this.#entries.get(key);
    return variants === undefined ? undefined : pickVariant(variants, method, requestHeaders, now);
  }

  store(key: string, entry: CachedResponse): void {
    const fresh = withVariant(this.#entries.get(key) ?? [], entry);
    this.#entries.delete(key);
    this.#entries.set(key, fresh);
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  /** Drops every variant of the key; true when something was there. */
  purge(key: string, now: number): boolean {
    const variants = this.#entries.get(key);
    this.#entries.delete(key);
    return variants?.some((entry) => entry.expires > now) ?? false;
  }
}
