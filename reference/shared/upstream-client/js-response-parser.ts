// An HTTP/1 response parser in plain JavaScript with the interface and callbacks of Node's own (see
// response-parser.ts), for a runtime that no longer exposes the native one. It frames answers as llhttp
// does in its strict mode: one Content-Length, never beside Transfer-Encoding, CRLF line ends, CRLF after
// chunk data. A proxy that frames an answer otherwise than its upstream meant can be made to mix answers up.
import type { ResponseParser } from './response-parser.ts';

// Where the parser is in a message.
const HEAD = 0;
const LENGTH = 1;
const CHUNK_SIZE = 2;
const CHUNK_DATA = 3;
const CHUNK_END = 4;
const TRAILERS = 5;
const UNTIL_CLOSE = 6;
const CLOSED = 7;
const FAILED = 8;

const STATUS_LINE = /^HTTP\/(\d)\.(\d) (\d{3})(?: ([^\0]*))?$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const FORBIDDEN_IN_VALUE = /[\0\r\n]/;
const CHUNK_SIZE_LINE = /^([0-9A-Fa-f]{1,12})[ \t]*(?:;.*)?$/;
const DIGITS = /^\d{1,15}$/;

type Callback = (this: JsResponseParser, ...args: unknown[]) => unknown;

function parseError(code: string, reason: string): Error {
  return Object.assign(new Error(`Parse Error: ${reason}`), { code, reason });
}

export class JsResponseParser implements ResponseParser {
  static readonly REQUEST = 1;
  static readonly RESPONSE = 2;
  static readonly kOnMessageBegin = 0;
  static readonly kOnHeaders = 1;
  static readonly kOnHeadersComplete = 2;
  static readonly kOnBody = 3;
  static readonly kOnMessageComplete = 4;
  static readonly kOnExecute = 5;
  [callback: number]: unknown;

  #maxHeaderSize = 8 * 1024;
  #state = HEAD;
  #inMessage = false;
  /** The line being read (latin1, one character per byte), and the bytes of head lines read so far. */
  #line = '';
  #headBytes = 0;
  #lines: string[] = [];
  #remaining = 0;
  /** The answer being read leaves the connection open (its version's default, or Connection). */
  #persistent = true;
  #error: Error | undefined;

  initialize(_type: number, _resource: object, maxHeaderSize: number, _lenient: number): void {
    this.#maxHeaderSize = maxHeaderSize;
    this.#state = HEAD;
    this.#inMessage = false;
    this.#line = '';
    this.#headBytes = 0;
    this.#lines = [];
    this.#persistent = true;
    this.#error = undefined;
  }

