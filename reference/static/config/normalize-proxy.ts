// `proxy`: a target string (everything), an object mapping path prefixes to one target or an array of
// targets (round-robin), or an array of such objects. Flattened once into rules, longest prefix first.
import { ConfigError } from './config-error.ts';
import { childKey, isPlainObject, show, trimSlash } from './check-values.ts';
import type { ProxyRule, ProxyTarget } from './site-config.ts';

export function normalizeProxy(value: unknown, key: string): ProxyRule[] {
  const rules: ProxyRule[] = [];
  const seen = new Map<string, string>();
  const add = (prefix: string, targets: unknown, itemKey: string) => {
    const normalized = normalizePrefix(prefix, itemKey);
    const earlier = seen.get(normalized);
    if (earlier !== undefined) throw new ConfigError(itemKey, `duplicate proxy prefix ${show(prefix)} (also ${earlier})`);
    seen.set(normalized, itemKey);
    rules.push({ prefix: normalized, targets: normalizeTargets(targets, itemKey) });
  };

  if (typeof value === 'string') {
    add('/', value, key);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => {
      const itemKey = `${key}[${i}]`;
      if (!isPlainObject(item) || Object.keys(item).length === 0) {
        throw new ConfigError(itemKey, `must be an object mapping a path prefix to a target (got ${show(item)})`);
      }
      for (const [prefix, targets] of Object.entries(item)) add(prefix, targets, childKey(itemKey, prefix));
    });
  } else if (isPlainObject(value)) {
    for (const [prefix, targets] of Object.entries(value)) add(prefix, targets, childKey(key, prefix));
  } else {
    throw new ConfigError(key, `must be a target URL, an object of path prefixes or an array of them (got ${show(value)})`);
  }
  return rules.sort((a, b) => b.prefix.length - a.prefix.length);
}

function normalizePrefix(prefix: string, key: string): string {
  if (!prefix.startsWith('/')) throw new ConfigError(key, `prefix must start with "/" (got ${show(prefix)})`);
  return trimSlash(prefix);
}

function normalizeTargets(value: unknown, key: string): ProxyTarget[] {
  if (typeof value === 'string') return [parseTarget(value, key)];
  if (Array.isArray(value) && value.length > 0) return value.map((item, i) => parseTarget(item, `${key}[${i}]`));
  throw new ConfigError(key, `must be a target URL or a non-empty array of target URLs (got ${show(value)})`);
}

function parseTarget(value: unknown, key: string): ProxyTarget {
  if (typeof value !== 'string') throw new ConfigError(key, `must be an http:// or https:// URL (got ${show(value)})`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(key, `must be an http:// or https:// URL (got ${show(value)})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(key, `must be an http:// or https:// URL (got ${show(value)})`);
  }
  return { href: value, url };
}
