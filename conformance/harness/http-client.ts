// A raw HTTP(S) client for black-box checks. It sends the path exactly as given (no URL normalisation, so
// `/../` and broken percent-encodings reach the target), never follows redirects, and records every request
// as a curl command line for the failure report.
import { type ClientRequest, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface HttpRequest {
  method?: string;
  path: string;
  headers?: Record<string, string | string[]>;
  body?: string | Uint8Array;
  timeoutMs?: number;
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
  json<T = unknown>(): T;
}

const DEFAULT_TIMEOUT_MS = 15_000;
/** How long a reproducer's curl keeps a stream open. */
const STREAM_REPRO_S = 10;

function quote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Keeps a request body as a file for the reproducer and returns the path it will have. */
export type BodyFiler = (body: Uint8Array) => string;

/** The request as a curl command line. A body that is not short printable text goes to a file (`fileBody`)
 * and is sent from it. `maxTimeS` bounds a request that does not end by itself (an event stream). */
export function curlLine(base: URL, req: HttpRequest, options: ClientOptions = {}, fileBody?: BodyFiler, maxTimeS?: number): string {
  const parts = ['curl -sS -i --path-as-is'];
  if (maxTimeS !== undefined) parts.push(`-N --max-time ${maxTimeS}`);
  if (options.localAddress) parts.push(`--interface ${options.localAddress}`);
  if (base.protocol === 'https:') parts.push('-k');
  const method = req.method ?? 'GET';
  if (method === 'HEAD') parts.push('-I');
  else if (method !== 'GET') parts.push(`-X ${method}`);
  for (const [name, value] of Object.entries(req.headers ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) parts.push(`-H ${quote(`${name}: ${v}`)}`);
  }
  if (req.body !== undefined) {
    const bytes = typeof req.body === 'string' ? Buffer.from(req.body) : req.body;
    // Only a short body is looked at as text: a large one is never shown (converting it cost a worker seconds).
    const short = bytes.length <= 300;
    const text = !short ? '' : typeof req.body === 'string' ? req.body : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: detecting control bytes is the point
    const printable = short && !/[\x00-\x08\x0e-\x1f\x7f-\xff]/.test(text);
    if (printable) parts.push(`--data-binary ${quote(text)}`);
    else if (fileBody) parts.push(`--data-binary @${quote(fileBody(bytes))}`);
    else parts.push(`--data-binary @body.bin  # ${bytes.length} bytes, not kept`);
  }
  parts.push(quote(`${base.origin}${req.path}`));
  return parts.join(' ');
}

export interface ClientOptions {
  /** Source address of the connections (for example 127.0.0.2, to be another client on loopback). */
  localAddress?: string;
}

/** The headers, with Content-Length for any body the request does not frame itself: a body written in pieces
 * would otherwise go chunked, and Node sends the body of a GET, DELETE or OPTIONS without any framing. */
function withLength(req: HttpRequest): Record<string, string | string[]> | undefined {
  if (req.body === undefined) return req.headers;
  const framed = Object.keys(req.headers ?? {}).some((h) => ['content-length', 'transfer-encoding'].includes(h.toLowerCase()));
  return framed ? req.headers : { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) };
}

/** Bodies above this size are written a piece at a time, and no more once an answer has come. */
const STREAMED_ABOVE = 1024 * 1024;
const PIECE = 64 * 1024;
const ANSWER_WAIT_MS = 1000;
/** The wait before the body when it is sent again after a reset (a busy server may take seconds to answer). */
const RETRY_ANSWER_WAIT_MS = 10_000;

/** The connection went down while the body was still being written: the server cannot have acted on the
 * request (it never got all of it), so the request can be sent again. */
class BodyCut extends Error {}

/** Sends the headers, gives the server `waitMs` to answer from them (as curl does with `Expect:
 * 100-continue`), then writes `body`, stopping once it has answered: a server that refuses a large body from
 * its headers (413) and closes would otherwise reset the connection under a client still writing, which then
 * sees EPIPE instead of the answer. Resolves true once the whole body is written. */
