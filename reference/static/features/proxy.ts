// Reverse proxy through http-proxy. Rules are matched on a path-segment boundary, longest prefix first;
// several targets for one prefix take turns. Dot segments are resolved before matching (and the resolved path is
// what goes upstream), so `/api/../x` is not forwarded under `/api`. Hop-by-hop headers (RFC 9110 §7.6.1:
// Connection, the headers it names, Keep-Alive, Upgrade…) are dropped both ways: each connection's own are set
// by Node for that connection. Targets are parsed once and reached through keep-alive agents (without them a
// node proxy loses most of its throughput). Any upstream failure becomes a 502.
import { Agent as HttpAgent, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type httpProxy from 'http-proxy';
import type { ProxyRule } from '../config/site-config.ts';
import type { Handler, Response } from '../site/handler.ts';
import { sendText } from '../site/send.ts';

const BAD_GATEWAY = 'Bad Gateway';

interface Target {
  /** Pre-parsed so http-proxy does not parse the target URL again per request. */
  url: Record<string, unknown>;
  agent: HttpAgent;
}

interface Rule {
  prefix: string;
  targets: Target[];
  turn: number;
}

export interface ProxyFeature {
  handler: Handler;
  /** Drops the pooled upstream connections. */
  close(): void;
}

export async function createProxy(rules: ProxyRule[]): Promise<ProxyFeature> {
  const { default: proxyServer } = await import('http-proxy');
  const httpAgent = new HttpAgent({ keepAlive: true });
  const httpsAgent = new HttpsAgent({ keepAlive: true });
  const server = proxyServer.createProxyServer({ changeOrigin: true, xfwd: true });
  // With a callback per request http-proxy reports failures there; these listeners only make sure
  // that nothing it emits elsewhere can become an unhandled error.
  server.on('error', (_error, _req, res) => sendBadGateway(res as Response));
  server.on('econnreset', () => {});
  // An upstream that dies mid-body is not an http-proxy error (the pipe just stops): without this the
  // client would wait forever on a half-sent response.
  server.on('proxyRes', (proxyRes, _req, res) => {
    proxyRes.on('close', () => {
      if (!proxyRes.complete) res.destroy();
    });
    dropHopByHop(proxyRes.headers);
    // The client's connection is kept or closed as Node decided from the client's request (http-proxy would
    // otherwise copy the upstream's Connection, which speaks of the upstream connection).
    proxyRes.headers.connection = (res as Response).shouldKeepAlive ? 'keep-alive' : 'close';
  });
  // The upstream connection's own Connection header is the agent's (the client's stays on the request, read
  // by http-proxy for the response).
  server.on('proxyReq', (proxyReq) => proxyReq.removeHeader('connection'));

  const table: Rule[] = rules.map((rule) => ({
    prefix: rule.prefix,
    turn: 0,
    targets: rule.targets.map(({ url }) => ({
      url: toTarget(url),
      agent: url.protocol === 'https:' ? httpsAgent : httpAgent,
    })),
  }));

  const handler: Handler = (req, res, next) => {
    const path = removeDotSegments(req.path);
    const rule = findRule(table, path);
    if (rule === null) return next();
    if (path !== req.path) {
      const query = req.url.indexOf('?');
      req.url = query === -1 ? path : path + req.url.slice(query);
    }
    dropHopByHop(req.headers);
    const targets = rule.targets;
    const target = targets.length === 1 ? targets[0]! : targets[rule.turn++ % targets.length]!;
    if (rule.turn >= Number.MAX_SAFE_INTEGER) rule.turn = 0;
    server.web(req, res, { target: target.url as unknown as httpProxy.ProxyTargetUrl, agent: target.agent }, () =>
      sendBadGateway(res),
    );
  };

  return {
    handler,
    close() {
      httpAgent.destroy();
      httpsAgent.destroy();
      server.close();
    },
  };
}

/** `/api` matches `/api`, `/api/x` (and `/api?q`, whose path is `/api`), never `/apix`. */
function findRule(table: Rule[], path: string): Rule | null {
  for (const rule of table) {
    const prefix = rule.prefix;
    if (prefix === '/' || path === prefix) return rule;
    if (path.startsWith(prefix) && path.charCodeAt(prefix.length) === 47) return rule;
  }
  return null;
}

/** RFC 3986's remove_dot_segments on a path; `%2e` counts as a dot (an upstream may decode it first). */
export function removeDotSegments(path: string): string {
  if (!path.includes('/.') && !/\/%2e/i.test(path)) return path;
  const segments = path.split('/');
  const out: string[] = [];
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i]!;
    const dots = segment.replace(/%2e/gi, '.');
    if (dots !== '.' && dots !== '..') {
      out.push(segment);
      continue;
    }
    if (dots === '..') out.pop();
    if (i === segments.length - 1) out.push('');
  }
  return `/${out.join('/')}`;
}

/** Headers of one connection, never forwarded (besides Connection and those it names); HTTP2-Settings goes with
 * an h2c Upgrade. Transfer-Encoding and Content-Length stay: Node frames the body it forwards by them. */
const HOP_BY_HOP = ['keep-alive', 'proxy-connection', 'te', 'upgrade', 'http2-settings'];
const KEPT = new Set(['connection', 'transfer-encoding', 'content-length', 'host']);

/** Deletes the hop-by-hop headers but Connection itself (the caller sees to it). */
export function dropHopByHop(headers: IncomingHttpHeaders): void {
  const named = headers.connection;
  if (named !== undefined) {
    for (const name of named.split(',')) {
      const header = name.trim().toLowerCase();
      if (header !== '' && !KEPT.has(header)) delete headers[header];
    }
  }
  for (const header of HOP_BY_HOP) delete headers[header];
}

/** The fields http-proxy reads from a target (see `setupOutgoing` in http-proxy's common.js). */
function toTarget(url: URL): Record<string, unknown> {
  const https = url.protocol === 'https:';
  return {
    protocol: url.protocol,
    host: url.host,
    // WHATWG keeps IPv6 brackets in `hostname`; node's http.request wants the bare address.
    hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? (https ? 443 : 80) : Number(url.port),
    // The target's own path is prepended to the forwarded path; `/` adds nothing.
    path: url.pathname === '/' ? '' : url.pathname,
  };
}

/** 502 when nothing was sent yet; once the head is out, the only honest signal is to cut the connection. */
function sendBadGateway(res: Response | undefined): void {
  if (res === undefined || typeof res.writeHead !== 'function') return;
  sendText(res, 502, BAD_GATEWAY);
}
