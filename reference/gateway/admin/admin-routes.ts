// The twelve admin endpoints (document 001, Endpoints): one table entry each, method and path, whether it
// reads a JSON body, and the handler turning the runtime's answer into the response object. A successful
// body other than the status object, the listing, the counters and shutdown carries `status: "ok"`
// (catalog gateway/admin/success-status-ok).
import type { GatewayRuntime, TargetChange } from '../runtime/gateway-runtime.ts';
import { badRequest } from './admin-error.ts';
import { absoluteHttpUrl, requiredString, targetChange, weightedChange } from './admin-fields.ts';

type WeightedChange = TargetChange & { weight: number };

export type AdminMethod = 'GET' | 'POST' | 'DELETE';

export interface AdminCall {
  runtime: GatewayRuntime;
  /** The request body as a JSON object (only for routes with `body: true`). */
  body: Record<string, unknown>;
  query: URLSearchParams;
  /** Runs `action` once the response has been written in full. */
  afterResponse(action: () => void): void;
  onShutdown: () => void;
}

export interface AdminRoute {
  method: AdminMethod;
  path: string;
  body: boolean;
  handle(call: AdminCall): object | Promise<object>;
}

/** Said by a successful certificate upload (catalog gateway/certs/response). */
export const CERTS_NOTE =
  'certificate and key written; the running gateway keeps serving the old certificate until it is restarted (POST /reload does not activate it)';

const label = (site: string | undefined) => site ?? '*';

/** add and weight: the change with its weight (optional for add, default 1), echoed back with `site` `*` for all. */
function weightedRoute(
  path: string,
  weightRequired: boolean,
  apply: (runtime: GatewayRuntime, change: WeightedChange) => void | Promise<void>,
): AdminRoute {
  return {
    method: 'POST',
    path,
    body: true,
    handle: async ({ runtime, body }) => {
      const change = weightedChange(body, weightRequired);
      await apply(runtime, change);
      return { status: 'ok', site: label(change.site), route: change.route, target: change.target, weight: change.weight };
    },
  };
}

export const ADMIN_ROUTES: readonly AdminRoute[] = [
  { method: 'GET', path: '/status', body: false, handle: ({ runtime }) => runtime.status() },
  {
    method: 'POST',
    path: '/reload',
    body: false,
    handle: async ({ runtime }) => {
      const { warnings } = await runtime.reload();
      // `warnings` is left out when there are none (catalog gateway/reload/warnings-absent-when-none).
      return { status: 'ok', message: 'configuration reloaded', ...(warnings.length > 0 ? { warnings } : {}) };
    },
  },
  {
    method: 'POST',
    path: '/shutdown',
    body: false,
    handle: ({ afterResponse, onShutdown }) => {
      afterResponse(onShutdown);
      return { status: 'shutting_down' };
    },
  },
  { method: 'GET', path: '/upstreams', body: false, handle: ({ runtime }) => runtime.upstreams() },
  weightedRoute('/upstreams/add', false, (runtime, change) => runtime.addTarget(change)),
  {
    method: 'POST',
    path: '/upstreams/remove',
    body: true,
    handle: async ({ runtime, body }) => {
      const change = targetChange(body);
      const removed = await runtime.removeTarget(change);
      return { status: 'ok', removed, site: label(change.site), route: change.route, target: change.target };
    },
  },
  weightedRoute('/upstreams/weight', true, (runtime, change) => runtime.setWeight(change)),
  {
    method: 'DELETE',
    path: '/cache/purge',
    body: false,
    handle: async ({ runtime, query }) => {
      const url = query.get('url');
      if (url === null || url === '') throw badRequest('url: required (query parameter ?url=<absolute URL>)');
      absoluteHttpUrl(url, 'url');
      return { status: 'ok', purged: await runtime.purge(url), url };
    },
  },
  { method: 'GET', path: '/rate-limits', body: false, handle: ({ runtime }) => runtime.rateLimits() },
  {
    method: 'POST',
    path: '/ip-deny',
    body: true,
    handle: async ({ runtime, body }) => {
      const cidr = requiredString(body, 'cidr');
      await runtime.denyAdd(cidr);
      return { status: 'ok', action: 'added', cidr };
    },
  },
  {
    method: 'DELETE',
    path: '/ip-deny',
    body: true,
    handle: async ({ runtime, body }) => {
      const cidr = requiredString(body, 'cidr');
      await runtime.denyRemove(cidr);
      return { status: 'ok', action: 'removed', cidr };
    },
  },
  {
    method: 'POST',
    path: '/certs/reload',
    body: true,
    handle: async ({ runtime, body }) => {
      // Fields first, then the runtime checks for a TLS site and the pair (catalog gateway/certs/check-order-and-validity).
      const cert = requiredString(body, 'cert');
      const key = requiredString(body, 'key');
      const { certPath, keyPath } = await runtime.certsReload(cert, key);
      return { status: 'ok', cert_path: certPath, key_path: keyPath, note: CERTS_NOTE };
    },
  },
];
