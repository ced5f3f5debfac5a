// The layer of the permitted-variant gateway in front of the reference's admin server: its own authentication
// answers, extra endpoints, error statuses and wording where the document gives none, and its answers' shapes
// (statuses, extra fields, key order, labels, echoes). What the document fixes (the twelve endpoints, their
// documented fields, the documented error statuses, `status`/`message` error bodies, 401 without the right
// token) stays as the reference does it.
import { createHash, timingSafeEqual } from 'node:crypto';
import { relative } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ADMIN_ROUTES } from '../../../reference/gateway/admin/admin-routes.ts';
import { bearerCheck } from '../../../reference/gateway/admin/bearer-auth.ts';
import { normalizeCidr } from '../../../reference/gateway/config/cidr.ts';
import type { GatewayConfig } from '../../../reference/gateway/config/gateway-config.ts';
import type { Gateway } from '../../../reference/gateway/runtime/create-gateway.ts';
import { jsonObjectOf, type Layer, readBody, replay } from '../faulty/faulty-gateway-http.ts';
import { type Answer, type Json, rewriteAnswer, sortKeys, writeJson } from './variant-gateway-http.ts';
import type { GatewayVariant } from './variant-gateway-variants.ts';

export const VARIANT_NAME = 'edge-gateway';
export const VARIANT_VERSION = '1.1.0';
const ADMIN_DELAY_MS = 40;
const MAX_EVENTS = 100;

export interface VariantContext {
  on: (v: GatewayVariant) => boolean;
  gateway: Gateway;
  /** The config the gateway runs on now. */
  config(): GatewayConfig;
  token: string | undefined;
  startedAt: number;
  /** Recent reloads and upstream changes (extra-endpoints' GET /events; never the denies). */
  events: { type: string; at_secs: number; detail: string }[];
  /** Admin requests in progress (counts-admin). */
  adminInflight: number;
}

const KNOWN = new Map<string, string[]>();
for (const route of ADMIN_ROUTES) KNOWN.set(route.path, [...(KNOWN.get(route.path) ?? []), route.method]);

const CHANGES = new Set(['POST /upstreams/add', 'POST /upstreams/remove', 'POST /upstreams/weight']);
/** Answers whose `status` value the document leaves open (status-word). */
const OPEN_STATUS = new Set([...CHANGES, 'DELETE /cache/purge', 'POST /ip-deny', 'DELETE /ip-deny']);
const CREATED = new Set(['POST /upstreams/add', 'POST /ip-deny', 'POST /certs/reload']);

const nowSecs = () => Math.floor(Date.now() / 1000);
const digest = (text: string) => createHash('sha256').update(text, 'latin1').digest();
let requests = 0;

/** `*:<port>` labels as `:<port>` (any-host-label). */
const ownLabel = (label: unknown): unknown => (typeof label === 'string' && label.startsWith('*:') ? label.slice(1) : label);
const referenceLabel = (label: unknown): unknown => (typeof label === 'string' && /^:\d+$/.test(label) ? `*${label}` : label);

function errorBody(code: string, message: string): Json {
  return { status: 'error', message, code };
}

/** The variant's wording and status of a reference error answer (own-errors). */
function ownError(endpoint: string, a: Answer): Answer {
  const body = a.body as Json;
  const message = String(body.message);
  let status = a.status;
  let code = 'error';
  let text = message;
  if (a.status === 400 && /^the body (is|must)/.test(message)) {
    [status, code, text] = [422, 'malformed_body', 'request body: a JSON object was expected'];
  } else if (CHANGES.has(endpoint) && a.status === 400) {
    [status, code, text] = [422, 'invalid_field', `invalid request: ${message}`];
  } else if (CHANGES.has(endpoint) && a.status === 404) {
    [status, code, text] = [422, 'unknown_reference', `nothing to change: ${message.replace(/^\w+: /, '')}`];
  } else if (endpoint === 'POST /certs/reload' && a.status === 400 && /^(cert|key): (required|must be a string|must not be empty)$/.test(message)) {
    [status, code, text] = [422, 'invalid_field', `invalid request: ${message}`];
  } else if ((endpoint === 'DELETE /ip-deny' || endpoint === 'DELETE /cache/purge') && a.status === 400) {
    [status, code, text] = [422, 'invalid_field', `invalid request: ${message}`];
  } else if (endpoint === 'POST /reload' && a.status === 400) {
    const cold = /^(\S+): changed in the config file; a restart is required/.exec(message);
    if (cold !== null) [code, text] = ['restart_required', `${cold[1]} cannot change while the gateway runs; restart the gateway to apply it`];
    else if (/cannot read the config file|invalid (YAML|JSON)|not valid UTF-8|is a directory|larger than/.test(message)) [code, text] = ['config_unreadable', 'the configuration file cannot be read'];
    else [code, text] = ['config_invalid', `configuration rejected: ${message}`];
  } else if (a.status === 501) {
    [code, text] = ['not_enabled', 'the response cache is not enabled on any site'];
  } else if (a.status === 500) {
    [code, text] = ['write_failed', 'the certificate files could not be written'];
  } else if (a.status === 400) {
    code = 'invalid';
  }
  return { ...a, status, body: errorBody(code, text) };
}

