// One proxied request: pick a target, stream the request to it through its origin's pool and the answer
// back (the pool's exchange handler, with back-pressure both ways), retry on another target after a failed
// connection or a 502/503/504 while attempts remain, and fill the cache. The site's filters change the
// answer's headers, mask its error answers, bound a chunked body (413) and the wait for an answer (504).
// Bodies are streamed, never held, except what the cache keeps (bounded by MAX_ENTRY_BYTES).
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import { closeAfterAnswer } from '../../shared/close-after-answer.ts';
import type { UpstreamController as Controller, UpstreamHandler } from '../../shared/upstream-client/pooled-connection.ts';
import { UpstreamError } from '../../shared/upstream-client/upstream-error.ts';
import type { RouteTarget } from './balancers.ts';
import { clientResponseHeaders, headerObject, replaceHeaders } from './forward-headers.ts';
import { sendPlain } from './plain-responses.ts';
import { MAX_ENTRY_BYTES, type SiteCache, varyNames, varyValues } from './response-cache.ts';
import type { SiteFilters } from './site-filters.ts';
import type { RouteState } from './site-table.ts';
import type { Selection, Upstream } from './upstream.ts';

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
  /** The site's proxy.preserveHost is off: the Host header names the chosen target. */
  targetHost: boolean;
  traffic: Traffic;
  /** Set when the answer may be stored: the site's cache and the request's key. */
  cache: { store: SiteCache; key: string; identity: string } | undefined;
  filters: SiteFilters | undefined;
}

const RETRY_STATUSES = new Set([502, 503, 504]);

function cacheable(method: string, status: number, headers: IncomingHttpHeaders): boolean {
  if (status !== 200 || (method !== 'GET' && method !== 'HEAD')) return false;
  if (headers['set-cookie'] !== undefined) return false;
  const control = headers['cache-control'];
  return control === undefined || !/\b(no-store|private)\b/i.test(control);
}

/** What the client gets when no answer came: 504 when the upstream took too long to answer, else 502. */
function failureStatus(error: Error): number {
  return (error as UpstreamError).code === 'headers-timeout' ? 504 : 502;
}

/** A request body passed on up to `max` bytes; past it, `over` is called and the stream fails (which ends
 * the upstream exchange). */
class BoundedBody extends Transform {
  #left: number;
  readonly #over: () => void;

  constructor(max: number, over: () => void) {
    super();
    this.#left = max;
    this.#over = over;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.#left -= chunk.length;
    if (this.#left >= 0) {
      done(null, chunk);
      return;
    }
    this.#over();
    done(new Error('request body over limits.maxBodyBytes'));
  }
}

/**
 * One client request through the gateway. It is its own upstream exchange handler: attempts follow one another
 * (a retry starts only after the previous attempt's last callback), so one object with the current attempt's
 * fields serves them all and a request allocates no handler or closures of its own.
 */
