// A site's request- and answer-side sections, built once per config: the header changes on the upstream
// request (requestTransform), on the answer (responseTransform, securityHeaders, CORS), the CORS preflight the
// gateway answers itself, which upstream error answers it masks, and the request limits. Headers travel as
// flat name/value lists (the form node:http's writeHead and the upstream client take as they are).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CorsConfig, HeaderTransformConfig, SiteFiltersConfig } from '../config/gateway-config.ts';
import { changeHeaders, replaceHeaders } from './forward-headers.ts';

/** The value of header `name` (lower-case) in a flat list, or undefined. */
function headerValue(list: readonly string[], name: string): string | undefined {
  for (let i = 0; i < list.length; i += 2) if (list[i]!.toLowerCase() === name) return list[i + 1];
  return undefined;
}

class HeaderTransform {
  readonly #remove: ReadonlySet<string>;
  readonly #set: readonly [string, string][];

  constructor(config: HeaderTransformConfig) {
    this.#remove = new Set(config.remove);
    this.#set = config.set;
  }

  apply(list: string[]): string[] {
    return changeHeaders(list, this.#remove, this.#set);
  }
}

class Cors {
  readonly #c: CorsConfig;
  readonly #origins: ReadonlySet<string> | undefined;
  readonly #methods: string;

  constructor(config: CorsConfig) {
    this.#c = config;
    this.#origins = config.origins === '*' ? undefined : new Set(config.origins);
    this.#methods = config.methods.join(', ');
  }

  allowed(origin: string): boolean {
    return this.#origins === undefined || this.#origins.has(origin.toLowerCase());
  }

  /** Access-Control-Allow-Origin's value: the origin itself unless any origin is allowed without
   * credentials. */
  #allowOrigin(origin: string): string {
    return this.#origins === undefined && !this.#c.credentials ? '*' : origin;
  }

  /** The headers of an answer to an allowed origin (and Vary: Origin, which every answer of a CORS site
   * gets, since it depends on the origin). */
  answer(list: string[], origin: string | undefined): string[] {
    const set: [string, string][] = [];
    const vary = headerValue(list, 'vary');
    if (vary === undefined) set.push(['vary', 'Origin']);
    else if (!/(^|,)\s*(origin|\*)\s*(,|$)/i.test(vary)) set.push(['vary', `${vary}, Origin`]);
    if (origin !== undefined && this.allowed(origin)) {
      set.push(['access-control-allow-origin', this.#allowOrigin(origin)]);
      if (this.#c.credentials) set.push(['access-control-allow-credentials', 'true']);
      if (this.#c.expose.length > 0) set.push(['access-control-expose-headers', this.#c.expose.join(', ')]);
    }
    return replaceHeaders(list, set);
  }

  /** Answers a preflight: 204, with the Allow headers only when the origin is allowed. */
  preflight(req: IncomingMessage, res: ServerResponse, origin: string): void {
    const headers: Record<string, string> = { vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers', 'content-length': '0' };
    if (this.allowed(origin)) {
      headers['access-control-allow-origin'] = this.#allowOrigin(origin);
      headers['access-control-allow-methods'] = this.#methods;
      const asked = req.headers['access-control-request-headers'];
      const allowHeaders = this.#c.headers === undefined ? asked : this.#c.headers.join(', ');
      if (allowHeaders) headers['access-control-allow-headers'] = allowHeaders;
      if (this.#c.credentials) headers['access-control-allow-credentials'] = 'true';
      headers['access-control-max-age'] = String(this.#c.maxAgeSecs);
    }
    res.writeHead(204, headers);
    res.end();
  }
}

export class SiteFilters {
  readonly #request: HeaderTransform | undefined;
  readonly #response: HeaderTransform | undefined;
  readonly #security: readonly [string, string][] | undefined;
  readonly #cors: Cors | undefined;
  readonly #masked: ReadonlySet<number> | undefined;
  /** undefined = no bound. */
  readonly maxBodyBytes: number | undefined;
  readonly upstreamTimeoutMs: number | undefined;
  /** Whether answers change at all (the exchange skips answerHeaders otherwise). */
  readonly changesAnswers: boolean;

  constructor(config: SiteFiltersConfig, tls: boolean) {
    this.#request = config.requestTransform && new HeaderTransform(config.requestTransform);
    this.#response = config.responseTransform && new HeaderTransform(config.responseTransform);
    const security = config.securityHeaders;
    if (security !== undefined) {
      const hsts = tls && security.hstsMaxAgeSecs > 0 ? [['strict-transport-security', `max-age=${security.hstsMaxAgeSecs}`] as [string, string]] : [];
      this.#security = [...security.headers, ...hsts];
    }
    this.#cors = config.cors && new Cors(config.cors);
    this.#masked = config.maskErrors && new Set(config.maskErrors.statuses);
    this.maxBodyBytes = config.limits?.maxBodyBytes;
    this.upstreamTimeoutMs = config.limits?.upstreamTimeoutMs;
    this.changesAnswers = this.#response !== undefined || this.#security !== undefined || this.#cors !== undefined;
  }

  /** Answers a CORS preflight of a CORS site (true), else leaves the request alone (false). */
  preflight(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.#cors === undefined || req.method !== 'OPTIONS') return false;
    const origin = req.headers.origin;
    if (origin === undefined || req.headers['access-control-request-method'] === undefined) return false;
    this.#cors.preflight(req, res, origin);
    return true;
  }

  /** The upstream request's headers after requestTransform. */
  requestHeaders(list: string[]): string[] {
    return this.#request === undefined ? list : this.#request.apply(list);
  }

  /** An upstream (or cached) answer's headers for the client: responseTransform, then the security
   * headers, then CORS. */
  answerHeaders(list: string[], req: IncomingMessage): string[] {
    let out = this.#response === undefined ? list : this.#response.apply(list);
    if (this.#security !== undefined) out = replaceHeaders(out, this.#security);
    if (this.#cors !== undefined) out = this.#cors.answer(out, req.headers.origin);
    return out;
  }

  /** Whether an upstream answer of `status` is replaced by the gateway's own. */
  masks(status: number): boolean {
    return this.#masked?.has(status) ?? false;
  }
}
