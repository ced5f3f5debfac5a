// One keep-alive connection to an upstream, carrying one exchange at a time: it writes the request (head,
// then the body with back-pressure, chunked when it has no length), parses the answer with Node's own
// parser (or its plain-JavaScript stand-in, see response-parser.ts) and hands it to the exchange's
// handler. Whatever ends an exchange (answer complete, abort, error, timeout) reaches the handler exactly
// once; the connection then goes back to its pool or is destroyed.
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { keepAliveHint, requestHead } from './request-head.ts';
import type { ResponseParser, ResponseParserClass } from './response-parser.ts';
import { UpstreamError } from './upstream-error.ts';
import { writeAtTurnEnd } from './write-batch.ts';

/** The native handle under a net.Socket, which the parser can read from itself. */
interface StreamHandle {
  isStreamBase?: boolean;
  readStop(): void;
  readStart(): void;
}

const handleOf = (socket: Socket): StreamHandle | undefined => (socket as unknown as { _handle?: StreamHandle })._handle;

export interface UpstreamRequest {
  method: string;
  /** The request target, as sent on the request line. */
  path: string;
  /** Flat name/value list, as node:http's rawHeaders. */
  headers: readonly string[];
  body: Readable | null;
}

/** What a handler may do to its exchange. */
export interface UpstreamController {
  /** Ends the exchange now: the connection is destroyed and the handler gets onResponseError(reason). */
  abort(reason: Error): void;
  pause(): void;
  resume(): void;
}

export interface UpstreamHandler {
  onRequestStart(controller: UpstreamController): void;
  /** The final (non-1xx) answer's status and headers, as a flat name/value list. */
  onResponseStart(controller: UpstreamController, status: number, headers: string[]): void;
  onResponseData(controller: UpstreamController, chunk: Buffer): void;
  onResponseEnd(controller: UpstreamController): void;
  onResponseError(controller: UpstreamController, error: Error): void;
}

/** What a connection needs of its pool. */
export interface ConnectionOwner {
  readonly host: string;
  /** The HTTP/1 response parser its connections use. */
  readonly parser: ResponseParserClass;
  readonly limits: { headersTimeoutMs: number; bodyTimeoutMs: number; keepAliveTimeoutMs: number; maxHeaderSize: number };
  /** The exchange ended and the connection can carry another. */
  released(connection: PooledConnection): void;
  /** The connection is gone. */
  lost(connection: PooledConnection): void;
  /** Sends again on a fresh connection: a reused connection failed before any byte of the answer. */
  resend(request: UpstreamRequest, handler: UpstreamHandler): void;
}

/** One request on its connection, and the controller its handler holds: once the exchange is over, what
 * the handler still calls on it (a late abort, a resume on drain) touches nothing, whatever the connection
 * carries by then. */
class Exchange implements UpstreamController {
  constructor(
    readonly connection: PooledConnection,
    readonly request: UpstreamRequest,
    readonly handler: UpstreamHandler,
  ) {}

  abort(reason: Error): void {
    this.connection.abortExchange(this, reason);
  }

  pause(): void {
    this.connection.pauseExchange(this, true);
  }

  resume(): void {
    this.connection.pauseExchange(this, false);
  }
}

export class PooledConnection {
  readonly #owner: ConnectionOwner;
  readonly #socket: Socket;
  readonly #parser: ResponseParser;
  #exchange: Exchange | undefined;
  /** Header pairs delivered before headers-complete (more than the parser hands over at once). */
  #partialHeaders: string[] = [];
  #head = false;
  #final = false;
  #received = false;
  #keepAlive = false;
  #keepAliveMs: number;
  #bodyDone = true;
  #detachBody: (() => void) | undefined;
  /** Exchanges this connection completed. */
  #served = 0;
  #gone = false;
  #consumed = false;
  #paused = false;
  /** Date.now() after which the current wait (headers, then between body chunks) has timed out; 0: none. */
  deadline = 0;
  #deadlineCode: 'headers-timeout' | 'body-timeout' = 'headers-timeout';
  /** Date.now() after which the idle connection is closed. */
  idleUntil = 0;

