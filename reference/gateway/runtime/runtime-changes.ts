// Runtime upstream changes (POST /upstreams/add, remove, weight): in memory only, on the route of the named
// site or of every site having it (catalog gateway/upstreams/*). A route is known when it equals a
// configured prefix exactly; targets compare in their WHATWG-normalised form.
import type { RouteTarget } from '../data-plane/balancers.ts';
import { type RouteState, type SiteTable, setTargets } from '../data-plane/site-table.ts';
import type { Upstream } from '../data-plane/upstream.ts';
import { GatewayError, type TargetChange } from './gateway-runtime.ts';

export const MIN_WEIGHT = 1;
export const MAX_WEIGHT = 1000;

const badRequest = (message: string): GatewayError => new GatewayError('bad-request', message);
const notFound = (message: string): GatewayError => new GatewayError('not-found', message);

function checkRoute(route: unknown): void {
  if (typeof route !== 'string' || !route.startsWith('/')) throw badRequest('route: must be a path prefix starting with /');
}

/** The target's normalised form, after the route's check (fields in the order route, target, weight). */
function checkTarget(change: TargetChange): string {
  checkRoute(change.route);
  const target: unknown = change.target;
  if (typeof target !== 'string' || !URL.canParse(target)) throw badRequest('target: must be an absolute http or https URL');
  const url = new URL(target);
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw badRequest('target: must be an absolute http or https URL');
  }
  return url.href;
}

export function checkWeight(weight: unknown): number {
  if (typeof weight !== 'number' || !Number.isInteger(weight) || weight < MIN_WEIGHT || weight > MAX_WEIGHT) {
    throw badRequest(`weight: must be an integer from ${MIN_WEIGHT} to ${MAX_WEIGHT}`);
  }
  return weight;
}

/** The routes a change applies to; not-found for an unknown site or route. */
export function routesFor(table: SiteTable, change: TargetChange): RouteState[] {
  const { route, site } = change;
  checkRoute(route);
  if (site !== undefined && site !== '*') {
    const label = String(site).toLowerCase();
    const found = table.sites.find((s) => s.label === label);
    if (found === undefined) throw notFound(`site: no site is labelled ${site}`);
    const match = found.routes.find((r) => r.path === route);
    if (match === undefined) throw notFound(`route: site ${found.label} has no route ${route}`);
    return [match];
  }
  const routes = table.sites.flatMap((s) => s.routes.filter((r) => r.path === route));
  if (routes.length === 0) throw notFound(`route: no site has the route ${route}`);
  return routes;
}

const indexOf = (route: RouteState, key: string): number => route.targets.findIndex((t) => t.upstream.key === key);

/** Adds the target (or sets its weight when the route has it already). */
export function addTarget(
  table: SiteTable,
  change: TargetChange & { weight: number },
  resolve: (url: string) => Upstream,
): void {
  const key = checkTarget(change);
  const weight = checkWeight(change.weight);
  for (const route of routesFor(table, change)) {
    const index = indexOf(route, key);
    const targets: RouteTarget[] = [...route.targets];
    if (index >= 0) targets[index] = { ...targets[index]!, weight };
    else targets.push({ url: change.target, weight, upstream: resolve(change.target) });
    setTargets(route, targets);
  }
}

/** False when no route concerned held the target. */
export function removeTarget(table: SiteTable, change: TargetChange): boolean {
  const key = checkTarget(change);
  let removed = false;
  for (const route of routesFor(table, change)) {
    if (indexOf(route, key) < 0) continue;
    setTargets(
      route,
      route.targets.filter((t) => t.upstream.key !== key),
    );
    removed = true;
  }
  return removed;
}

/** Sets the weight where the target is listed; not-found when no route concerned lists it. */
export function setWeight(table: SiteTable, change: TargetChange & { weight: number }): void {
  const key = checkTarget(change);
  const weight = checkWeight(change.weight);
  const routes = routesFor(table, change).filter((route) => indexOf(route, key) >= 0);
  if (routes.length === 0) throw notFound(`target: ${change.target} is not a target of route ${change.route}`);
  for (const route of routes) {
    setTargets(
      route,
      route.targets.map((t) => (t.upstream.key === key ? { ...t, weight } : t)),
    );
  }
}