/** The listing with one upstream entry per route target (per-route-entries). */
function perRoute(listing: Json): Json {
  const byUrl = new Map((listing.upstreams as Json[]).map((e) => [String(e.url), e]));
  const key = (u: string) => (URL.canParse(u) ? new URL(u).href : u);
  const byKey = new Map([...byUrl].map(([u, e]) => [key(u), e]));
  const upstreams = (listing.routes as Json[]).flatMap((r) =>
    (r.targets as Json[]).map((t) => ({ ...(byKey.get(key(String(t.url))) ?? {}), url: t.url, site: r.site, route: r.path })),
  );
  return { ...listing, upstreams };
}

const probed = (e: Json) => e.latency_ms !== null || Number(e.consecutive_failures) > 0 || Number(e.consecutive_successes) > 0;

/** The rate-limit rule of a bucket (extra-fields). */
function ruleOf(config: GatewayConfig, label: string, bucket: string): { limit: number; window_secs: number } | undefined {
  const site = config.sites.find((s) => s.label === label)?.rateLimit;
  const rule = bucket === '*' ? site?.site : site?.routes[bucket];
  return rule === undefined ? undefined : { limit: rule.requests, window_secs: rule.windowMs / 1000 };
}

function rateLimits(ctx: VariantContext, counters: Json): Json {
  const out: Json = {};
  for (const [label, buckets] of Object.entries(counters)) {
    const key = ctx.on('any-host-label') && label.startsWith('*:') ? '*' : label;
    if (out[key] === undefined && !ctx.on('counted-buckets-only')) out[key] = {};
    for (const [bucket, value] of Object.entries(buckets as Json)) {
      const v = value as { passed: number; rejected: number };
      // counted-buckets-only: a bucket (and its site) appears once it has counted a request, again after a reset.
      if (ctx.on('counted-buckets-only') && v.passed === 0 && v.rejected === 0) continue;
      out[key] ??= {};
      const into = out[key] as Json;
      const before = into[bucket] as { passed: number; rejected: number } | undefined;
      const sum = { passed: v.passed + (before?.passed ?? 0), rejected: v.rejected + (before?.rejected ?? 0) };
      into[bucket] = ctx.on('extra-fields') ? { ...sum, ...ruleOf(ctx.config(), label, bucket) } : sum;
    }
  }
  return out;
}

