// A client of the target's admin API (address and token from the case's setup), and readers of its answers
// that tell "the answer was wrong" (a check) from "the answer could not be read" (the case cannot judge).
import type { ExecutionContext } from 'ava';
import type { CaseContext, HttpClient, HttpResponse } from '../harness/index.ts';

export interface AdminCall {
  method: string;
  path: string;
  /** A JSON body (sent with Content-Type: application/json); a string is sent as is. */
  body?: unknown;
  /** The bearer token; default the setup's; `null` sends no Authorization header. */
  token?: string | null;
  headers?: Record<string, string>;
}

export class AdminClient {
  readonly http: HttpClient;
  readonly token: string | undefined;
  readonly address: string;

  constructor(http: HttpClient, address: string, token: string | undefined) {
    this.http = http;
    this.address = address;
    this.token = token;
  }

  call(call: AdminCall): Promise<HttpResponse> {
    const token = call.token === undefined ? this.token : call.token;
    const headers: Record<string, string> = {};
    if (token !== null && token !== undefined) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (call.body !== undefined) {
      body = typeof call.body === 'string' ? call.body : JSON.stringify(call.body);
      headers['content-type'] = 'application/json';
      // Stated, not left to the client library: Node sends a DELETE body with no length at all.
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    return this.http.request({ method: call.method, path: call.path, headers: { ...headers, ...call.headers }, ...(body === undefined ? {} : { body }) });
  }

  get(path: string, options: Omit<AdminCall, 'method' | 'path'> = {}): Promise<HttpResponse> {
    return this.call({ method: 'GET', path, ...options });
  }

  post(path: string, body?: unknown, options: Omit<AdminCall, 'method' | 'path' | 'body'> = {}): Promise<HttpResponse> {
    return this.call({ method: 'POST', path, body, ...options });
  }

  delete(path: string, body?: unknown, options: Omit<AdminCall, 'method' | 'path' | 'body'> = {}): Promise<HttpResponse> {
    return this.call({ method: 'DELETE', path, body, ...options });
  }
}

export type Json = Record<string, unknown>;

export const is2xx = (res: HttpResponse): boolean => res.status >= 200 && res.status < 300;

/** The body as a JSON object, or undefined. */
export function jsonObject(res: HttpResponse): Json | undefined {
  try {
    const value: unknown = JSON.parse(res.text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

/** Two URLs name the same upstream once normalised (WHATWG URL): how the suite compares target URLs. */
export function sameUrl(a: unknown, b: string): boolean {
  try {
    return new URL(String(a)).href === new URL(b).href;
  } catch {
    return false;
  }
}

export const shown = (res: HttpResponse): string => `${res.status} ${res.text.slice(0, 400)}`;

/** A prerequisite admin call: it must succeed (2xx) with a JSON object, else the case cannot judge. */
export async function needOk(c: CaseContext, what: string, call: Promise<HttpResponse>): Promise<Json> {
  const res = await c.need(what, call);
  const body = jsonObject(res);
  if (!is2xx(res) || body === undefined) c.inconclusive(`${what}: want a 2xx JSON object, got ${shown(res)}`);
  return body;
}

/** The answer must be a 2xx JSON object (a check of the case's clause); the object, or undefined. */
export function successBody(t: ExecutionContext, res: HttpResponse, what: string): Json | undefined {
  const body = jsonObject(res);
  if (!t.true(is2xx(res) && body !== undefined, `${what}: want a success (2xx) with a JSON object, got ${shown(res)}`)) return undefined;
  return body;
}

/** The answer has `status` and is an error body `{status: "error", message: string}` (a check). */
export function errorBody(t: ExecutionContext, res: HttpResponse, status: number, what: string): boolean {
  const body = jsonObject(res);
  const ok = res.status === status && body?.status === 'error' && typeof body.message === 'string';
  return t.true(ok, `${what}: want ${status} with {"status":"error","message":"…"}, got ${shown(res)}`);
}

// ---------------------------------------------------------------- the twelve endpoints

export interface Endpoint {
  name: string;
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  /** Changes state (checked "nothing changed" when refused). */
  changes: boolean;
}

/** The documented endpoints (a purge URL and bodies are added by the case); weight before remove, so a
 * sequence of valid calls weights the target before removing it. */
export const ENDPOINTS: readonly Endpoint[] = [
  { name: 'status', method: 'GET', path: '/status', changes: false },
  { name: 'reload', method: 'POST', path: '/reload', changes: true },
  { name: 'shutdown', method: 'POST', path: '/shutdown', changes: true },
  { name: 'upstreams', method: 'GET', path: '/upstreams', changes: false },
  { name: 'upstreams-add', method: 'POST', path: '/upstreams/add', changes: true },
  { name: 'upstreams-weight', method: 'POST', path: '/upstreams/weight', changes: true },
  { name: 'upstreams-remove', method: 'POST', path: '/upstreams/remove', changes: true },
  { name: 'cache-purge', method: 'DELETE', path: '/cache/purge', changes: true },
  { name: 'rate-limits', method: 'GET', path: '/rate-limits', changes: false },
  { name: 'ip-deny-add', method: 'POST', path: '/ip-deny', changes: true },
  { name: 'ip-deny-delete', method: 'DELETE', path: '/ip-deny', changes: true },
  { name: 'certs-reload', method: 'POST', path: '/certs/reload', changes: true },
];

export const endpoint = (name: string): Endpoint => {
  const found = ENDPOINTS.find((e) => e.name === name);
  if (!found) throw new Error(`no endpoint ${name}`);
  return found;
};

export interface UpstreamsListing {
  upstreams: Json[];
  routes: (Json & { site: string; path: string; strategy: string; targets: (Json & { url: string; weight: number })[] })[];
}

/** GET /upstreams as a prerequisite: an object with two arrays, else the case cannot judge. */
export async function listing(c: CaseContext, admin: AdminClient, what = 'GET /upstreams'): Promise<UpstreamsListing> {
  const body = await needOk(c, what, admin.get('/upstreams'));
  if (!Array.isArray(body.upstreams) || !Array.isArray(body.routes)) c.inconclusive(`${what}: no upstreams and routes arrays in ${JSON.stringify(body).slice(0, 400)}`);
  return body as unknown as UpstreamsListing;
}

/** The targets (url -> weight) of the route `path` on the site labelled `site` (any site when undefined). */
export function routeTargets(l: UpstreamsListing, path: string, site?: string): Map<string, number> | undefined {
  const route = l.routes.find((r) => r.path === path && (site === undefined || r.site === site));
  if (!route || !Array.isArray(route.targets)) return undefined;
  return new Map(route.targets.map((t) => [t.url, t.weight]));
}

/** GET /status as a prerequisite. */
export const status = (c: CaseContext, admin: AdminClient, what = 'GET /status'): Promise<Json> => needOk(c, what, admin.get('/status'));
