// The proxy's targets, prepared at startup: one keep-alive pool per upstream origin (the upstream client the
// gateway reference uses too), the Host header each target gets, and how a request's URL becomes the request
// target sent to it.
//
// The request target is the one http-proxy built when the proxy ran on it: the URL through the legacy
// url.parse (fragment cut, a few characters escaped, backslashes before the query made slashes), appended to the
// target's own path with repeated slashes collapsed; a path holding characters that cannot go on a request
// line is refused with node:http's own error. The common URL, which none of that changes, is recognised by one
// regular expression and costs one concatenation.
import { maxHeaderSize } from 'node:http';
import { parse } from 'node:url';
import { type PoolLimits, UpstreamPool } from '../../shared/upstream-client/upstream-pool.ts';
import type { ProxyRule } from '../config/site-config.ts';

/** No limits of the proxy's own on an upstream's time, as before: a slow upstream is waited for (the system's
 * connect timeout still applies) and connections per origin are not capped. An idle connection is kept 10 s at
 * most, and closed a second before the upstream's own Keep-Alive timeout when it gives one. */
const POOL_LIMITS: PoolLimits = {
  connections: Number.POSITIVE_INFINITY,
  keepAliveTimeoutMs: 10_000,
  // The longest delay a Node timer takes (a longer one would fire at once).
  connectTimeoutMs: 2 ** 31 - 1,
  headersTimeoutMs: Number.POSITIVE_INFINITY,
  bodyTimeoutMs: Number.POSITIVE_INFINITY,
  // node:http's own limit (`--max-http-header-size`), which its client applied to answers.
  maxHeaderSize,
};

export interface Target {
  pool: UpstreamPool;
  /** The Host header sent (the target URL's host, with its port when not the default). */
  host: string;
  /** The target URL's path, prepended to the forwarded path ('' for `/`). */
  basePath: string;
  /** What the forwarded path of a plain URL is appended to, or null when every URL takes the slow way. */
  plainPrefix: string | null;
}

export interface Rule {
  prefix: string;
  targets: Target[];
  turn: number;
}

export interface TargetTable {
  rules: Rule[];
  /** Ends every pool, cutting requests under way. */
  destroy(): Promise<void>;
}

export function createTargets(rules: ProxyRule[]): TargetTable {
  const pools = new Map<string, UpstreamPool>();
  const table = rules.map((rule) => ({
    prefix: rule.prefix,
    turn: 0,
    targets: rule.targets.map(({ url }): Target => {
      let pool = pools.get(url.origin);
      if (pool === undefined) {
        pool = new UpstreamPool(url.origin, POOL_LIMITS);
        pools.set(url.origin, pool);
      }
      const basePath = url.pathname === '/' ? '' : url.pathname;
      return { pool, host: url.host, basePath, plainPrefix: plainPrefix(basePath) };
    }),
  }));
  return {
    rules: table,
    async destroy() {
      await Promise.all([...pools.values()].map((pool) => pool.destroy()));
    },
  };
}

/**
 * A URL that url.parse and the join leave as they are: it starts with `/`, holds only printable ASCII but
 * none of the characters url.parse escapes or cuts at, and its path (before `?`) has no `//` and nothing the
 * join would take for a URL scheme. Anything else takes the slow way, which is exact.
 */
const NOT_PLAIN = /^[^/]|^[^?]*(?:\/\/|https?:\/)|[^\x21-\x7e]|["#'<>\\^`{|}]/;

/** Characters node:http refuses on a request line (ERR_UNESCAPED_CHARACTERS). */
const UNSENDABLE = /[^\u0021-\u00ff]/;

/** The request target for `url` (the request's URL, dot segments already resolved) at `target`. */
export function upstreamPath(target: Target, url: string): string {
  if (target.plainPrefix !== null && !NOT_PLAIN.test(url)) return target.plainPrefix + url;
  const path = joinPaths(target.basePath, parse(url).path ?? '');
  if (UNSENDABLE.test(path)) {
    throw Object.assign(new TypeError('Request path contains unescaped characters'), { code: 'ERR_UNESCAPED_CHARACTERS' });
  }
  return path;
}

/** http-proxy's urlJoin for a target path and a URL path: joined with `/`, repeated slashes collapsed before
 * the query (and `http:/`, `https:/` given back their second slash), the query kept as it is. */
export function joinPaths(basePath: string, path: string): string {
  const [beforeQuery, ...queries] = path.split('?');
  const joined = [basePath, beforeQuery]
    .filter(Boolean)
    .join('/')
    .replace(/\/+/g, '/')
    .replace('http:/', 'http://')
    .replace('https:/', 'https://');
  return [joined, ...queries].join('?');
}

/** The string the join turns a target path into before a plain URL, or null when that is not a plain prefix. */
function plainPrefix(basePath: string): string | null {
  const prefix = joinPaths(basePath, '/').slice(0, -1);
  return joinPaths(basePath, '/probe?q') === `${prefix}/probe?q` ? prefix : null;
}
