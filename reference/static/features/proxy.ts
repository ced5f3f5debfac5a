// Reverse proxy through http-proxy. Rules are matched on a path-segment boundary, longest prefix first;
// several targets for one prefix take turns. Targets are parsed once and reached through keep-alive
// agents (without them a node proxy loses most of its throughput). Any upstream failure becomes a 502.
import { Agent as HttpAgent } from 'node:http';
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
  });

  const table: Rule[] = rules.map((rule) => ({
    prefix: rule.prefix,
    turn: 0,
    targets: rule.targets.map(({ url }) => ({
      url: toTarget(url),
      agent: url.protocol === 'https:' ? httpsAgent : httpAgent,
    })),
  }));

  const handler: Handler = (req, res, next) => {
    const rule = findRule(table, req.path);
    if (rule === null) return next();
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
