// The public listeners: one server per configured port, HTTPS when a site of the port has tls (the files
// read once at start; SNI picks the site's certificate by host, the first TLS site's is the default), and
// speaking HTTP/2 beside HTTP/1.1 when a site of the port has http2 (http2-listener.ts). A cluster worker
// reads the TLS files from its primary's copies, taken when the gateway started (runtime/cluster-*.ts).
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Server as NetServer } from 'node:net';
import { createSecureContext, type SecureContext } from 'node:tls';
import { listenFailure } from '../../shared/listen-failure.ts';
import type { GatewayConfig, SiteConfig } from '../config/gateway-config.ts';
import { pairProblem } from '../config/tls-pair.ts';
import { createHttp2Listener, type SecureOptions } from './http2-listener.ts';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** What a client may cost a listener: time to send its headers, to send a whole request, idle keep-alive. */
export const CLIENT_LIMITS = {
  headersTimeoutMs: 30_000,
  /** Long enough for a streamed upload; the upstream's own limits bound the rest. */
  requestTimeoutMs: 300_000,
  keepAliveTimeoutMs: 5_000,
  maxHeaderSize: 16 * 1024,
} as const;

const SERVER_OPTIONS = {
  headersTimeout: CLIENT_LIMITS.headersTimeoutMs,
  requestTimeout: CLIENT_LIMITS.requestTimeoutMs,
  keepAliveTimeout: CLIENT_LIMITS.keepAliveTimeoutMs,
  maxHeaderSize: CLIENT_LIMITS.maxHeaderSize,
};

/** What shutdown needs of a listener: node:http's server, or the HTTP/2 one standing in for it. */
export type ListenerServer = NetServer & Pick<Server, 'closeIdleConnections' | 'closeAllConnections'>;

export interface Listener {
  /** The port as configured (0 in tests: any free port). */
  configPort: number;
  /** The port actually bound. */
  port: number;
  server: ListenerServer;
}

/** Reads a TLS file of the config. */
export type ReadTlsFile = (path: string) => Buffer;

function readPair(site: SiteConfig & { tls: { cert: string; key: string } }, readFile: ReadTlsFile): { cert: Buffer; key: Buffer } {
  const read = (path: string, field: string): Buffer => {
    try {
      return readFile(path);
    } catch (error) {
      throw new Error(`${field}: cannot read ${path}: ${(error as Error).message}`, { cause: error });
    }
  };
  const pair = { cert: read(site.tls.cert, 'tls.cert'), key: read(site.tls.key, 'tls.key') };
  // A pair that does not belong together would listen and fail every handshake: refused at start.
  const problem = pairProblem(pair.cert.toString('utf8'), pair.key.toString('utf8'));
  if (problem !== undefined) throw new Error(`tls (${site.tls.cert}, ${site.tls.key}): ${problem}`);
  return pair;
}

/** The TLS options of a port's TLS sites: the first one's pair by default, each host's by SNI. */
function secureOptions(tlsSites: (SiteConfig & { tls: { cert: string; key: string } })[], readFile: ReadTlsFile): SecureOptions {
  const byHost = new Map<string, SecureContext>();
  let fallback: { cert: Buffer; key: Buffer } | undefined;
  for (const site of tlsSites) {
    const pair = readPair(site, readFile);
    fallback ??= pair;
    if (site.host !== undefined && site.host !== '*' && !byHost.has(site.host)) byHost.set(site.host, createSecureContext(pair));
  }
  return { ...fallback!, SNICallback: (servername, callback) => callback(null, byHost.get(servername.toLowerCase())) };
}

function createServerFor(sites: SiteConfig[], handlerFor: (scheme: 'http' | 'https') => Handler, readFile: ReadTlsFile): ListenerServer {
  const tlsSites = sites.filter((site): site is SiteConfig & { tls: { cert: string; key: string } } => site.tls !== undefined);
  const tls = tlsSites.length === 0 ? undefined : secureOptions(tlsSites, readFile);
  const handler = handlerFor(tls === undefined ? 'http' : 'https');
  if (sites.some((site) => site.http2)) return createHttp2Listener({ handler, tls, http1: SERVER_OPTIONS, limits: CLIENT_LIMITS });
  if (tls === undefined) return createHttpServer(SERVER_OPTIONS, handler);
  return createHttpsServer({ ...SERVER_OPTIONS, ...tls }, handler);
}

function listen(server: ListenerServer, port: number, backlog: number | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const failed = (error: Error): void => reject(new Error(listenFailure(error, { port }, { port: "the site's port in the config" }).reason, { cause: error }));
    server.once('error', failed);
    server.listen({ port, ...(backlog === undefined ? {} : { backlog }) }, () => {
      server.off('error', failed);
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}

/** Opens every port's listener; on a failure closes those already open and throws naming the port. */
export async function openListeners(
  config: GatewayConfig,
  handlerFor: (configPort: number, scheme: 'http' | 'https') => Handler,
  readFile: ReadTlsFile = readFileSync,
): Promise<Listener[]> {
  const byPort = new Map<number, SiteConfig[]>();
  for (const site of config.sites) byPort.set(site.port, [...(byPort.get(site.port) ?? []), site]);
  const listeners: Listener[] = [];
  try {
    for (const [configPort, sites] of byPort) {
      const server = createServerFor(sites, (scheme) => handlerFor(configPort, scheme), readFile);
      const port = await listen(server, configPort, config.backlog);
      listeners.push({ configPort, port, server });
    }
  } catch (error) {
    for (const listener of listeners) listener.server.close();
    throw error;
  }
  return listeners;
}