async function writeUntilAnswered(r: ClientRequest, body: string | Uint8Array, answered: () => boolean, waitMs: number): Promise<boolean> {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  r.flushHeaders();
  for (const until = Date.now() + waitMs; !answered() && !r.destroyed && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 10));
  for (let at = 0; at < bytes.length && !answered() && !r.destroyed; at += PIECE) {
    if (!r.write(bytes.subarray(at, at + PIECE))) {
      await new Promise<void>((resolve) => {
        const go = (): void => {
          r.off('drain', go).off('close', go);
          resolve();
        };
        r.once('drain', go).once('close', go);
      });
    }
  }
  if (r.destroyed) return false;
  r.end();
  return true;
}

function send(base: URL, req: HttpRequest, options: ClientOptions, answerWaitMs = ANSWER_WAIT_MS): { done: Promise<IncomingMessage>; abort(): void } {
  const requester = base.protocol === 'https:' ? httpsRequest : httpRequest;
  let abort = (): void => {};
  const done = new Promise<IncomingMessage>((resolve, reject) => {
    const r = requester({
      host: base.hostname,
      port: base.port,
      method: req.method ?? 'GET',
      path: req.path,
      headers: withLength(req),
      agent: false,
      rejectUnauthorized: false,
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      setHost: !Object.keys(req.headers ?? {}).some((h) => h.toLowerCase() === 'host'),
    });
    abort = () => r.destroy();
    r.setTimeout(req.timeoutMs ?? DEFAULT_TIMEOUT_MS, () => r.destroy(new Error(`no response within ${req.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`)));
    let answered = false;
    let written: Promise<boolean> | undefined;
    r.once('response', (res) => {
      answered = true;
      resolve(res);
    });
    r.once('error', (err: NodeJS.ErrnoException) => {
      const reset = err.code === 'EPIPE' || err.code === 'ECONNRESET';
      if (!reset || !written) reject(err);
      else void written.then((whole) => reject(whole ? err : new BodyCut(`${err.message} while the body was being sent`, { cause: err })));
    });
    if (req.body !== undefined && req.body.length > STREAMED_ABOVE) written = writeUntilAnswered(r, req.body, () => answered, answerWaitMs);
    else r.end(req.body);
  });
  return { done, abort: () => abort() };
}

export class HttpClient {
  readonly base: URL;
  readonly #record: (line: string) => void;
  readonly #options: ClientOptions;
  readonly #fileBody: BodyFiler | undefined;

  constructor(baseUrl: string, record: (line: string) => void = () => {}, options: ClientOptions = {}, fileBody?: BodyFiler) {
    this.base = new URL(baseUrl);
    this.#record = record;
    this.#options = options;
    this.#fileBody = fileBody;
  }

  #curl(req: HttpRequest, maxTimeS?: number): string {
    return curlLine(this.base, req, this.#options, this.#fileBody, maxTimeS);
  }

  async request(req: HttpRequest): Promise<HttpResponse> {
    this.#record(this.#curl(req));
    const res = await send(this.base, req, this.#options).done.catch((err: unknown) => {
      if (!(err instanceof BodyCut)) throw err;
      this.#record(`# ${err.message}: sent again, waiting up to ${RETRY_ANSWER_WAIT_MS} ms for an answer before the body`);
      return send(this.base, req, this.#options, RETRY_ANSWER_WAIT_MS).done;
    });
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const text = body.toString('utf8');
    return {
      status: res.statusCode ?? 0,
      headers: res.headers,
      body,
      text,
      json<T>(): T {
        return JSON.parse(text) as T;
      },
    };
  }

  /** Opens a response and hands over the stream (event streams, chunked output); the caller destroys it. */
  async open(req: HttpRequest): Promise<IncomingMessage> {
    this.#record(this.#curl(req, STREAM_REPRO_S));
    return send(this.base, { ...req, timeoutMs: req.timeoutMs ?? 60_000 }, this.#options).done;
  }

  /** Sends a request the case may abandon before the answer (a client going away): `abort` closes the
   * connection. */
  abortable(req: HttpRequest): { response: Promise<IncomingMessage>; abort(): void } {
    this.#record(this.#curl(req, STREAM_REPRO_S));
    const sent = send(this.base, { ...req, timeoutMs: req.timeoutMs ?? 60_000 }, this.#options);
    sent.done.catch(() => undefined); // aborting rejects it
    return { response: sent.done, abort: sent.abort };
  }

  get(path: string, headers?: Record<string, string | string[]>): Promise<HttpResponse> {
    return this.request({ path, ...(headers ? { headers } : {}) });
  }
}