export class ProxyExchange implements UpstreamHandler {
  readonly #o: ExchangeOptions;
  #attempts = 0;
  #tried: Upstream[] | undefined;
  #retrying = false;
  #clientGone = false;
  #controller: Controller | undefined;
  // The current attempt.
  #selection!: Selection;
  #started = 0;
  #discard = false;
  #responded = false;
  #ended = false;
  #chunks: Buffer[] | undefined;
  #size = 0;
  #stored: { status: number; headers: IncomingHttpHeaders } | undefined;
  #discardedStatus = 502;
  /** The answer is the gateway's own (maskErrors): the upstream's is read and dropped. */
  #masked = false;
  /** Set only with limits.upstreamTimeoutMs. */
  #timer: NodeJS.Timeout | undefined;
  #timedOut = false;
  /** The chunked body passed limits.maxBodyBytes. */
  #tooLarge = false;

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
    this.#selection = selection;
    this.#started = performance.now();
    this.#discard = false;
    this.#responded = false;
    this.#ended = false;
    this.#chunks = undefined;
    this.#size = 0;
    this.#stored = undefined;
    this.#discardedStatus = 502;
    this.#masked = false;
    this.#timedOut = false;
    const filters = o.filters;
    if (filters?.upstreamTimeoutMs !== undefined) this.#timer = setTimeout(() => this.#timeUp(), filters.upstreamTimeoutMs);
    try {
      upstream.pool.dispatch(
        {
          path: upstream.basePath + o.path,
          method: o.req.method ?? 'GET',
          headers: o.targetHost ? replaceHeaders(o.headers, [['host', upstream.host]]) : o.headers,
          body: o.hasBody ? this.#body() : null,
        },
        this,
      );
    } catch (error) {
      this.onResponseError(undefined as unknown as Controller, error as Error);
    }
  }

  /** The request body as sent: bounded when the site bounds it and the length is not declared (a declared
   * one was checked before). */
  #body(): IncomingMessage | Transform {
    const o = this.#o;
    const max = o.filters?.maxBodyBytes;
    if (max === undefined || o.req.headers['content-length'] !== undefined) return o.req;
    return o.req.pipe(new BoundedBody(max, () => (this.#tooLarge = true)));
  }

  /** limits.upstreamTimeoutMs passed without an answer: the attempt ends as a headers timeout (504). */
  #timeUp(): void {
    this.#timer = undefined;
    if (this.#responded || this.#ended) return;
    this.#timedOut = true;
    this.#controller?.abort(new UpstreamError('headers-timeout', 'no answer within limits.upstreamTimeoutMs'));
  }

  #clearTimer(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** The attempt is over (answered, failed or cut): its upstream has one request less under way. */
  #settle(): void {
    this.#clearTimer();
    if (this.#ended) return;
    this.#ended = true;
    this.#selection.upstream.active--;
  }

  onRequestStart(controller: Controller): void {
    this.#controller = controller;
    if (this.#clientGone) controller.abort(new Error('client closed the connection'));
    else if (this.#timedOut) controller.abort(new UpstreamError('headers-timeout', 'no answer within limits.upstreamTimeoutMs'));
  }

  onResponseStart(_controller: Controller, status: number, rawHeaders: string[]): void {
    if (status < 200) return;
    const o = this.#o;
    const upstream = this.#selection.upstream;
    this.#responded = true;
    this.#clearTimer();
    upstream.recordLatency(performance.now() - this.#started);
    upstream.recordResponse(this.#selection, status);
    if (RETRY_STATUSES.has(status) && this.canRetry()) {
      this.#discard = true;
      this.#discardedStatus = status;
      return;
    }
    const res = o.res;
    if (res.headersSent || this.#clientGone) return;
    const filters = o.filters;
    if (filters?.masks(status)) {
      this.#masked = true;
      sendPlain(res, status);
      return;
    }
    let list = clientResponseHeaders(rawHeaders);
    if (o.cache !== undefined) {
      const method = o.req.method ?? 'GET';
      const headers = headerObject(rawHeaders);
      if (o.req.headers.authorization === undefined && cacheable(method, status, headers) && varyNames(headers) !== undefined) {
        this.#chunks = [];
        this.#stored = { status, headers: headerObject(list) };
      }
      list.push('x-cache', 'MISS');
    }
    if (filters?.changesAnswers) list = filters.answerHeaders(list, o.req);
    try {
      res.writeHead(status, list);
    } catch {
      res.destroy();
    }
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    if (this.#discard || this.#clientGone || this.#masked) return;
    const o = this.#o;
    if (this.#chunks !== undefined) {
      this.#size += chunk.length;
      if (this.#size > MAX_ENTRY_BYTES) this.#chunks = undefined;
      else this.#chunks.push(chunk);
    }
    if (!o.res.write(chunk)) {
      controller.pause();
      o.res.once('drain', () => controller.resume());
    }
  }

  onResponseEnd(): void {
    this.#settle();
    if (this.#discard) {
      this.#attempt(this.#discardedStatus);
      return;
    }
    if (this.#masked) return;
    const o = this.#o;
    o.res.end();
    const chunks = this.#chunks;
    const stored = this.#stored;
    if (chunks !== undefined && stored !== undefined && o.cache !== undefined) {
      const now = Date.now();
      const vary = varyNames(stored.headers) ?? [];
      o.cache.store.store(o.cache.key, {
        status: stored.status,
        headers: stored.headers,
        body: Buffer.concat(chunks, this.#size),
        storedAt: now,
        expires: now + o.cache.store.ttlMs,
        method: o.req.method ?? 'GET',
        vary,
        varyValues: varyValues(o.req.headers, vary),
        identity: o.cache.identity,
      });
    }
  }

  onResponseError(_controller: Controller, error: Error): void {
    this.#settle();
    const o = this.#o;
    const selection = this.#selection;
    const upstream = selection.upstream;
    if (this.#clientGone) {
      if (!this.#responded) upstream.release(selection);
      return;
    }
    if (this.#masked) return;
    if (this.#tooLarge && !this.#responded) {
      upstream.release(selection);
      sendPlain(o.res, 413, closeAfterAnswer(o.req));
      return;
    }
    if (this.#responded && !this.#discard) {
      // The answer broke off after it had begun: the client's response cannot be completed.
      o.res.destroy(error);
      return;
    }
    if (!this.#responded) upstream.recordConnectFailure(selection);
    if (this.#discard) this.#attempt(this.#discardedStatus);
    else if (this.canRetry()) this.#attempt(failureStatus(error));
    else sendPlain(o.res, failureStatus(error));
  }
}