/** The success answers of the variant. */
function ownSuccess(ctx: VariantContext, endpoint: string, a: Answer, sent: Json | undefined): Answer {
  const on = ctx.on;
  let body = { ...(a.body as Json) };
  let status = a.status;
  if (endpoint === 'GET /upstreams') {
    if (on('per-route-entries')) body = perRoute(body);
    body.upstreams = (body.upstreams as Json[]).map((e) => {
      let entry = { ...e };
      const selected = e.selected as Json | undefined;
      if (on('last-secs-null') && selected?.total === 0) entry.selected = { ...selected, last_secs: null };
      if (on('any-host-label') && 'site' in entry) entry.site = ownLabel(entry.site);
      if (on('extra-fields')) entry = { id: createHash('sha1').update(String(e.url)).digest('hex').slice(0, 8), ...entry };
      return entry;
    });
    body.routes = (body.routes as Json[]).map((r) => {
      const site = on('any-host-label') ? ownLabel(r.site) : r.site;
      return { ...r, site, ...(on('extra-fields') ? { id: `${String(site)}${String(r.path)}` } : {}) };
    });
  }
  if (endpoint === 'GET /status') {
    if (on('per-route-entries')) {
      const targets = perRoute(ctx.gateway.upstreams() as unknown as Json).upstreams as Json[];
      body.configured_upstreams = targets.length;
      body.healthy_upstreams = targets.filter((e) => e.healthy === true).length;
      body.total_probed_upstreams = targets.filter(probed).length;
    }
    if (on('config-path-relative')) {
      const path = relative(process.cwd(), String(body.config_path));
      body.config_path = path.startsWith('..') ? body.config_path : `./${path}`;
    }
    if (on('counts-admin')) body.inflight = Number(body.inflight) + ctx.adminInflight;
    if (on('extra-fields')) Object.assign(body, { version: VARIANT_VERSION, uptime_secs: Math.floor((Date.now() - ctx.startedAt) / 1000), pid: process.pid });
  }
  if (endpoint === 'GET /rate-limits') body = rateLimits(ctx, body);
  if (CHANGES.has(endpoint)) {
    if (on('any-host-label')) body.site = ownLabel(body.site);
    if (on('status-word') && endpoint !== 'POST /upstreams/add' && body.site === '*' && sent?.site === undefined) body.site = 'all';
    if (on('normalised-echo') && typeof body.target === 'string' && URL.canParse(body.target)) body.target = new URL(body.target).href;
    ctx.events.push({ type: endpoint.slice(6).replace('/', '.'), at_secs: nowSecs(), detail: `${String(body.route)} ${String(body.target)}` });
  }
  if (endpoint === 'POST /reload') {
    ctx.events.push({ type: 'reload', at_secs: nowSecs(), detail: String(body.message) });
    if (on('extra-fields') && body.warnings === undefined) body.warnings = [];
  }
  if (on('normalised-echo')) {
    if (endpoint === 'DELETE /cache/purge' && typeof body.url === 'string' && URL.canParse(body.url)) {
      const url = new URL(body.url);
      url.port = '';
      body.url = url.href;
    }
    if ((endpoint === 'POST /ip-deny' || endpoint === 'DELETE /ip-deny') && typeof body.cidr === 'string') body.cidr = normalizeCidr(body.cidr) ?? body.cidr;
  }
  if (on('status-word') && OPEN_STATUS.has(endpoint) && body.status === 'ok') body.status = 'success';
  if (on('own-codes')) {
    if (CREATED.has(endpoint)) status = 201;
    if (endpoint === 'POST /shutdown') status = 202;
  }
  if (on('extra-fields') && endpoint !== 'GET /rate-limits') body.request_id = `req-${process.pid}-${++requests}`;
  if (ctx.events.length > MAX_EVENTS) ctx.events.splice(0, ctx.events.length - MAX_EVENTS);
  return { ...a, status, body };
}

/** An answer of the variant's own. */
function send(ctx: VariantContext, req: IncomingMessage, res: ServerResponse, status: number, body: Json, headers: Record<string, string> = {}): void {
  writeJson(req, res, status, ctx.on('sorted-keys') ? sortKeys(body) : body, headers);
}

/** The variant's 401. */
function refuse(ctx: VariantContext, req: IncomingMessage, res: ServerResponse): void {
  if (ctx.on('oauth-401')) {
    const error = req.headers.authorization === undefined ? 'invalid_request' : 'invalid_token';
    send(ctx, req, res, 401, { error, error_description: 'a valid bearer token is required for the admin API' }, { 'www-authenticate': `Bearer realm="${VARIANT_NAME}-admin", error="${error}"` });
  } else send(ctx, req, res, 401, { status: 'error', message: 'unauthorized' }, { 'www-authenticate': 'Bearer' });
}

/** The admin endpoints beyond the twelve (extra-endpoints). */
function extraEndpoint(ctx: VariantContext, method: string, path: string): Json | undefined {
  if (method !== 'GET') return undefined;
  switch (path) {
    case '/':
      return { status: 'ok', endpoints: [...[...KNOWN].flatMap(([p, methods]) => methods.map((m) => `${m} ${p}`)), 'GET /health', 'GET /version', 'GET /config', 'GET /events'] };
    case '/health':
      return { status: 'ok' };
    case '/version':
      return { name: VARIANT_NAME, version: VARIANT_VERSION };
    case '/config': {
      const config = ctx.config();
      const admin = config.global.admin;
      return { ...config, global: { ...config.global, admin: admin === undefined ? undefined : { ...admin, token: admin.token === undefined ? undefined : '(hidden)' } } };
    }
    case '/events':
      return { events: ctx.events };
    default:
      return undefined;
  }
}

