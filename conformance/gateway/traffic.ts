// Data-plane requests whose arrival at an upstream the case can tell apart: each goes to a path of its own (its
// last segment unique, so it is recognised with or without the route prefix), and whether it reached the
// upstream is read off the upstream's record, not off the gateway's answer.
import { randomBytes } from 'node:crypto';
import type { HttpClient, HttpResponse } from '../harness/index.ts';
import type { Upstream } from './upstream.ts';

/** A path under the route prefix `prefix` that no other request uses: its last segment is `r-<12 hex digits>`. */
export const freshPath = (prefix: string): string => `${prefix === '/' ? '' : prefix}/r-${randomBytes(6).toString('hex')}`;

export interface Sent {
  path: string;
  /** undefined: no answer (connection refused or reset). */
  res: HttpResponse | undefined;
  /** The request arrived at one of the upstreams given. */
  reached: boolean;
  /** Which of them got it. */
  by: string[];
  /** The path of each arrival, as the upstream received it (forwarded unchanged or not). */
  arrived: string[];
}

/** GET a fresh path under `prefix` through `client`; which of `ups` received it. */
export async function send(client: HttpClient, prefix: string, ups: Upstream[], headers: Record<string, string> = {}): Promise<Sent> {
  const path = freshPath(prefix);
  const res = await client.request({ path, headers, timeoutMs: 10_000 }).catch(() => undefined);
  const by = ups.filter((u) => u.got(path).length > 0).map((u) => u.name);
  return { path, res, reached: by.length > 0, by, arrived: ups.flatMap((u) => u.got(path).map((r) => r.url)) };
}

/** How a request fared, for messages. */
export const fared = (s: Sent): string => `${s.path}: ${s.res ? `${s.res.status} ${s.res.text.slice(0, 120)}` : 'no answer'}; reached ${s.by.join(', ') || 'no upstream'}`;
