// Which change between the running config and a reloaded one needs a restart. The cold keys are those the
// document lists: port, tls.cert, tls.key, workers, backlog, global.admin.bind. What they stand for is the
// process's listeners, so sites are compared by what they listen on, not by their place in the list:
// - a port that no site used before, or one that no site uses any more, is a change of `port` (the set of
//   listeners changes); sites moving between existing ports, or new hosts on a port already open, are not;
// - a site keeps its certificate by label (`host:port`): a different tls.cert or tls.key, or TLS switched on
//   or off, is cold; a new site on an open TLS port is hot only when a site of that port before had the
//   same certificate and key files;
// - adding or removing global.admin (the admin server starts or stops) is a change of global.admin.bind;
// - a changed global.admin.token is cold too: the admin server keeps the credential it started with, and a
//   reload that silently did not rotate it would mislead (the document does not say; catalog
//   gateway/config/admin-token-reload);
// - http2 is cold too, the reference's choice (the document does not list it): a port speaks HTTP/2 when
//   any of its sites has http2, and that is fixed when its listener is built. A site whose http2 differs
//   from its label's before is cold, and so is a change of a port's HTTP/2 by sites added or removed
//   (named at the first site of the port whose http2 is what the port would now speak).
import type { GatewayConfig, SiteConfig } from './gateway-config.ts';

/** The key path of the first cold field that differs (`global.admin.bind`, `global.admin.token`, `workers`, `backlog`,
 * `sites[i].port`, `sites[i].tls.cert`, `sites[i].tls.key`, `sites[i].http2`, indexes into `next`; or `port` when
 * a port is no longer used), or undefined when the reload may apply `next`. */
export function coldChange(old: GatewayConfig, next: GatewayConfig): string | undefined {
  if (adminBind(old) !== adminBind(next)) return 'global.admin.bind';
  if (old.global.admin?.token !== next.global.admin?.token) return 'global.admin.token';
  if (old.workers !== next.workers) return 'workers';
  if (old.backlog !== next.backlog) return 'backlog';
  const oldByLabel = new Map(old.sites.map((site) => [site.label, site]));
  const http2 = { old: http2Ports(old), next: http2Ports(next) };
  for (const [index, site] of next.sites.entries()) {
    const field = siteColdField(site, oldByLabel.get(site.label), old.sites, http2);
    if (field !== undefined) return `sites[${index}].${field}`;
  }
  const nextPorts = new Set(next.sites.map((site) => site.port));
  if (old.sites.some((site) => !nextPorts.has(site.port))) return 'port';
  return undefined;
}

function siteColdField(
  site: SiteConfig,
  before: SiteConfig | undefined,
  oldSites: SiteConfig[],
  http2: { old: Set<number>; next: Set<number> },
): string | undefined {
  const samePort = oldSites.filter((other) => other.port === site.port);
  if (samePort.length === 0) return 'port';
  const tls = before === undefined ? newSiteTls(site, samePort) : changedTls(site, before);
  if (tls !== undefined) return tls;
  if (before !== undefined && before.http2 !== site.http2) return 'http2';
  const speaks = http2.next.has(site.port);
  return http2.old.has(site.port) !== speaks && site.http2 === speaks ? 'http2' : undefined;
}

function changedTls(site: SiteConfig, before: SiteConfig): string | undefined {
  if (before.tls?.cert !== site.tls?.cert) return 'tls.cert';
  if (before.tls?.key !== site.tls?.key) return 'tls.key';
  return undefined;
}

/** A new site on a port already open: the listener's TLS must not change. */
function newSiteTls(site: SiteConfig, samePort: SiteConfig[]): string | undefined {
  if (site.tls === undefined) return samePort.some((other) => other.tls !== undefined) ? 'tls.cert' : undefined;
  const { cert, key } = site.tls;
  if (!samePort.some((other) => other.tls?.cert === cert)) return 'tls.cert';
  if (!samePort.some((other) => other.tls?.cert === cert && other.tls.key === key)) return 'tls.key';
  return undefined;
}

/** The ports whose listener speaks HTTP/2: those with a site that has http2. */
function http2Ports(config: GatewayConfig): Set<number> {
  return new Set(config.sites.filter((site) => site.http2).map((site) => site.port));
}

function adminBind(config: GatewayConfig): string | undefined {
  const admin = config.global.admin;
  return admin === undefined ? undefined : `${admin.host}:${admin.port}`;
}
