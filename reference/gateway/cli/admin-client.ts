// How the CLI reaches the admin API (catalog gateway/cli/default-admin-address, admin-flag, admin-env,
// address-precedence-and-form, token-env): the address from --admin, else GATEWAY_ADMIN, else
// 127.0.0.1:2019, written `host:port` or `http://host:port`; the token from GATEWAY_ADMIN_TOKEN as a bearer
// token. One request per connection (no keep-alive: the command ends right after its answer).
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { UsageError } from '../../shared/command-line.ts';

/** A command line the CLI cannot run (one line on stderr, exit 2): the package's one class for it. */
export { UsageError };

export const DEFAULT_ADMIN_ADDRESS = '127.0.0.1:2019';
export const ADMIN_ENV = 'GATEWAY_ADMIN';
export const TOKEN_ENV = 'GATEWAY_ADMIN_TOKEN';
export const ADMIN_TIMEOUT_MS = 30_000;

/** The admin server could not be reached (refused, unknown host, no answer in time): exit 1. */
export class UnreachableError extends Error {
  override name = 'UnreachableError';
}

/** The base URL of the admin server, `http://host:port` (or https:// when written so). */
export function adminBaseUrl(flag: string | undefined, env: NodeJS.ProcessEnv): URL {
  const fromEnv = env[ADMIN_ENV] === '' ? undefined : env[ADMIN_ENV];
  const [source, text] = flag !== undefined ? ['--admin', flag] : fromEnv !== undefined ? [ADMIN_ENV, fromEnv] : ['default', DEFAULT_ADMIN_ADDRESS];
  const written = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  const url = URL.canParse(written) ? new URL(written) : undefined;
  const plain = url !== undefined && url.username === '' && url.password === '' && url.search === '' && url.hash === '';
  if (url === undefined || !plain || !['http:', 'https:'].includes(url.protocol) || url.hostname === '' || url.pathname !== '/') {
    throw new UsageError(`${source}: "${text}" is not an admin address (host:port or http://host:port)`);
  }
  if (written === `http://${text}` && url.port === '') {
    throw new UsageError(`${source}: "${text}" has no port (host:port or http://host:port)`);
  }
  return url;
}

export interface HttpAnswer {
  status: number;
  text: string;
}

export interface SendOptions {
  method: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** false: resolve on the status line and drop the body (a probe). */
  readBody?: boolean;
}

const describe = (err: unknown) => (err instanceof Error ? err.message || (err as { code?: string }).code || err.name : String(err));

/** One HTTP(S) request on a connection of its own; rejects with UnreachableError when no answer comes. */
export function send(url: URL, options: SendOptions): Promise<HttpAnswer> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const body = options.body === undefined ? undefined : Buffer.from(options.body, 'utf8');
  const headers = { ...options.headers, ...(body === undefined ? {} : { 'Content-Length': String(body.length) }) };
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method, headers, agent: false, signal: AbortSignal.timeout(options.timeoutMs) }, (res) => {
      if (options.readBody === false) {
        res.destroy();
        resolve({ status: res.statusCode ?? 0, text: '' });
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (err) => reject(new UnreachableError(describe(err))));
    });
    req.on('error', (err) => {
      const timedOut = err.name === 'AbortError' || (err as { code?: string }).code === 'ABORT_ERR';
      reject(new UnreachableError(timedOut ? `no answer within ${options.timeoutMs / 1000} s` : describe(err)));
    });
    req.end(body);
  });
}

export interface AdminAnswer {
  status: number;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
  text: string;
}

export interface AdminClient {
  /** The address as shown in messages (`127.0.0.1:2019`, or the URL when written with a scheme). */
  readonly address: string;
  readonly hasToken: boolean;
  call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: object): Promise<AdminAnswer>;
}

export function adminClient(flag: string | undefined, env: NodeJS.ProcessEnv): AdminClient {
  const base = adminBaseUrl(flag, env);
  const token = env[TOKEN_ENV] === '' ? undefined : env[TOKEN_ENV];
  const address = base.protocol === 'http:' ? base.host : base.origin;
  return {
    address,
    hasToken: token !== undefined,
    async call(method, path, body) {
      const headers: Record<string, string> = { Accept: 'application/json' };
      // The token's UTF-8 bytes, as node writes header strings in latin1.
      if (token !== undefined) headers['Authorization'] = `Bearer ${Buffer.from(token, 'utf8').toString('latin1')}`;
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      let answer: HttpAnswer;
      try {
        answer = await send(new URL(path, base), {
          method,
          headers,
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          timeoutMs: ADMIN_TIMEOUT_MS,
        });
      } catch (err) {
        throw new UnreachableError(`cannot reach the admin server at ${address}: ${describe(err)}`);
      }
      let json: unknown;
      try {
        json = JSON.parse(answer.text);
      } catch {
        json = undefined;
      }
      return { status: answer.status, json, text: answer.text };
    },
  };
}
