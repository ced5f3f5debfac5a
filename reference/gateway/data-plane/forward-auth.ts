// Forward authentication (catalog gateway/site-auth/forward-auth, -forward-auth-request, -refusal-details):
// each request is first described to the auth service in a bodiless GET; a 2xx answer admits it (with the
// headers named in copyHeaders taken along), a 3xx, 401 or 403 answer goes to the client as it is, anything
// else — another status, no answer in time, no connection — gives 502. Auth services are reached through
// keep-alive pools of their own, one per origin, kept across reloads (idle connections close themselves).
import type { IncomingMessage } from 'node:http';
import type { ForwardAuthConfig } from '../config/gateway-config.ts';
import type { UpstreamPool } from '../../shared/upstream-client/upstream-pool.ts';
import type { Refusal, Verdict } from './site-auth.ts';
import { UpstreamPools } from './upstream-pools.ts';

/** The part of a refusal's body passed to the client at most. */
const MAX_REFUSAL_BODY = 64 * 1024;
/** Headers of a refusing answer passed to the client. */
const PASSED = new Set(['www-authenticate', 'location', 'set-cookie', 'content-type']);
/** Client headers the auth service is given as they are. */
const CREDENTIALS = ['authorization', 'cookie'] as const;

const FAILED: Verdict = { refusal: { status: 502, headers: {} } };

const pools = new UpstreamPools();

export class ForwardAuth {
  readonly #config: ForwardAuthConfig;
  readonly #pool: UpstreamPool;
  readonly #target: string;

  constructor(config: ForwardAuthConfig) {
    const url = new URL(config.url);
    this.#config = config;
    this.#pool = pools.get(url.origin);
    this.#target = url.pathname + url.search;
  }

  async ask(req: IncomingMessage, scheme: string, client: string): Promise<Verdict> {
    const headers = [
      'x-forwarded-method', req.method ?? 'GET',
      'x-forwarded-proto', scheme,
      'x-forwarded-host', req.headers.host ?? '',
      'x-forwarded-uri', req.url ?? '/',
      'x-forwarded-for', client,
    ];
    for (const name of CREDENTIALS) {
      const value = req.headers[name];
      if (value !== undefined) headers.push(name, value);
    }
    let answer: Awaited<ReturnType<UpstreamPool['request']>>;
    try {
      answer = await this.#pool.request('GET', this.#target, this.#config.timeoutMs, headers, MAX_REFUSAL_BODY);
    } catch {
      return FAILED;
    }
    const { status } = answer;
    if (status >= 200 && status < 300) return { set: this.#copied(answer.headers) };
    if ((status >= 300 && status < 400) || status === 401 || status === 403) return { refusal: refusalOf(status, answer.headers, answer.body) };
    return FAILED;
  }

  #copied(list: readonly string[]): [string, string][] {
    const names = this.#config.copyHeaders;
    if (names.length === 0) return [];
    const out: [string, string][] = [];
    for (let i = 0; i < list.length; i += 2) {
      const name = list[i]!.toLowerCase();
      if (names.includes(name)) out.push([name, list[i + 1]!]);
    }
    return out;
  }
}

function refusalOf(status: number, list: readonly string[], body: Buffer): Refusal {
  const headers: Record<string, string | string[]> = {};
  let type: string | undefined;
  for (let i = 0; i < list.length; i += 2) {
    const name = list[i]!.toLowerCase();
    if (!PASSED.has(name)) continue;
    if (name === 'content-type') type = list[i + 1]!;
    else if (name === 'set-cookie') headers[name] = [...((headers[name] as string[] | undefined) ?? []), list[i + 1]!];
    else headers[name] = list[i + 1]!;
  }
  return { status, headers, body, type: type ?? 'application/octet-stream' };
}
