// The layer of the faulty gateway in front of the reference's admin server: the faults of authentication, of
// the paths served, of the request bodies read and of the answers written. Calls that the reference would
// refuse for their token reach it untouched, unless a fault of authentication is about them.
import type { ServerResponse } from 'node:http';
import { bearerCheck } from '../../../reference/gateway/admin/bearer-auth.ts';
import { faultsOf, type GatewayFault } from './faulty-gateway-faults.ts';
import { type Answer, jsonObjectOf, type Layer, readBody, replay, rewriteAnswer, sendJson } from './faulty-gateway-http.ts';
import type { FaultyRuntime } from './faulty-gateway-runtime.ts';

const faults = faultsOf(process.env);
const on = (f: GatewayFault): boolean => faults.has(f);

type Json = Record<string, unknown>;
/** What a body fault decides: answer now, or hand the (possibly changed) body on. */
type Decision = { answer: Answer } | { body: Json | undefined };

const ok = (body: Json = {}): { answer: Answer } => ({ answer: { status: 200, body: { status: 'ok', ...body } } });
const PASS: Decision = { body: undefined };

/** The body faults of each endpoint (`METHOD /path`). */
const BODY_FAULTS: Record<string, { faults: GatewayFault[]; decide: (body: Json, runtime: FaultyRuntime, res: ServerResponse) => Decision }> = {
  'POST /upstreams/add': {
    faults: ['add-without-route-accepted', 'add-without-target-accepted', 'add-default-weight-2'],
    decide: (body) => {
      if (on('add-without-route-accepted') && body.route === undefined) return ok();
      if (on('add-without-target-accepted') && body.target === undefined) return ok();
      if (on('add-default-weight-2') && body.weight === undefined) return { body: { ...body, weight: 2 } };
      return PASS;
    },
  },
  'POST /upstreams/remove': {
    faults: ['remove-without-route-accepted'],
    decide: (body) => (body.route === undefined ? ok({ removed: false }) : PASS),
  },
  'POST /upstreams/weight': {
    faults: ['weight-string-accepted', 'weight-response-old-weight'],
    decide: (body, runtime, res) => {
      if (on('weight-string-accepted') && body.weight !== undefined && !Number.isInteger(body.weight)) return ok();
      if (on('weight-response-old-weight')) {
        const route = runtime.upstreams().routes.find((r) => r.path === body.route && (body.site === undefined || r.site === body.site));
        const old = route?.targets.find((t) => URL.canParse(String(body.target)) && new URL(t.url).href === new URL(String(body.target)).href)?.weight;
        rewriteAnswer(res, (a) => (a.status === 200 ? { ...a, body: { ...(a.body as Json), weight: old } } : a));
      }
      return PASS;
    },
  },
  'POST /ip-deny': {
    faults: ['deny-empty-cidr-accepted'],
    decide: (body) => (body.cidr === undefined ? ok({ action: 'added' }) : PASS),
  },
  'DELETE /ip-deny': {
    faults: ['delete-empty-clears-all', 'delete-absent-not-found', 'delete-body-ignored'],
    decide: (body, runtime, res) => {
      if (on('delete-body-ignored')) return { body: {} };
      if (on('delete-empty-clears-all') && body.cidr === undefined) {
        runtime.clearDenies();
        return ok({ action: 'removed' });
      }
      if (on('delete-absent-not-found') && typeof body.cidr === 'string' && !runtime.hasDeny(body.cidr)) {
        rewriteAnswer(res, (a) => (a.status === 200 ? { ...a, body: { ...(a.body as Json), action: 'not-found' } } : a));
      }
      return PASS;
    },
  },
  'POST /certs/reload': {
    faults: ['certs-cert-optional', 'certs-key-optional'],
    decide: (body) => {
      if (on('certs-cert-optional') && body.cert === undefined) return ok();
      if (on('certs-key-optional') && body.key === undefined) return ok();
      return PASS;
    },
  },
};

const isPair = (message: unknown): boolean => /no PEM|not a valid PEM|does not belong/.test(String(message));
const errorOf = (a: Answer): Json => (typeof a.body === 'object' && a.body !== null ? (a.body as Json) : {});

/** The answer faults of each endpoint: [fault, rewrite] (a rewrite returns the answer unchanged when it does
 * not apply). */