  execute(data: Buffer): number | Error {
    let at = 0;
    while (at < data.length && this.#state !== FAILED) {
      switch (this.#state) {
        case HEAD:
          if (!this.#inMessage) {
            this.#inMessage = true;
            this.#call(JsResponseParser.kOnMessageBegin);
          }
          at = this.#readHeadLine(data, at);
          break;
        case TRAILERS:
          at = this.#readHeadLine(data, at);
          break;
        case LENGTH:
        case CHUNK_DATA:
        case UNTIL_CLOSE: {
          const end = this.#state === UNTIL_CLOSE ? data.length : Math.min(data.length, at + this.#remaining);
          this.#remaining -= end - at;
          const chunk = data.subarray(at, end);
          at = end;
          this.#call(JsResponseParser.kOnBody, chunk);
          if (this.#remaining === 0 && this.#state === LENGTH) this.#complete();
          else if (this.#remaining === 0 && this.#state === CHUNK_DATA) this.#state = CHUNK_END;
          break;
        }
        case CHUNK_SIZE:
          at = this.#readChunkSize(data, at);
          break;
        case CLOSED:
          // As llhttp: after an answer that closes the connection, only blank lines may follow.
          if (data[at] !== 13 && data[at] !== 10) this.#fail('HPE_CLOSED_CONNECTION', 'Data after `Connection: close`');
          at++;
          break;
        case CHUNK_END:
          this.#line += String.fromCharCode(data[at++]!);
          if (!'\r\n'.startsWith(this.#line)) this.#fail('HPE_STRICT', 'Expected CRLF after chunk data');
          else if (this.#line.length === 2) {
            this.#line = '';
            this.#state = CHUNK_SIZE;
          }
          break;
      }
    }
    return this.#error ?? data.length;
  }

  finish(): number | Error | undefined {
    if (this.#state === UNTIL_CLOSE) this.#complete();
    else if (this.#state === FAILED) return this.#error;
    else if (this.#inMessage) return this.#fail('HPE_INVALID_EOF_STATE', 'Invalid EOF state');
    return undefined;
  }

  close(): void {
    this.#state = FAILED;
    this.#error ??= parseError('HPE_CLOSED_CONNECTION', 'Parser closed');
  }

  #call(callback: number, ...args: unknown[]): unknown {
    return (this[callback] as Callback | undefined)?.call(this, ...args);
  }

  #fail(code: string, reason: string): Error {
    this.#state = FAILED;
    this.#error = parseError(code, reason);
    return this.#error;
  }

  /** Reads up to a line end; undefined while the line is incomplete. Bytes beyond the size limit fail. */
  #readLine(data: Buffer, at: number): [line: string | undefined, at: number] {
    const lf = data.indexOf(10, at);
    const end = lf === -1 ? data.length : lf + 1;
    const room = this.#maxHeaderSize - this.#headBytes - this.#line.length;
    if (end - at > room) {
      this.#fail('HPE_HEADER_OVERFLOW', 'Header overflow');
      return [undefined, data.length];
    }
    this.#line += data.toString('latin1', at, end);
    if (lf === -1) return [undefined, end];
    const line = this.#line;
    this.#line = '';
    if (line.length < 2 || line.charCodeAt(line.length - 2) !== 13) {
      this.#fail('HPE_CR_EXPECTED', 'Missing expected CR after line');
      return [undefined, data.length];
    }
    return [line.slice(0, -2), end];
  }

  #readHeadLine(data: Buffer, at: number): number {
    const [line, next] = this.#readLine(data, at);
    if (line === undefined) {
      // Garbage is refused as soon as it cannot begin a status line, not only once a line ends.
      if (this.#state === HEAD && this.#lines.length === 0 && !'HTTP/'.startsWith(this.#line.slice(0, 5))) {
        this.#fail('HPE_INVALID_CONSTANT', 'Expected HTTP/');
      }
      return next;
    }
    this.#headBytes += line.length + 2;
    if (line !== '') this.#lines.push(line);
    else if (this.#state === HEAD) this.#headComplete();
    else this.#trailersComplete();
    return next;
  }

  /** Name/value pairs of header lines, or an error. */
  #fields(lines: readonly string[]): string[] | Error {
    const fields: string[] = [];
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon);
      if (colon <= 0 || !TOKEN.test(name)) return this.#fail('HPE_INVALID_HEADER_TOKEN', 'Invalid header token');
      const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
      if (FORBIDDEN_IN_VALUE.test(value)) return this.#fail('HPE_INVALID_HEADER_TOKEN', 'Invalid header value char');
      fields.push(name, value);
    }
    return fields;
  }

  #headComplete(): void {
    const [statusLine = '', ...fieldLines] = this.#lines;
    this.#lines = [];
    this.#headBytes = 0;
    const match = STATUS_LINE.exec(statusLine);
    if (match === null) return void this.#fail('HPE_INVALID_CONSTANT', 'Expected HTTP/ status line');
    const headers = this.#fields(fieldLines);
    if (headers instanceof Error) return;
    const major = Number(match[1]);
    const minor = Number(match[2]);
    const status = Number(match[3]);
    let length = -1;
    let transferEncoding = false;
    let chunked = false;
    let close = false;
    let keepAliveAsked = false;
    for (let i = 0; i < headers.length; i += 2) {
      const name = headers[i]!.toLowerCase();
      const value = headers[i + 1]!;
      if (name === 'content-length') {
        if (length !== -1) return void this.#fail('HPE_UNEXPECTED_CONTENT_LENGTH', 'Duplicate Content-Length');
        if (!DIGITS.test(value)) return void this.#fail('HPE_INVALID_CONTENT_LENGTH', 'Invalid character in Content-Length');
        length = Number(value);
      } else if (name === 'transfer-encoding') {
        transferEncoding = true;
        chunked = value.split(',').at(-1)!.trim().toLowerCase() === 'chunked';
      } else if (name === 'connection') {
        for (const token of value.toLowerCase().split(',')) {
          if (token.trim() === 'close') close = true;
          else if (token.trim() === 'keep-alive') keepAliveAsked = true;
        }
      }
    }
    if (transferEncoding && length !== -1) return void this.#fail('HPE_UNEXPECTED_CONTENT_LENGTH', 'Content-Length can\'t be present with Transfer-Encoding');
    const bodiless = status < 200 || status === 204 || status === 304;
    // As llhttp_should_keep_alive: the version's default, and never an answer that only the close can end.
    const endsAtClose = !bodiless && (transferEncoding ? !chunked : length === -1);
    this.#persistent = major > 1 || (major === 1 && minor >= 1) ? !close : keepAliveAsked;
    const keepAlive = !endsAtClose && this.#persistent;
    const skip = this.#call(JsResponseParser.kOnHeadersComplete, major, minor, headers, undefined, undefined, status, match[4] ?? '', status === 101, keepAlive);
    if (this.#state === FAILED) return;
    if (bodiless || skip === 1 || length === 0) this.#complete();
    else if (chunked) this.#state = CHUNK_SIZE;
    else if (length > 0) {
      this.#state = LENGTH;
      this.#remaining = length;
    } else this.#state = UNTIL_CLOSE;
  }

  #readChunkSize(data: Buffer, at: number): number {
    const [line, next] = this.#readLine(data, at);
    if (line === undefined) return next;
    const match = CHUNK_SIZE_LINE.exec(line);
    if (match === null) {
      this.#fail('HPE_INVALID_CHUNK_SIZE', 'Invalid character in chunk size');
      return next;
    }
    this.#remaining = Number.parseInt(match[1]!, 16);
    this.#state = this.#remaining === 0 ? TRAILERS : CHUNK_DATA;
    return next;
  }

  #trailersComplete(): void {
    const trailers = this.#fields(this.#lines);
    this.#lines = [];
    this.#headBytes = 0;
    if (trailers instanceof Error) return;
    if (trailers.length > 0) this.#call(JsResponseParser.kOnHeaders, trailers, '');
    this.#complete();
  }

  #complete(): void {
    this.#state = this.#persistent ? HEAD : CLOSED;
    this.#inMessage = false;
    this.#remaining = 0;
    this.#call(JsResponseParser.kOnMessageComplete);
  }
}
