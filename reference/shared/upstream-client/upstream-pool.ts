// A keep-alive connection pool to one upstream origin (http: or https:), at most `connections` at once;
// requests beyond that wait in order. Idle connections are reused newest first and closed after the
// keep-alive timeout (or a little before the upstream's own hint). One sweep a second checks every wait
// (headers, body, idle) against its deadline, so a request costs no timer of its own.
import { connect as connectTcp, isIP, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { type ConnectionOwner, PooledConnection, type UpstreamController, type UpstreamHandler, type UpstreamRequest } from './pooled-connection.ts';
import { HTTPParser, type ResponseParserClass } from './response-parser.ts';
import { UpstreamError } from './upstream-error.ts';

export interface PoolLimits {
  /** Connections at most. */
  connections: number;
  keepAliveTimeoutMs: number;
  connectTimeoutMs: number;
  /** Time allowed for the response headers, from the request's dispatch. */
  headersTimeoutMs: number;
  /** Time allowed between two chunks of the response body. */
  bodyTimeoutMs: number;
  maxHeaderSize: number;
}

const SWEEP_MS = 1000;

/** A whole answer of `request`. */
export interface ShortAnswer {
  status: number;
  /** Flat name/value list, names as the upstream wrote them. */
  headers: string[];
  body: Buffer;
}

export class UpstreamPool implements ConnectionOwner {
  readonly host: string;
  readonly limits: PoolLimits;
  readonly parser: ResponseParserClass;
  readonly #hostname: string;
  readonly #port: number;
  readonly #tls: boolean;
  readonly #all = new Set<PooledConnection>();
  readonly #idle: PooledConnection[] = [];
  readonly #queue: { request: UpstreamRequest; handler: UpstreamHandler }[] = [];
  #sweep: NodeJS.Timeout | undefined;
  #closing = false;
  #closed: (() => void) | undefined;

  /** `parser`: the load-time choice (response-parser.ts) unless a test names one. */
  constructor(origin: string, limits: PoolLimits, parser: ResponseParserClass = HTTPParser) {
    const url = new URL(origin);
    this.#tls = url.protocol === 'https:';
    this.#hostname = url.hostname.replace(/^\[|\]$/g, '');
    this.#port = Number(url.port) || (this.#tls ? 443 : 80);
    this.host = url.host;
    this.limits = limits;
    this.parser = parser;
  }

  /** Sends `request`; the handler learns everything that happens to it. */
  dispatch(request: UpstreamRequest, handler: UpstreamHandler): void {
    let connection = this.#idle.pop();
    if (connection === undefined) {
      if (this.#all.size >= this.limits.connections) {
        this.#queue.push({ request, handler });
        return;
      }
      connection = this.#open();
    }
    connection.send(request, handler);
  }

  /** A bodiless request answered in full: its status, headers (flat name/value list) and the first
   * `keepBody` bytes of its body (the rest is read and dropped); bounded by `timeoutMs` in all. */
  request(method: string, path: string, timeoutMs: number, headers: readonly string[] = [], keepBody = 0): Promise<ShortAnswer> {
    return new Promise((resolve, reject) => {
      const answer: ShortAnswer = { status: 0, headers: [], body: Buffer.alloc(0) };
      const kept: Buffer[] = [];
      let room = keepBody;
      let settled = false;
      let controller: UpstreamController | undefined;
      const timer = setTimeout(() => controller?.abort(new UpstreamError('headers-timeout', `no complete answer within ${timeoutMs} ms`)), timeoutMs);
      const settle = (error?: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error !== undefined) return reject(error);
        answer.body = Buffer.concat(kept);
        resolve(answer);
      };
      this.dispatch(
        { method, path, headers, body: null },
        {
          onRequestStart: (c) => {
            controller = c;
            if (settled) c.abort(new UpstreamError('headers-timeout', 'timed out'));
          },
          onResponseStart: (_c, status, list) => {
            answer.status = status;
            answer.headers = list;
          },
          onResponseData: (_c, chunk) => {
            if (room <= 0) return;
            kept.push(chunk.length <= room ? chunk : chunk.subarray(0, room));
            room -= chunk.length;
          },
          onResponseEnd: () => settle(),
          onResponseError: (_c, error) => settle(error),
        },
      );
    });
  }

  released(connection: PooledConnection): void {
    const next = this.#queue.shift();
    if (next !== undefined) connection.send(next.request, next.handler);
    else if (this.#closing) connection.destroy();
    else this.#idle.push(connection);
  }

  lost(connection: PooledConnection): void {
    this.#all.delete(connection);
    const at = this.#idle.indexOf(connection);
    if (at !== -1) this.#idle.splice(at, 1);
    const next = this.#queue.length > 0 && this.#all.size < this.limits.connections ? this.#queue.shift() : undefined;
    if (next !== undefined) this.#open().send(next.request, next.handler);
    if (this.#all.size === 0) this.#stopSweep();
  }

  resend(request: UpstreamRequest, handler: UpstreamHandler): void {
    if (this.#all.size >= this.limits.connections) this.#queue.unshift({ request, handler });
    else this.#open().send(request, handler);
  }

  /** Requests under way and queued finish; idle connections close now, the others when done. */
  close(): Promise<void> {
    this.#closing = true;
    for (const connection of [...this.#idle]) connection.destroy();
    if (this.#all.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.#closed = resolve;
    });
  }

  /** Ends everything at once: requests under way and queued get onResponseError. */
  async destroy(): Promise<void> {
    this.#closing = true;
    const queued = this.#queue.splice(0);
    const error = new UpstreamError('pool-destroyed', 'the upstream pool was destroyed');
    for (const connection of [...this.#all]) connection.destroy(error);
    for (const { handler } of queued) handler.onResponseError({ abort() {}, pause() {}, resume() {} }, error);
  }

  #open(): PooledConnection {
    const socket: Socket = this.#tls
      ? connectTls({ host: this.#hostname, port: this.#port, servername: isIP(this.#hostname) === 0 ? this.#hostname : undefined, ALPNProtocols: ['http/1.1'] })
      : connectTcp({ host: this.#hostname, port: this.#port });
    const connection = new PooledConnection(this, socket);
    const connectTimer = setTimeout(() => connection.destroy(new UpstreamError('connect-timeout', `no connection to ${this.host} within ${this.limits.connectTimeoutMs} ms`)), this.limits.connectTimeoutMs);
    socket.once(this.#tls ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    socket.once('close', () => clearTimeout(connectTimer));
    this.#all.add(connection);
    this.#sweep ??= setInterval(() => this.#checkDeadlines(), SWEEP_MS).unref();
    return connection;
  }

  #checkDeadlines(): void {
    const now = Date.now();
    for (const connection of this.#all) {
      if (connection.busy) {
        if (connection.deadline !== 0 && now > connection.deadline) connection.timedOut();
      } else if (now > connection.idleUntil) connection.destroy();
    }
  }

  #stopSweep(): void {
    clearInterval(this.#sweep);
    this.#sweep = undefined;
    if (this.#closing) this.#closed?.();
  }
}
