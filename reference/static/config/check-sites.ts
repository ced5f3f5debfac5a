// Checks across sites that no single site can see: one site per host and port, ssl all-or-none per port,
// and ssl redirect ports that collide with nothing else.
import { ConfigError } from './config-error.ts';
import type { SiteConfig } from './site-config.ts';

export function checkSites(sites: SiteConfig[]): void {
  const byPort = new Map<number, SiteConfig[]>();
  for (const site of sites) {
    const group = byPort.get(site.port);
    if (group) group.push(site);
    else byPort.set(site.port, [site]);
  }
  for (const [port, group] of byPort) {
    checkHosts(port, group);
    checkSslMix(port, group);
  }
  checkRedirectPorts(sites, byPort);
}

/** Display name of a site for messages: `sites[2]`, or `the site` for the single-object form. */
function siteName(site: SiteConfig): string {
  return site.keyPrefix ? site.keyPrefix.slice(0, -1) : 'the site';
}

function checkHosts(port: number, group: SiteConfig[]): void {
  const seen = new Map<string, SiteConfig>();
  for (const site of group) {
    // The catch-all counts as a host of its own: two catch-alls on a port is a duplicate too.
    const host = site.host ?? '*';
    const earlier = seen.get(host);
    if (earlier) {
      throw new ConfigError(
        `${site.keyPrefix}host`,
        `duplicate site for host "${host}" on port ${port} (same host and port as ${siteName(earlier)})`,
      );
    }
    seen.set(host, site);
  }
}

function checkSslMix(port: number, group: SiteConfig[]): void {
  const first = group[0]!;
  for (const site of group) {
    if ((site.ssl === null) !== (first.ssl === null)) {
      const withSsl = site.ssl ? site : first;
      const without = site.ssl ? first : site;
      throw new ConfigError(
        `${site.keyPrefix}ssl`,
        `all sites on port ${port} must use ssl or none (${siteName(withSsl)} has ssl, ${siteName(without)} has not)`,
      );
    }
  }
}

function checkRedirectPorts(sites: SiteConfig[], byPort: Map<number, SiteConfig[]>): void {
  const redirectTo = new Map<number, number>();
  for (const site of sites) {
    const from = site.ssl?.redirect;
    if (from === undefined || from === null) continue;
    const key = `${site.keyPrefix}ssl.redirect`;
    if (byPort.has(from)) throw new ConfigError(key, `port ${from} is already used by a site`);
    const target = redirectTo.get(from);
    if (target !== undefined && target !== site.port) {
      throw new ConfigError(key, `port ${from} already redirects to port ${target}, cannot also redirect to ${site.port}`);
    }
    redirectTo.set(from, site.port);
  }
}
