// Reverse proxy. Rules are matched on a path-segment boundary, longest prefix first; several targets for one
// prefix take turns. Dot segments are resolved before matching (and the resolved path is what goes upstream),
// so `/api/../x` is not forwarded under `/api`. Requests go through keep-alive pools, one per upstream origin
// (proxy-targets.ts), with their headers as proxy-headers.ts says; any upstream failure becomes a 502
// (proxy-exchange.ts). Request and answer bodies are streamed, never held.
//
// This replaced http-proxy, which cost more than the forwarding itself: per request it parsed the URL, built
// its options and a node:http ClientRequest through an Agent, and piped two streams. The upstream client
// parses answers with Node's own parser straight from the socket and writes the heads of bodiless requests
// once per turn of the event loop, which wakes an upstream on the same core once for a batch of requests.
import type { ProxyRule } from '../config/site-config.ts';
import type { Handler } from '../site/handler.ts';
import { ProxyExchange } from './proxy-exchange.ts';
import { upstreamHead } from './proxy-headers.ts';
import { createTargets, type Rule, upstreamPath } from './proxy-targets.ts';

export interface ProxyFeature {
  handler: Handler;
  /** Drops the pooled upstream connections (cutting requests under way). */
  close(): Promise<void>;
}

export async function createProxy(rules: ProxyRule[]): Promise<ProxyFeature> {
  const targets = createTargets(rules);
  const table = targets.rules;

  const handler: Handler = (req, res, next) => {
    const path = removeDotSegments(req.path);
    const rule = findRule(table, path);
    if (rule === null) return next();
    let url = req.url;
    if (path !== req.path) {
      const query = url.indexOf('?');
      url = query === -1 ? path : path + url.slice(query);
    }
    const list = rule.targets;
    const target = list.length === 1 ? list[0]! : list[rule.turn++ % list.length]!;
    if (rule.turn >= Number.MAX_SAFE_INTEGER) rule.turn = 0;
    const head = upstreamHead(req, target.host);
    target.pool.dispatch(
      { method: req.method ?? 'GET', path: upstreamPath(target, url), headers: head.headers, body: head.body === 'stream' ? req : null },
      new ProxyExchange(req, res),
    );
  };

  return { handler, close: () => targets.destroy() };
}

/** `/api` matches `/api`, `/api/x` (and `/api?q`, whose path is `/api`), never `/apix`. */
function findRule(table: Rule[], path: string): Rule | null {
  for (const rule of table) {
    const prefix = rule.prefix;
    if (prefix === '/' || path === prefix) return rule;
    if (path.startsWith(prefix) && path.charCodeAt(prefix.length) === 47) return rule;
  }
  return null;
}

/** RFC 3986's remove_dot_segments on a path; `%2e` counts as a dot (an upstream may decode it first). */
export function removeDotSegments(path: string): string {
  if (!path.includes('/.') && !/\/%2e/i.test(path)) return path;
  const segments = path.split('/');
  const out: string[] = [];
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i]!;
    const dots = segment.replace(/%2e/gi, '.');
    if (dots !== '.' && dots !== '..') {
      out.push(segment);
      continue;
    }
    if (dots === '..') out.pop();
    if (i === segments.length - 1) out.push('');
  }
  return `/${out.join('/')}`;
}