  constructor(owner: ConnectionOwner, socket: Socket) {
    this.#owner = owner;
    this.#socket = socket;
    this.#keepAliveMs = owner.limits.keepAliveTimeoutMs;
    socket.setNoDelay(true);
    const HTTPParser = owner.parser;
    const parser = new HTTPParser();
    parser.initialize(HTTPParser.RESPONSE, {}, owner.limits.maxHeaderSize, 0);
    parser[HTTPParser.kOnHeaders] = (headers: string[]) => {
      this.#partialHeaders.push(...headers);
    };
    parser[HTTPParser.kOnHeadersComplete] = this.#onHeaders;
    parser[HTTPParser.kOnBody] = (chunk: Buffer) => {
      const exchange = this.#exchange;
      if (exchange === undefined || !this.#final) return;
      this.deadline = Date.now() + this.#owner.limits.bodyTimeoutMs;
      exchange.handler.onResponseData(exchange, chunk);
    };
    parser[HTTPParser.kOnMessageBegin] = () => {
      this.#received = true;
      // Trailers of the previous answer arrive through kOnHeaders too: they are not this answer's headers.
      this.#partialHeaders = [];
    };
    parser[HTTPParser.kOnMessageComplete] = () => this.#onComplete();
    this.#parser = parser;
    // A plain TCP socket feeds the parser natively once connected (as node:http's server does with its
    // clients), without the stream layer's JavaScript on every read; a TLS socket, or the plain-JavaScript
    // parser, goes through 'data'.
    parser[HTTPParser.kOnExecute] = (result: number | Error) => this.#afterParse(result);
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    socket.once('connect', () => {
      const handle = handleOf(socket);
      if (handle?.isStreamBase !== true || this.#gone || parser.consume === undefined) return;
      parser.consume(handle);
      this.#consumed = true;
    });
    socket.on('end', () => this.#onEnd());
    socket.on('error', (error) => this.#fail(new UpstreamError('connection-lost', error.message, error)));
    socket.on('close', () => {
      this.#fail(new UpstreamError('connection-lost', 'the upstream closed the connection'));
      // Freed once the parser's own callbacks have returned, and after the handle it reads from is closed.
      setImmediate(() => {
        if (this.#consumed) parser.unconsume?.();
        parser.close();
      });
    });
  }

  get busy(): boolean {
    return this.#exchange !== undefined;
  }

  send(request: UpstreamRequest, handler: UpstreamHandler): void {
    const exchange = new Exchange(this, request, handler);
    this.#exchange = exchange;
    this.#head = request.method === 'HEAD';
    this.#final = false;
    this.#received = false;
    this.deadline = Date.now() + this.#owner.limits.headersTimeoutMs;
    this.#deadlineCode = 'headers-timeout';
    handler.onRequestStart(exchange);
    if (this.#exchange !== exchange) return; // aborted at once
    let framing: { head: string; chunked: boolean };
    try {
      framing = requestHead(request.method, request.path, request.headers, this.#owner.host, request.body !== null);
    } catch (error) {
      this.#end(error as Error, false);
      return;
    }
    if (request.body === null) writeAtTurnEnd(this.#socket, framing.head);
    else this.#writeBody(framing.head, request.body, framing.chunked);
  }

  abortExchange(exchange: Exchange, reason: Error): void {
    if (this.#exchange === exchange) this.#end(reason, false);
  }

  pauseExchange(exchange: Exchange, pause: boolean): void {
    if (this.#exchange !== exchange) return;
    this.#pause(pause);
  }

  #pause(pause: boolean): void {
    this.#paused = pause;
    if (this.#consumed) {
      // The parser reads from the handle itself: the stream's pause would not stop it.
      if (pause) handleOf(this.#socket)?.readStop();
      else handleOf(this.#socket)?.readStart();
    } else if (pause) this.#socket.pause();
    else this.#socket.resume();
  }

  /** Called by the pool's sweep when `deadline` has passed. */
  timedOut(): void {
    const code = this.#deadlineCode;
    this.#end(new UpstreamError(code, code === 'headers-timeout' ? 'no response headers in time' : 'no response body bytes in time'), false);
  }

  /** Closes the connection; an exchange under way gets onResponseError(reason). */
  destroy(reason: Error = new UpstreamError('connection-lost', 'connection closed by the pool')): void {
    if (this.#exchange !== undefined) this.#end(reason, false);
    else this.#close();
  }

  #writeBody(head: string, body: Readable, chunked: boolean): void {
    const socket = this.#socket;
    this.#bodyDone = false;
    socket.write(head, 'latin1');
    const onData = (chunk: Buffer): void => {
      if (chunk.length === 0) return;
      let flushed: boolean;
      if (chunked) {
        socket.cork();
        socket.write(`${chunk.length.toString(16)}\r\n`);
        socket.write(chunk);
        flushed = socket.write('\r\n');
        socket.uncork();
      } else flushed = socket.write(chunk);
      if (!flushed) {
        body.pause();
        socket.once('drain', () => body.resume());
      }
    };
    const onEnd = (): void => {
      detach();
      this.#bodyDone = true;
      if (chunked) socket.write('0\r\n\r\n');
    };
    const exchange = this.#exchange;
    const onCut = (): void => {
      if (!this.#bodyDone && exchange !== undefined) this.abortExchange(exchange, new UpstreamError('request-body', 'the request body ended before its end'));
    };
    const detach = (): void => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onCut);
      body.off('close', onCut);
      this.#detachBody = undefined;
    };
    this.#detachBody = detach;
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onCut);
    body.on('close', onCut);
    body.resume();
  }

  #onData(chunk: Buffer): void {
    if (this.#exchange === undefined) {
      // Bytes while no request is under way: not an answer to anything; the connection cannot be trusted.
      this.#close();
      return;
    }
    this.#afterParse(this.#parser.execute(chunk));
  }

  #afterParse(result: number | Error): void {
    if (result instanceof Error) this.#end(new UpstreamError('bad-response', `unreadable answer: ${result.message}`, result), false);
  }

  readonly #onHeaders = (_major: number, _minor: number, list: string[] | undefined, _method: unknown, _url: unknown, status: number, _message: string, _upgrade: boolean, keepAlive: boolean): number => {
    let headers = list;
    if (headers === undefined) {
      headers = this.#partialHeaders;
      this.#partialHeaders = [];
    }
    const exchange = this.#exchange;
    if (exchange === undefined) return 1;
    if (status < 200) {
      if (status === 101) this.#end(new UpstreamError('bad-response', 'the upstream switched protocols unasked'), false);
      return 1; // an interim answer: no body, the final one follows
    }
    this.#final = true;
    this.#keepAlive = keepAlive;
    const hint = this.#served === 0 ? keepAliveHint(headers) : undefined;
    // Close a little before the upstream would, so that a request is not sent on a connection it is closing
    // (its hint read from the first answer: an upstream keeps it for the connection).
    if (hint !== undefined) this.#keepAliveMs = Math.min(this.#owner.limits.keepAliveTimeoutMs, Math.max(0, hint * 1000 - 1000));
    this.deadline = Date.now() + this.#owner.limits.bodyTimeoutMs;
    this.#deadlineCode = 'body-timeout';
    exchange.handler.onResponseStart(exchange, status, headers);
    return this.#head ? 1 : 0;
  };

  #onComplete(): void {
    const exchange = this.#exchange;
    if (exchange === undefined || !this.#final) return;
    this.#exchange = undefined;
    this.deadline = 0;
    this.#served++;
    if (this.#keepAlive && this.#bodyDone && this.#keepAliveMs > 0 && !this.#gone) {
      // A handler that paused the answer and was then done with it leaves no pause behind.
      if (this.#paused) this.#pause(false);
      this.idleUntil = Date.now() + this.#keepAliveMs;
      this.#owner.released(this);
    } else this.#close();
    exchange.handler.onResponseEnd(exchange);
  }

  #onEnd(): void {
    if (this.#exchange !== undefined && this.#final) {
      // An answer without a length runs until the connection closes: the end completes it.
      const result = this.#parser.finish();
      if (result instanceof Error) this.#end(new UpstreamError('connection-lost', 'the upstream closed the connection before the end of its answer', result), false);
    }
    this.#fail(new UpstreamError('connection-lost', 'the upstream closed the connection'));
  }

  #fail(error: UpstreamError): void {
    // A reused connection that dies before any byte of the answer was most likely closed by the upstream
    // as it went idle: the request, when it has no body, is sent once more on a fresh connection.
    this.#end(error, this.#served > 0 && !this.#received && this.#exchange?.request.body === null);
  }

  /** Ends the exchange under way (if any) with `error`, closes the connection. */
  #end(error: Error, resend: boolean): void {
    const exchange = this.#exchange;
    this.#exchange = undefined;
    this.deadline = 0;
    this.#close();
    if (exchange === undefined) return;
    if (resend) this.#owner.resend(exchange.request, exchange.handler);
    else exchange.handler.onResponseError(exchange, error);
  }

  #close(): void {
    this.#detachBody?.();
    if (this.#gone) return;
    this.#gone = true;
    this.#socket.destroy();
    this.#owner.lost(this);
  }
}
