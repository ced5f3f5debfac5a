// One node server per configured port: HTTPS when its sites have ssl (SNI picks the certificate when
// several sites share the port), plain HTTP otherwise, plus one plain server per `ssl.redirect` port.
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { BuiltSite } from '../site/build-site.ts';
import { createSslRedirect } from './ssl-redirect.ts';
import { createDispatcher } from './vhost-dispatch.ts';

export interface PlannedServer {
  server: Server;
  /** Configured port (0 = any free port). */
  port: number;
  protocol: 'http' | 'https';
  /** Config key blamed when the port cannot be bound. */
  key: string;
}

export function createServers(sites: BuiltSite[]): PlannedServer[] {
  const byPort = new Map<number, BuiltSite[]>();
  for (const site of sites) {
    const group = byPort.get(site.config.port);
    if (group) group.push(site);
    else byPort.set(site.config.port, [site]);
  }

  const planned: PlannedServer[] = [];
  const redirects = new Map<number, PlannedServer>();
  for (const [port, group] of byPort) {
    const first = group[0]!;
    const main: PlannedServer = {
      server: group[0]!.ssl ? createTlsServer(group) : createHttpServer(),
      port,
      protocol: first.ssl ? 'https' : 'http',
      key: `${first.config.keyPrefix}port`,
    };
    main.server.on('request', createDispatcher(group));
    planned.push(main);

    for (const site of group) {
      const from = site.config.ssl?.redirect;
      if (from === undefined || from === null || redirects.has(from)) continue;
      const redirect: PlannedServer = {
        server: createHttpServer(createSslRedirect(() => (main.server.address() as AddressInfo | null)?.port ?? port)),
        port: from,
        protocol: 'http',
        key: `${site.config.keyPrefix}ssl.redirect`,
      };
      redirects.set(from, redirect);
    }
  }
  return [...planned, ...redirects.values()];
}

function createTlsServer(group: BuiltSite[]): Server {
  // The catch-all's certificate answers clients without SNI or with an unknown name.
  const fallback = group.find((site) => site.config.host === null) ?? group[0]!;
  const material = fallback.ssl!;
  const contexts = new Map<string, NonNullable<BuiltSite['ssl']>['context']>();
  for (const site of group) {
    // SNI carries the bare host name, never a port.
    if (site.config.host !== null) contexts.set(site.config.host.replace(/:\d+$/, ''), site.ssl!.context);
  }
  return createHttpsServer({
    key: material.key,
    cert: material.cert,
    ca: material.ca,
    SNICallback:
      contexts.size === 0
        ? undefined
        : (servername, callback) => callback(null, contexts.get(servername.toLowerCase()) ?? material.context),
  }) as unknown as Server;
}