export function adminLayer(ctx: VariantContext): Layer {
  const lenient = bearerCheck(ctx.token);
  const expected = ctx.token === undefined ? undefined : digest(`Bearer ${ctx.token}`);
  const authorized = (header: string | undefined): boolean => {
    if (expected === undefined) return true;
    if (!ctx.on('strict-bearer')) return lenient(header);
    return timingSafeEqual(digest(header ?? ''), expected) && header !== undefined;
  };

  const handle = (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const on = ctx.on;
    const url = req.url ?? '/';
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    const method = req.method ?? 'GET';
    const endpoint = `${method} ${path}`;
    if (!authorized(req.headers.authorization)) {
      refuse(ctx, req, res);
      return;
    }
    // What the reference checks again: the header as it accepts it.
    if (ctx.token !== undefined) req.headers.authorization = `Bearer ${ctx.token}`;

    if (on('extra-endpoints')) {
      const extra = extraEndpoint(ctx, method, path);
      if (extra !== undefined) {
        send(ctx, req, res, 200, extra);
        return;
      }
    }
    const methods = KNOWN.get(path);
    if (on('own-errors') && (methods === undefined || !methods.includes(method))) {
      req.resume();
      send(ctx, req, res, 404, errorBody('not_found', methods === undefined ? 'no such endpoint' : `${path} does not take ${method}`));
      return;
    }
    if (on('own-errors') && req.headers['content-type'] !== undefined) req.headers['content-type'] = 'application/json';

    const answer = (sent: Json | undefined) =>
      rewriteAnswer(res, (reference) => {
        if (typeof reference.body !== 'object' || reference.body === null) return reference;
        const a = on('purge-without-section') ? purgeWithoutSection(ctx, endpoint, url, reference) : reference;
        let out = a.status >= 400 ? (on('own-errors') ? ownError(endpoint, a) : a) : ownSuccess(ctx, endpoint, a, sent);
        if (on('sorted-keys')) out = { ...out, body: sortKeys(out.body) };
        return out;
      });

    const takesBody = ['POST /upstreams/add', 'POST /upstreams/remove', 'POST /upstreams/weight', 'DELETE /ip-deny'].includes(endpoint);
    if (!takesBody) {
      answer(undefined);
      next();
      return;
    }
    void readBody(req).then((bytes) => {
      const body = jsonObjectOf(bytes);
      if (body === undefined) {
        answer(undefined);
        return replay(req, bytes, next);
      }
      const sent = { ...body };
      if (on('any-host-label') && 'site' in body) body.site = referenceLabel(body.site);
      if (endpoint === 'DELETE /ip-deny') {
        if (on('own-errors') && typeof body.cidr === 'string' && normalizeCidr(body.cidr) === undefined) {
          const status = on('status-word') ? 'success' : 'ok';
          return send(ctx, req, res, 200, { status, action: 'removed', cidr: body.cidr });
        }
      } else {
        const own = ownRefusal(ctx, endpoint, body);
        if (own !== undefined) return send(ctx, req, res, own.status, own.body);
      }
      answer(sent);
      replay(req, Buffer.from(JSON.stringify(body)), next);
    });
  };

  return (req, res, next) => {
    ctx.adminInflight++;
    res.once('close', () => ctx.adminInflight--);
    if (ctx.on('slow')) setTimeout(() => handle(req, res, next), ADMIN_DELAY_MS);
    else handle(req, res, next);
  };
}

/** A purge on a gateway none of whose sites has a cache section: the feature is built in, nothing is cached, so
 * nothing is purged (purge-without-section); the reference answers 501 there. */
function purgeWithoutSection(ctx: VariantContext, endpoint: string, url: string, a: Answer): Answer {
  if (endpoint !== 'DELETE /cache/purge' || a.status !== 501 || ctx.config().sites.some((site) => site.cache !== undefined)) return a;
  const target = new URL(url, 'http://admin.invalid').searchParams.get('url');
  if (target === null || !URL.canParse(target)) return a;
  return { ...a, status: 200, body: { status: 'ok', purged: false, url: target } };
}

/** Refusals of the variant's own for upstream changes the reference would apply (keep-last-target, own-errors'
 * 409 for a target the route has). */
function ownRefusal(ctx: VariantContext, endpoint: string, body: Json): { status: number; body: Json } | undefined {
  if (typeof body.route !== 'string' || typeof body.target !== 'string' || !URL.canParse(body.target)) return undefined;
  const target = new URL(body.target).href;
  const routes = (ctx.gateway.upstreams().routes as unknown as Json[]).filter(
    (r) => r.path === body.route && (body.site === undefined || body.site === '*' || r.site === String(body.site).toLowerCase()),
  );
  const has = (r: Json) => (r.targets as Json[]).some((t) => URL.canParse(String(t.url)) && new URL(String(t.url)).href === target);
  if (endpoint === 'POST /upstreams/add' && ctx.on('own-errors') && routes.length > 0 && routes.every(has)) {
    return { status: 409, body: errorBody('conflict', `${body.target} is already a target of ${body.route}`) };
  }
  if (endpoint === 'POST /upstreams/remove' && ctx.on('keep-last-target') && routes.some((r) => has(r) && (r.targets as Json[]).length === 1)) {
    return { status: 409, body: errorBody('last_target', `${body.target} is the last target of ${body.route}; add another before removing it`) };
  }
  return undefined;
}
