// A recording gRPC server for suites of gRPC clients (a tool server or gateway in front of the translation
// service): plaintext HTTP/2 on a loopback port, every call recorded with its path, metadata, arrival time and
// request message, and answered as the case says — a response message, a status, or nothing at all (the call
// hangs until the client cancels it, which the record shows as the stream's reset code), at once or later (a
// slow service).
import {
  constants,
  createServer,
  type Http2Server,
  type Http2Session,
  type IncomingHttpHeaders,
  type ServerHttp2Stream,
} from 'node:http2';
import { listenOnFreePort, releasePorts } from './free-ports.ts';

export interface RecordedCall {
  /** `/package.Service/Method`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The request message (without the 5-byte gRPC frame prefix). */
  message: Uint8Array;
  /** When the whole request had arrived (Date.now()). */
  at: number;
  /** Resolves when the stream ends, with the HTTP/2 reset code (8 = CANCEL) or 0 for a normal end. */
  closed: Promise<number>;
}

/** How to answer a call: a response message (status OK, the message's bytes), a status, or `hang` (never
 * answer). */
export type StubAnswer = { response: Uint8Array } | { code: number; message: string } | 'hang';

/** Decides the answer to a call; a promise answers when it settles (a slow service). */
export type StubHandler = (call: RecordedCall) => StubAnswer | Promise<StubAnswer>;

const TIMEOUT_UNITS_MS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1_000, m: 1, u: 1e-3, n: 1e-6 };

/** The deadline a client sent with a call (the `grpc-timeout` header, as the gRPC HTTP/2 protocol writes
 * it: up to 8 digits and a unit), in ms; undefined when it sent none; NaN when the header is malformed. */
export function sentTimeoutMs(call: RecordedCall): number | undefined {
  const raw = call.headers['grpc-timeout'];
  if (raw === undefined) return undefined;
  const match = /^(\d{1,8})([HMSmun])$/.exec(String(raw));
  return match ? Number(match[1]) * TIMEOUT_UNITS_MS[match[2]!]! : Number.NaN;
}

/** An answer given `ms` later. */
export function later(ms: number, answer: StubAnswer): Promise<StubAnswer> {
  return new Promise((resolve) => setTimeout(() => resolve(answer), ms));
}

const EMPTY_RESPONSE: StubAnswer = { response: new Uint8Array(0) };

/** grpc-message as the gRPC HTTP/2 protocol writes it: UTF-8 bytes outside printable ASCII, and `%`,
 * percent-encoded (encodeURIComponent would also encode `:` or `?`, which clients do not decode). */
function percentEncode(message: string): string {
  let out = '';
  for (const byte of Buffer.from(message, 'utf8')) {
    out += byte >= 0x20 && byte <= 0x7e && byte !== 0x25 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export class GrpcStub {
  readonly calls: RecordedCall[] = [];
  readonly #server: Http2Server;
  readonly #handler: StubHandler;
  readonly #waiters = new Set<() => void>();
  readonly #sessions = new Set<Http2Session>();
  #port = 0;
  #claimed = false;

  /** `handler` decides the answer; by default an empty response message (every field at its default). */
  constructor(handler: StubHandler = () => EMPTY_RESPONSE) {
    this.#handler = handler;
    this.#server = createServer();
    this.#server.on('stream', (stream, headers) => this.#serve(stream, headers));
    this.#server.on('session', (session) => {
      this.#sessions.add(session);
      session.once('close', () => this.#sessions.delete(session));
    });
    this.#server.on('sessionError', () => {});
  }

  /** Listens on loopback `port` (default: a free one, claimed in the port registry until close). */
  async listen(port = 0): Promise<this> {
    if (port === 0) {
      this.#port = await listenOnFreePort(this.#server);
      this.#claimed = true;
    } else {
      await new Promise<void>((resolve, reject) => {
        this.#server.once('error', reject);
        this.#server.listen(port, '127.0.0.1', () => resolve());
      });
      this.#port = port;
    }
    // A stub a case forgot to close must not keep its worker process alive.
    this.#server.unref();
    return this;
  }

  get address(): string {
    return `127.0.0.1:${this.#port}`;
  }

  /** Resolves with the first recorded call `match` accepts (waiting up to `timeoutMs` for it). */
  waitForCall(match: (call: RecordedCall) => boolean = () => true, timeoutMs = 10_000): Promise<RecordedCall> {
    return new Promise((resolve, reject) => {
      const look = (): boolean => {
        const call = this.calls.find(match);
        if (call) resolve(call);
        return call !== undefined;
      };
      if (look()) return;
      const timer = setTimeout(() => {
        this.#waiters.delete(wake);
        reject(new Error(`grpc stub at ${this.address}: no such call within ${timeoutMs} ms (${this.calls.length} other calls)`));
      }, timeoutMs);
      const wake = (): void => {
        if (!look()) return;
        clearTimeout(timer);
        this.#waiters.delete(wake);
      };
      this.#waiters.add(wake);
    });
  }

  #serve(stream: ServerHttp2Stream, headers: IncomingHttpHeaders): void {
    stream.on('error', () => {});
    const chunks: Buffer[] = [];
    const closed = new Promise<number>((resolve) => stream.once('close', () => resolve(stream.rstCode ?? 0)));
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('end', () => {
      const body = Buffer.concat(chunks);
      // One message per unary call: flag byte, 4-byte length, message.
      const length = body.length >= 5 ? body.readUInt32BE(1) : 0;
      const message = body.subarray(5, 5 + length); // body is this call's own: no copy
      const call: RecordedCall = { path: String(headers[':path']), headers, message, at: Date.now(), closed };
      this.calls.push(call);
      for (const wake of this.#waiters) wake();
      void Promise.resolve(this.#handler(call)).then((answer) => this.#answer(stream, answer));
    });
  }

  #answer(stream: ServerHttp2Stream, answer: StubAnswer): void {
    if (answer === 'hang' || stream.destroyed || stream.closed) return;
    const head = { [constants.HTTP2_HEADER_STATUS]: 200, 'content-type': 'application/grpc' };
    if ('code' in answer) {
      // Trailers-only response.
      stream.respond({ ...head, 'grpc-status': String(answer.code), 'grpc-message': percentEncode(answer.message) }, { endStream: true });
      return;
    }
    const frame = Buffer.alloc(5 + answer.response.length);
    frame.writeUInt32BE(answer.response.length, 1);
    frame.set(answer.response, 5);
    stream.respond(head, { waitForTrailers: true });
    stream.once('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
    stream.end(frame);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      // Sessions of clients that stay connected would keep close() waiting.
      for (const session of this.#sessions) session.destroy();
    });
    if (this.#claimed) releasePorts([this.#port]);
  }
}
