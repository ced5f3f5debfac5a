// Valid calls of the twelve admin endpoints for a case: each names only what is the case's own (its route,
// its target URLs, its client addresses, its cached URL), so cases sharing a gateway do not touch each other.
import type { AdminCall, Endpoint } from './admin-client.ts';
import { ENDPOINTS } from './admin-client.ts';

export interface CallSubjects {
  /** The case's route prefix and one of its configured targets. */
  route: string;
  existing: string;
  /** A URL the route does not have. */
  extra: string;
  /** Client addresses to deny / to lift a deny of. */
  denyAdd: string;
  denyDelete: string;
  /** A full data-plane URL for the purge. */
  purgeUrl: string;
  /** Bodies for POST /certs/reload (a pair of the case, or anything for a refused call). */
  cert?: string;
  key?: string;
}

export function callOf(e: Endpoint, s: CallSubjects): AdminCall {
  switch (e.name) {
    case 'upstreams-add':
      return { method: e.method, path: e.path, body: { route: s.route, target: s.extra, weight: 3 } };
    case 'upstreams-remove':
      return { method: e.method, path: e.path, body: { route: s.route, target: s.existing } };
    case 'upstreams-weight':
      return { method: e.method, path: e.path, body: { route: s.route, target: s.existing, weight: 7 } };
    case 'cache-purge':
      return { method: e.method, path: `${e.path}?url=${encodeURIComponent(s.purgeUrl)}` };
    case 'ip-deny-add':
      return { method: e.method, path: e.path, body: { cidr: s.denyAdd } };
    case 'ip-deny-delete':
      return { method: e.method, path: e.path, body: { cidr: s.denyDelete } };
    case 'certs-reload':
      return { method: e.method, path: e.path, body: { cert: s.cert ?? 'not a certificate', key: s.key ?? 'not a key' } };
    default:
      return { method: e.method, path: e.path };
  }
}

/** Every endpoint's call, shutdown last. */
export function allCalls(s: CallSubjects): { endpoint: Endpoint; call: AdminCall }[] {
  const ordered = [...ENDPOINTS.filter((e) => e.name !== 'shutdown'), ...ENDPOINTS.filter((e) => e.name === 'shutdown')];
  return ordered.map((endpoint) => ({ endpoint, call: callOf(endpoint, s) }));
}