const ANSWER_FAULTS: Record<string, [GatewayFault, (a: Answer) => Answer][]> = {
  'POST /upstreams/add': [['add-echo-site-null', (a) => (a.status === 200 && errorOf(a).site === '*' ? { ...a, body: { ...errorOf(a), site: null } } : a)]],
  'POST /upstreams/remove': [['remove-site-null', (a) => (a.status === 200 && errorOf(a).site === '*' ? { ...a, body: { ...errorOf(a), site: null } } : a)]],
  'POST /reload': [
    ['reload-status-reloaded', (a) => (a.status === 200 ? { ...a, body: { ...errorOf(a), status: 'reloaded' } } : a)],
    ['warnings-string', (a) => (a.status === 200 && Array.isArray(errorOf(a).warnings) ? { ...a, body: { ...errorOf(a), warnings: (errorOf(a).warnings as string[]).join('; ') } } : a)],
    ['reload-invalid-500', (a) => (a.status === 400 && !/restart/.test(String(errorOf(a).message)) ? { ...a, status: 500 } : a)],
    ['cold-change-409', (a) => (a.status === 400 && /restart/.test(String(errorOf(a).message)) ? { ...a, status: 409 } : a)],
  ],
  'POST /shutdown': [['shutdown-status-stopping', (a) => ({ ...a, body: { status: 'stopping' } })]],
  'DELETE /cache/purge': [
    ['purge-response-no-url', (a) => (a.status === 200 ? { ...a, body: { ...errorOf(a), url: undefined } } : a)],
    ['purge-absent-404', (a) => (a.status === 200 && errorOf(a).purged === false ? { status: 404, body: { status: 'error', message: 'not cached' } } : a)],
    ['purge-no-cache-200', (a) => (a.status === 501 ? { status: 200, body: { status: 'ok', purged: false } } : a)],
  ],
  'POST /ip-deny': [
    ['deny-action-deny', (a) => (a.status === 200 ? { ...a, body: { ...errorOf(a), action: 'deny' } } : a)],
    ['deny-invalid-422', (a) => (a.status === 400 ? { ...a, status: 422 } : a)],
    ['ip-deny-error-text', (a) => (a.status >= 400 ? { ...a, body: `error: ${String(errorOf(a).message)}` } : a)],
  ],
  'DELETE /ip-deny': [['delete-action-deleted', (a) => (a.status === 200 ? { ...a, body: { ...errorOf(a), action: 'deleted' } } : a)]],
  'POST /certs/reload': [
    ['certs-response-no-note', (a) => (a.status === 200 ? { ...a, body: { ...errorOf(a), note: undefined } } : a)],
    ['certs-no-tls-404', (a) => (a.status === 400 && /^tls:/.test(String(errorOf(a).message)) ? { ...a, status: 404 } : a)],
    ['certs-no-tls-message-missing', (a) => (a.status === 400 && /^tls:/.test(String(errorOf(a).message)) ? { ...a, body: { status: 'error' } } : a)],
    ['certs-invalid-pair-422', (a) => (a.status === 400 && isPair(errorOf(a).message) ? { ...a, status: 422 } : a)],
    ['certs-write-failure-400', (a) => (a.status === 500 ? { ...a, status: 400 } : a)],
  ],
};

export function adminLayer(runtime: FaultyRuntime, token: string | undefined): Layer {
  const authorized = bearerCheck(token);
  const bearer = token === undefined ? undefined : `Bearer ${token}`;
  return (req, res, next) => {
    const url = req.url ?? '/';
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    const query = new URLSearchParams(mark === -1 ? '' : url.slice(mark + 1));
    const endpoint = `${req.method} ${path}`;
    const header = req.headers.authorization;

    // Authentication.
    if (on('no-token-refused') && token === undefined && header === undefined) return sendJson(res, 401, { status: 'error', message: 'unauthorized' });
    if (bearer !== undefined && !authorized(header)) {
      if (on('basic-auth-accepted') && /^basic /i.test(header ?? '')) {
        const decoded = Buffer.from(String(header).slice(6).trim(), 'base64').toString('utf8');
        if (decoded.slice(decoded.indexOf(':') + 1) === token) req.headers.authorization = bearer;
      }
      const given = /^bearer +(\S.*)$/i.exec(header ?? '')?.[1];
      if (on('token-prefix-compare') && given !== undefined && given.slice(0, 8).toLowerCase() === token!.slice(0, 8).toLowerCase()) req.headers.authorization = bearer;
      if (on('status-open-without-header') && header === undefined && endpoint === 'GET /status') req.headers.authorization = bearer;
      if (on('unauthorized-add-applied') && header === undefined && endpoint === 'POST /upstreams/add') {
        void readBody(req).then((bytes) => {
          const body = jsonObjectOf(bytes) ?? {};
          try {
            const site = typeof body.site === 'string' ? body.site : undefined;
            runtime.addTarget({ site, route: String(body.route), target: String(body.target), weight: Number(body.weight ?? 1) });
          } catch {
            // refused by the runtime: nothing added
          }
          sendJson(res, 401, { status: 'error', message: 'unauthorized' }, { 'www-authenticate': 'Bearer' });
        });
        return;
      }
    }
    if (!authorized(req.headers.authorization)) return next();

    // The paths served.
    if (on('rate-limits-under-v1') && path === '/rate-limits') return sendJson(res, 404, { status: 'error', message: `no admin endpoint ${path}` });
    if (on('rate-limits-under-v1') && path === '/v1/rate-limits') req.url = url.slice(3);
    if (on('deny-list-endpoint') && endpoint === 'GET /ip-deny') return sendJson(res, 200, { status: 'ok', denies: runtime.denyList() });
    if (on('purge-url-as-path') && endpoint === 'DELETE /cache/purge' && URL.canParse(query.get('url') ?? '')) {
      const target = new URL(query.get('url')!);
      req.url = `${path}?url=${encodeURIComponent(target.pathname + target.search)}`;
    }

    // The answers written.
    for (const [fault, rewrite] of ANSWER_FAULTS[endpoint] ?? []) if (on(fault)) rewriteAnswer(res, rewrite);

    // The bodies read.
    const bodyFaults = BODY_FAULTS[endpoint];
    if (bodyFaults === undefined || !bodyFaults.faults.some(on)) return next();
    void readBody(req).then((bytes) => {
      const body = jsonObjectOf(bytes);
      const decision = body === undefined ? PASS : bodyFaults.decide(body, runtime, res);
      if ('answer' in decision) return sendJson(res, decision.answer.status, decision.answer.body);
      replay(req, decision.body === undefined ? bytes : Buffer.from(JSON.stringify(decision.body)), next);
    });
  };
}
