// Fetching the page to import: GET over node:http(s), redirects followed by hand (each target re-checked), one
// deadline for the whole fetch and one per connection, HTML only, and a body read up to a cap — beyond it the
// connection is dropped, so a huge or endless page costs at most the cap.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { addressProblem, checkedLookup, literalAddress } from './address-check.ts';
import { urlProblem } from './check-url.ts';
import { ImportError } from './import-error.ts';
import type { ImportOptions } from './import-options.ts';
import { decodeHtml, htmlMediaType } from './page-encoding.ts';

export interface FetchedPage {
  /** Where the page was found, after redirects. */
  readonly url: URL;
  readonly html: string;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export async function fetchPage(start: URL, options: ImportOptions): Promise<FetchedPage> {
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new ImportError('timeout', `the page did not arrive within ${seconds(options.timeoutMs)}`)),
    options.timeoutMs,
  );
  try {
    let url = start;
    for (let redirects = 0; ; redirects++) {
      const response = await send(url, options, deadline.signal, redirects);
      const next = REDIRECT_STATUSES.has(response.statusCode ?? 0) ? redirectTarget(response, url, redirects, options) : null;
      if (next) {
        url = next;
        continue;
      }
      const body = await readBody(response, options.maxBytes, deadline.signal);
      return { url, html: decodeHtml(body, String(response.headers['content-type'])) };
    }
  } catch (error) {
    throw deadline.signal.aborted ? deadline.signal.reason : asImportError(error);
  } finally {
    clearTimeout(timer);
  }
}

/** The error for an address refused: the URL given is refused (invalid-url), or the redirect (fetch-failed). */
function addressRefusal(hop: number, problem: string): ImportError {
  const rule = 'the import does not fetch from loopback, private, link-local or unspecified addresses';
  return hop === 0
    ? new ImportError('invalid-url', `url refused: ${problem}; ${rule}`)
    : new ImportError('fetch-failed', `redirect refused: ${problem}; ${rule}`);
}

/** `hop`: 0 for the URL given, then one more per redirect. */
function send(url: URL, options: ImportOptions, signal: AbortSignal, hop: number): Promise<IncomingMessage> {
  const refuse = options.allowPrivateAddresses ? null : (problem: string) => addressRefusal(hop, problem);
  const literal = literalAddress(url.hostname);
  const literalProblem = refuse && literal !== null ? addressProblem(literal) : null;
  if (refuse && literalProblem) return Promise.reject(refuse(literalProblem));
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      {
        signal,
        ...(refuse ? { lookup: checkedLookup(refuse) } : {}),
        // One connection per fetch, closed after it: nothing lingers in a pool (and no pool is shared with
        // whatever else the process does).
        agent: false,
        headers: {
          'user-agent': options.userAgent,
          accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
          'accept-encoding': 'gzip, deflate, br',
        },
      },
      (response) => {
        const problem = answerProblem(response, options.maxBytes);
        if (problem) {
          response.destroy();
          reject(problem);
        } else resolve(response);
      },
    );
    request.on('error', reject);
    request.on('socket', (socket) => {
      if (!socket.connecting) return;
      const connectTimer = setTimeout(() => {
        request.destroy(new ImportError('timeout', `could not connect to ${url.host} within ${seconds(options.connectTimeoutMs)}`));
      }, options.connectTimeoutMs);
      const done = () => clearTimeout(connectTimer);
      socket.once('connect', done).once('close', done);
      // The last word, whatever resolved the name: the address actually connected to.
      if (refuse) {
        socket.once('connect', () => {
          const problem = socket.remoteAddress === undefined ? 'the connected address is unknown' : addressProblem(socket.remoteAddress);
          if (problem) request.destroy(refuse(problem));
        });
      }
    });
    request.end();
  });
}

/** Why an answer is not a page to read (redirects pass: the caller follows them). */
function answerProblem(response: IncomingMessage, maxBytes: number): ImportError | null {
  const status = response.statusCode ?? 0;
  if (REDIRECT_STATUSES.has(status)) return null;
  if (status < 200 || status > 299) return new ImportError('fetch-failed', `the page answered ${status}${statusText(response)}`);
  const type = response.headers['content-type'];
  const media = htmlMediaType(type);
  if (!media) {
    const said = type ? type.split(';')[0]!.trim() : 'without a Content-Type';
    return new ImportError('not-html', `the page is ${said}, not HTML (text/html or application/xhtml+xml)`);
  }
  const length = Number(response.headers['content-length']);
  if (length > maxBytes) return new ImportError('too-large', `the page is ${length} bytes; the limit is ${maxBytes}`);
  return null;
}

function redirectTarget(response: IncomingMessage, from: URL, redirects: number, options: ImportOptions): URL {
  response.destroy();
  const location = response.headers.location;
  if (redirects >= options.maxRedirects) {
    throw new ImportError('fetch-failed', `more than ${options.maxRedirects} redirects`);
  }
  if (!location) throw new ImportError('fetch-failed', `the page answered ${response.statusCode} without a Location`);
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new ImportError('fetch-failed', `the page redirected to an invalid URL: ${JSON.stringify(location.slice(0, 100))}`);
  }
  const problem = urlProblem(next);
  if (problem) throw new ImportError('fetch-failed', `redirect refused: ${problem}`);
  next.hash = '';
  return next;
}

/** The body, decompressed, up to `maxBytes`; ImportError `too-large` (and the connection dropped) beyond. */
async function readBody(response: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  let body: Readable = response;
  try {
    body = decompressed(response);
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw new ImportError('too-large', `the page is larger than ${maxBytes} bytes; reading stopped there`);
      chunks.push(chunk as Buffer);
    }
  } finally {
    response.destroy();
    if (body !== response) body.destroy();
  }
  signal.throwIfAborted();
  return Buffer.concat(chunks, size);
}

function decompressed(response: IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : null;
  if (!decoder) {
    if (encoding === 'identity' || encoding === '') return response;
    throw new ImportError('fetch-failed', `the page is sent with an unsupported Content-Encoding: ${encoding}`);
  }
  response.on('error', (error) => decoder.destroy(error));
  return response.pipe(decoder);
}

/** Platform errors, in one place, as `fetch-failed` with what a user can act on. */
function asImportError(error: unknown): ImportError {
  if (error instanceof ImportError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const reason = (() => {
    switch (code) {
      case 'ECONNREFUSED':
        return 'the connection was refused';
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return 'the host was not found';
      case 'ECONNRESET':
      case 'EPIPE':
        return 'the connection was reset';
      case 'EHOSTUNREACH':
      case 'ENETUNREACH':
        return 'the host cannot be reached';
      default:
        if (/^Z_|^ERR__ERROR_/.test(code)) return 'the compressed body is corrupt'; // zlib's and brotli's codes
        if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return `the TLS certificate was refused (${code})`;
        if (code.startsWith('HPE_')) return 'the answer is not valid HTTP';
        return (error as Error | undefined)?.message || 'the request failed';
    }
  })();
  return new ImportError('fetch-failed', `the page could not be fetched: ${reason}`, { cause: error });
}

const seconds = (ms: number) => `${ms / 1000} s`;
const statusText = (response: IncomingMessage) => (response.statusMessage ? ` ${response.statusMessage}` : '');
