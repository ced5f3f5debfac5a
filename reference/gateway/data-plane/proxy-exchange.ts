// One proxied request: pick a target, stream the request to it through its origin's pool and the answer
// back (undici's dispatch handler, with back-pressure both ways), retry on another target after a failed
// connection or a 502/503/504 while attempts remain, and fill the cache. Bodies are streamed, never held,
// except what the cache keeps (bounded by MAX_ENTRY_BYTES).
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import type { RouteTarget } from './balancers.ts';
import { clientResponseHeaders } from './forward-headers.ts';
import { sendPlain } from './plain-responses.ts';
import { MAX_ENTRY_BYTES, type ResponseCache, varyNames, varyValues } from './response-cache.ts';
import type { RouteState } from './site-table.ts';
import type { Selection, Upstream } from './upstream.ts';

type Controller = Dispatcher.DispatchController;

/** Gateway-wide request counters (status object). */
export interface Traffic {
  inflight: number;
  retryInflight: number;
}

export interface ExchangeOptions {
  req: IncomingMessage;
  res: ServerResponse;
  route: RouteState;
  /** The request target as sent upstream (after the target URL's own path). */
  path: string;
  /** Extra attempts allowed (site retries); 0 for requests with a body, which cannot be sent twice. */
  retries: number;
  hasBody: boolean;
  headers: string[];
  traffic: Traffic;
  /** Set when the answer may be stored: the site's cache and the request's key. */
  cache: { store: ResponseCache; key: string } | undefined;
}

const RETRY_STATUSES = new Set([502, 503, 504]);

function cacheable(method: string, status: number, headers: IncomingHttpHeaders): boolean {
  if (status !== 200 || (method !== 'GET' && method !== 'HEAD')) return false;
  if (headers['set-cookie'] !== undefined) return false;
  const control = headers['cache-control'];
  return control === undefined || !/\b(no-store|private)\b/i.test(control);
}

function headerObject(list: (string | string[])[]): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (let i = 0; i < list.length; i += 2) (headers as Record<string, string | string[]>)[list[i] as string] = list[i + 1]!;
  return headers;
}

/** What the client gets when no answer came: 504 when the upstream took too long to answer, else 502. */
function failureStatus(error: Error): number {
  return (error as { code?: string }).code === 'UND_ERR_HEADERS_TIMEOUT' ? 504 : 502;
}

export class ProxyExchange {
  readonly #o: ExchangeOptions;
  #attempts = 0;
  #tried: Upstream[] | undefined;
  #retrying = false;
  #clientGone = false;
  #controller: Controller | undefined;

  constructor(options: ExchangeOptions) {
    this.#o = options;
  }

  /** The client's response closed (the request handler's one 'close' listener calls it). */
  closed(): void {
    const o = this.#o;
    if (this.#retrying) o.traffic.retryInflight--;
    this.#retrying = false;
    if (o.res.writableFinished) return;
    this.#clientGone = true;
    this.#controller?.abort(new Error('client closed the connection'));
  }

  start(): void {
    this.#attempt(503);
  }

  /** Another attempt may follow: attempts left, no body, and an untried usable target. */
  canRetry(): boolean {
    const o = this.#o;
    if (this.#attempts > o.retries || this.#clientGone) return false;
    const now = Date.now();
    return o.route.targets.some((t) => t.upstream.usable(now) && !this.#tried?.includes(t.upstream));
  }

  /** `fallback`: the status sent when no target is left (503 first, else the last failure's). */
  #attempt(fallback: number): void {
    const o = this.#o;
    const now = Date.now();
    const target = o.route.balancer.pick(now, this.#tried);
    if (target === undefined) {
      sendPlain(o.res, fallback);
      return;
    }
    this.#attempts++;
    if (this.#attempts === 2) {
      this.#retrying = true;
      o.traffic.retryInflight++;
    }
    if (o.retries > 0) {
      this.#tried ??= [];
      this.#tried.push(target.upstream);
    }
    this.#send(target, target.upstream.select(now));
  }

  #send(target: RouteTarget, selection: Selection): void {
    const o = this.#o;
    const upstream = target.upstream;
    upstream.active++;
    const started = performance.now();
    let discard = false;
    let responded = false;
    let ended = false;
    let chunks: Buffer[] | undefined;
    let size = 0;
    let stored: { status: number; headers: IncomingHttpHeaders } | undefined;
    let discardedStatus = 502;
    const settle = (): void => {
      if (ended) return;
      ended = true;
      upstream.active--;
    };
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart: (controller) => {
        this.#controller = controller;
        if (this.#clientGone) controller.abort(new Error('client closed the connection'));
      },
      onResponseStart: (_controller, status, headers) => {
        if (status < 200) return;
        responded = true;
        upstream.recordLatency(performance.now() - started);
        upstream.recordResponse(selection, status);
        if (RETRY_STATUSES.has(status) && this.canRetry()) {
          discard = true;
          discardedStatus = status;
          return;
        }
        const res = o.res;
        if (res.headersSent || this.#clientGone) return;
        const list = clientResponseHeaders(headers);
        if (o.cache !== undefined) {
          const method = o.req.method ?? 'GET';
          if (o.req.headers.authorization === undefined && cacheable(method, status, headers) && varyNames(headers) !== undefined) {
            chunks = [];
            stored = { status, headers: headerObject(list) };
          }
          list.push('x-cache', 'MISS');
        }
        try {
          res.writeHead(status, list);
        } catch {
          res.destroy();
        }
      },
      onResponseData: (controller, chunk) => {
        if (discard || this.#clientGone) return;
        if (chunks !== undefined) {
          size += chunk.length;
          if (size > MAX_ENTRY_BYTES) chunks = undefined;
          else chunks.push(chunk);
        }
        if (!o.res.write(chunk)) {
          controller.pause();
          o.res.once('drain', () => controller.resume());
        }
      },
      onResponseEnd: () => {
        settle();
        if (discard) {
          this.#attempt(discardedStatus);
          return;
        }
        o.res.end();
        if (chunks !== undefined && stored !== undefined && o.cache !== undefined) {
          const now = Date.now();
          const vary = varyNames(stored.headers) ?? [];
          o.cache.store.store(o.cache.key, {
            status: stored.status,
            headers: stored.headers,
            body: Buffer.concat(chunks, size),
            storedAt: now,
            expires: now + o.cache.store.ttlMs,
            method: o.req.method ?? 'GET',
            vary,
            varyValues: varyValues(o.req.headers, vary),
          });
        }
      },
      onResponseError: (_controller, error) => {
        settle();
        if (this.#clientGone) {
          if (!responded) upstream.release(selection);
          return;
        }
        if (responded && !discard) {
          // The answer broke off after it had begun: the client's response cannot be completed.
          o.res.destroy(error);
          return;
        }
        if (!responded) upstream.recordConnectFailure(selection);
        if (discard) this.#attempt(discardedStatus);
        else if (this.canRetry()) this.#attempt(failureStatus(error));
        else sendPlain(o.res, failureStatus(error));
      },
    };
    try {
      upstream.pool.dispatch(
        {
          path: upstream.basePath + o.path,
          method: (o.req.method ?? 'GET') as Dispatcher.HttpMethod,
          headers: o.headers,
          body: o.hasBody ? o.req : null,
        },
        handler,
      );
    } catch (error) {
      handler.onResponseError?.(undefined as unknown as Controller, error as Error);
    }
  }
}
