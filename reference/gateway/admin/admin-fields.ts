// Field checks of the admin bodies and queries (catalog gateway/upstreams/missing-field-400,
// invalid-field-400, weight-range, gateway/certs/missing-field-400, gateway/ip-deny/*-cidr-required,
// gateway/cache-purge/missing-or-invalid-url-400). Each failure is a 400 whose message starts with the
// field's name, as `<field>: <reason>`.
import { targetUrlProblem } from '../config/target-url.ts';
import type { TargetChange } from '../runtime/gateway-runtime.ts';
import { badRequest } from './admin-error.ts';

type Body = Record<string, unknown>;

export const MIN_WEIGHT = 1;
export const MAX_WEIGHT = 1000;
export const DEFAULT_WEIGHT = 1;

/** `<host>:<port>` or `*:<port>`, the host possibly a bracketed IPv6 address. */
const SITE_LABEL = /^(\*|\[[0-9A-Fa-f:.]+\]|[^\s:[\]/]+):\d{1,5}$/;

export function requiredString(body: Body, field: string): string {
  const value = body[field];
  if (value === undefined || value === null) throw badRequest(`${field}: required`);
  if (typeof value !== 'string') throw badRequest(`${field}: must be a string`);
  if (value === '') throw badRequest(`${field}: must not be empty`);
  return value;
}

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

export function absoluteHttpUrl(value: string, field: string): string {
  if (!isHttpUrl(value)) throw badRequest(`${field}: must be an absolute http or https URL`);
  return value;
}

function weight(body: Body, required: boolean): number {
  const value = body['weight'];
  if (value === undefined) {
    if (required) throw badRequest('weight: required');
    return DEFAULT_WEIGHT;
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value < MIN_WEIGHT || value > MAX_WEIGHT) {
    throw badRequest(`weight: must be an integer from ${MIN_WEIGHT} to ${MAX_WEIGHT}`);
  }
  return value;
}

/** The optional site label; `*` (or none) means every site having the route. */
function site(body: Body): string | undefined {
  const value = body['site'];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badRequest('site: must be a string');
  if (value === '*') return undefined;
  if (!SITE_LABEL.test(value)) throw badRequest('site: must be a site label <host>:<port> or *:<port>');
  return value;
}

/** route, target and site of the upstream endpoints, checked in that order. */
export function targetChange(body: Body): TargetChange {
  const route = requiredString(body, 'route');
  if (!route.startsWith('/')) throw badRequest('route: must be a path prefix starting with /');
  const target = requiredString(body, 'target');
  // The same rule as a configured target's url: scheme, host and optional port only.
  const problem = targetUrlProblem(target);
  if (problem !== undefined) throw badRequest(`target: ${problem}`);
  return { route, target, site: site(body) };
}

/** The change with its weight: optional (default 1) for add, required for weight. */
export function weightedChange(body: Body, required: boolean): TargetChange & { weight: number } {
  const change = targetChange(body);
  return { ...change, weight: weight(body, required) };
}
