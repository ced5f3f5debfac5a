// The response cache of a site, in memory (the Redis one is redis-cache.ts): GET/HEAD 200 answers, keyed by scheme + host without port + path
// + query, so a purge URL with or without a port names the same entry (catalog gateway/cache-purge/*).
// Variants (method, Vary, the identity asking on a site that authenticates) live under one key and are
// dropped together. Entries are bounded in number, variants per key, and bytes in all (least recently stored
// first out), and each in size.
import type { IncomingHttpHeaders } from 'node:http';
import { normalisedTarget } from './request-target.ts';

/** Bodies larger than this pass through without being stored. */
export const MAX_ENTRY_BYTES = 1024 * 1024;
/** The bytes a site's in-memory cache holds at most (the document gives no bound; catalog
 * gateway/cache/memory-bound). */
export const MAX_CACHE_BYTES = 64 * 1024 * 1024;

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
  /** Who asked, on a site that authenticates ('' elsewhere): an answer is served to the same identity only
   * (SiteAuth.identity). */
  identity: string;
}

/** `http://host/path?query` from a request: the host of its Host header (without the port) and its target as
 * the pipeline normalised it (request-target.ts), taken as it is: never resolved again, so the key names what
 * was routed and forwarded (`//other.host/x` is a path here, not a host). Undefined when the Host header is
 * no host. */
export function requestKey(scheme: string, host: string | undefined, target: string): string | undefined {
  if (host === undefined || /[/?#@\\\s]/.test(host)) return undefined;
  let hostname: string;
  try {
    ({ hostname } = new URL(`${scheme}://${host}/`));
  } catch {
    return undefined;
  }
  return `${scheme}://${hostname}${target}`;
}

/** The same key from a purge URL (its target normalised as a request's is); undefined when it is not an
 * absolute URL. */
export function purgeKey(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const { protocol, host } = new URL(url);
  const authorityEnd = url.indexOf('//') + 2;
  const slash = url.slice(authorityEnd).search(/[/?#]/);
  const rest = slash === -1 ? '/' : url.slice(authorityEnd + slash).replace(/#.*$/, '');
  const target = normalisedTarget(rest.startsWith('/') ? rest : `/${rest}`);
  return target === undefined ? undefined : requestKey(protocol.slice(0, -1), host, target);
}

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

/** The fresh variant of `variants` for the request (of `identity`); a HEAD may be answered from a stored GET. */
export function pickVariant(
  variants: readonly CachedResponse[],
  method: string,
  requestHeaders: IncomingHttpHeaders,
  now: number,
  identity: string,
): CachedResponse | undefined {
  let found: CachedResponse | undefined;
  for (const entry of variants) {
    if (entry.expires <= now || entry.identity !== identity) continue;
    if (entry.method !== method && !(method === 'HEAD' && entry.method === 'GET')) continue;
    if (!entry.vary.every((name, i) => headerValue(requestHeaders, name) === entry.varyValues[i])) continue;
    if (found === undefined || entry.method === method) found = entry;
  }
  return found;
}

/** Variants kept under one key at most (of methods, Vary values and identities): the oldest go first. */
export const MAX_VARIANTS = 16;

/** `variants` with `entry` in place of the one it replaces (same method, Vary values and identity), expired
 * ones out, at most MAX_VARIANTS. */
export function withVariant(variants: readonly CachedResponse[], entry: CachedResponse): CachedResponse[] {
  const same = (old: CachedResponse): boolean =>
    old.method === entry.method && old.identity === entry.identity && old.varyValues.join('\n') === entry.varyValues.join('\n');
  const fresh = variants.filter((old) => old.expires > entry.storedAt && !same(old));
  fresh.push(entry);
  return fresh.slice(-MAX_VARIANTS);
}

/** Bytes an entry holds: its body, and its headers and Vary values as text. */
export function entryBytes(entry: CachedResponse): number {
  let bytes = entry.body.length + 256 + entry.identity.length;
  for (const [name, value] of Object.entries(entry.headers)) bytes += name.length + String(value).length + 4;
  for (const value of entry.varyValues) bytes += value.length;
  return bytes;
}

/** A site's cache: in this process's memory (below) or in Redis (redis-cache.ts, read asynchronously). */
export interface SiteCache {
  readonly ttlMs: number;
  get(key: string, method: string, requestHeaders: IncomingHttpHeaders, now: number, identity: string): CachedResponse | undefined | Promise<CachedResponse | undefined>;
  store(key: string, entry: CachedResponse): void;
  /** Drops every variant of the key (true when something fresh was there); undefined when the store cannot
   * be purged (Redis). */
  purge(key: string, now: number): boolean | undefined;
}

export class ResponseCache implements SiteCache {
  /** Per key its variants and the bytes they hold (least recently stored first). */
  readonly #entries = new Map<string, { variants: CachedResponse[]; bytes: number }>();
  #total = 0;

  /** `maxBytes`: the bytes all entries may hold together (least recently stored first out). */
  constructor(
    readonly ttlMs: number,
    readonly maxEntries: number,
    readonly maxBytes = MAX_CACHE_BYTES,
  ) {}

  /** Bytes held now (bodies, headers, Vary values). */
  get bytes(): number {
    return this.#total;
  }

  get(key: string, method: string, requestHeaders: IncomingHttpHeaders, now: number, identity: string): CachedResponse | undefined {
    const held = this.#entries.get(key);
    return held === undefined ? undefined : pickVariant(held.variants, method, requestHeaders, now, identity);
  }

  store(key: string, entry: CachedResponse): void {
    const variants = withVariant(this.#entries.get(key)?.variants ?? [], entry);
    this.#drop(key);
    const bytes = variants.reduce((n, e) => n + entryBytes(e), 0);
    if (bytes > this.maxBytes) return;
    this.#entries.set(key, { variants, bytes });
    this.#total += bytes;
    while (this.#entries.size > this.maxEntries || this.#total > this.maxBytes) this.#drop(this.#entries.keys().next().value as string);
  }

  /** Drops every variant of the key; true when something was there. */
  purge(key: string, now: number): boolean {
    const held = this.#entries.get(key);
    this.#drop(key);
    return held?.variants.some((entry) => entry.expires > now) ?? false;
  }

  #drop(key: string): void {
    this.#total -= this.#entries.get(key)?.bytes ?? 0;
    this.#entries.delete(key);
  }
}
