// Test helpers of the runtime and data-plane tests: recording upstream servers on loopback port 0, config
// objects built directly (the model of config/gateway-config.ts), a gateway started on them and a plain
// HTTP client (no keep-alive, optional source address).
import { once } from 'node:events';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GatewayConfig, RouteConfig, SiteConfig } from '../config/gateway-config.ts';
import { createGateway, type Gateway, type GatewayOptions } from './create-gateway.ts';
import { freePorts } from '../../../conformance/harness/free-ports.ts';

export interface Hit {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface TestUpstream {
  url: string;
  port: number;
  server: Server;
  hits: Hit[];
  /** Hits excluding health probes. */
  traffic(): Hit[];
  close(): Promise<void>;
}

export type UpstreamHandler = (req: IncomingMessage, res: ServerResponse, hit: Hit) => void;

/** Answers 200 with its name as the body, unless `handler` answers (so GET /health answers 200 too). */
export async function startUpstream(name: string, handler?: UpstreamHandler, port = 0): Promise<TestUpstream> {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const hit = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() };
      hits.push(hit);
      if (handler !== undefined) handler(req, res, hit);
      else res.end(name);
    });
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    server,
    hits,
    traffic: () => hits.filter((hit) => hit.url !== '/health'),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback URL nothing listens on. */
export async function deadUrl(): Promise<string> {
  // A port outside the ephemeral range, claimed for the test process: a port freed after listen(0) could be
  // taken meanwhile by any server of a concurrent test that listens on port 0 (and answer instead).
  const [port] = await freePorts(1);
  return `http://127.0.0.1:${port}`;
}

export function route(path: string, urls: string[], extra: Partial<RouteConfig> = {}): RouteConfig {
  return { path, strategy: 'round-robin', stripPrefix: false, targets: urls.map((url) => ({ url, weight: 1 })), ...extra };
}

export function site(extra: Partial<SiteConfig> = {}): SiteConfig {
  const host = extra.host;
  const port = extra.port ?? 0;
  return {
    label: `${host ?? '*'}:${port}`,
    host,
    port,
    tls: undefined,
    routes: [],
    healthCheck: undefined,
    outlierDetection: undefined,
    retries: 0,
    rateLimit: undefined,
    ipDeny: [],
    cache: undefined,
    auth: undefined,
    filters: undefined,
    fallback: undefined,
    metricsPath: undefined,
    serving: undefined,
    http2: false,
    notCompiledIn: [],
    ...extra,
  };
}

export function config(sites: SiteConfig[], extra: Partial<GatewayConfig> = {}): GatewayConfig {
  return {
    path: '/nonexistent/gateway.yaml',
    format: 'yaml',
    global: { admin: undefined, shutdownTimeoutSecs: 5, redis: undefined },
    workers: 1,
    backlog: undefined,
    hotReload: false,
    sites,
    ...extra,
  };
}

export interface TestGateway {
  gateway: Gateway;
  port: number;
  logs: string[];
}

export async function startGateway(cfg: GatewayConfig, options: Partial<GatewayOptions> = {}): Promise<TestGateway> {
  const logs: string[] = [];
  const gateway = await createGateway(cfg, {
    loadConfig: () => {
      throw new Error('no loadConfig in this test');
    },
    coldChange: () => undefined,
    log: (line) => logs.push(line),
    ...options,
  });
  return { gateway, port: gateway.ports()[0]!, logs };
}

export interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Ask {
  method?: string;
  host?: string;
  headers?: Record<string, string>;
  body?: string;
  localAddress?: string;
}

export function ask(port: number, path: string, options: Ask = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        agent: false,
        headers: { ...(options.host === undefined ? {} : { host: options.host }), ...options.headers },
        ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Sends `n` requests one after the other and returns the bodies. */
export async function askMany(port: number, path: string, n: number, options: Ask = {}): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < n; i++) answers.push(await ask(port, path, options));
  return answers;
}

export const count = (values: readonly string[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
};

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` holds (or throws after `timeoutMs`). */
export async function until(check: () => boolean, timeoutMs = 3000, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}
