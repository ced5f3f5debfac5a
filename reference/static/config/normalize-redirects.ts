// `redirects`: `{"/from": "/to"}`, `{"/from": {"to", "status"}}` or `[{"from", "to", "status"}]`.
// Every rule gets its status checked against the allowed set once, here.
import { validateHeaderValue } from 'node:http';
import { ConfigError } from './config-error.ts';
import { childKey, isPlainObject, show } from './check-values.ts';
import { DEFAULT_REDIRECT_STATUS, REDIRECT_STATUSES, type RedirectRule, type RedirectStatus } from './site-config.ts';

export function normalizeRedirects(value: unknown, key: string): RedirectRule[] {
  if (Array.isArray(value)) {
    return value.map((item, i) => {
      const itemKey = `${key}[${i}]`;
      if (!isPlainObject(item)) throw new ConfigError(itemKey, `must be an object with "from" and "to" (got ${show(item)})`);
      return {
        from: expectFrom(item.from, `${itemKey}.from`),
        to: expectTo(item.to, `${itemKey}.to`),
        status: expectStatus(item.status, `${itemKey}.status`),
      };
    });
  }
  if (isPlainObject(value)) {
    return Object.entries(value).map(([from, target]) => {
      const itemKey = childKey(key, from);
      expectFrom(from, itemKey);
      if (typeof target === 'string') return { from, to: expectTo(target, itemKey), status: DEFAULT_REDIRECT_STATUS };
      if (!isPlainObject(target)) {
        throw new ConfigError(itemKey, `must be a destination string or an object with "to" (got ${show(target)})`);
      }
      return { from, to: expectTo(target.to, `${itemKey}.to`), status: expectStatus(target.status, `${itemKey}.status`) };
    });
  }
  throw new ConfigError(key, `must be an object or an array of {from, to, status} (got ${show(value)})`);
}

function expectFrom(value: unknown, key: string): string {
  if (typeof value !== 'string' || !value.startsWith('/')) {
    throw new ConfigError(key, `must be a path starting with "/" (got ${show(value)})`);
  }
  return value;
}

function expectTo(value: unknown, key: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new ConfigError(key, `must be a non-empty destination string (got ${show(value)})`);
  }
  try {
    validateHeaderValue('Location', value);
  } catch {
    throw new ConfigError(key, `is not a valid Location header value (got ${show(value)})`);
  }
  return value;
}

function expectStatus(value: unknown, key: string): RedirectStatus {
  if (value === undefined) return DEFAULT_REDIRECT_STATUS;
  if (!REDIRECT_STATUSES.includes(value as RedirectStatus)) {
    throw new ConfigError(key, `must be one of ${REDIRECT_STATUSES.join(', ')} (got ${show(value)})`);
  }
  return value as RedirectStatus;
}
