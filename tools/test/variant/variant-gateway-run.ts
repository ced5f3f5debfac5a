// `serve` of the permitted-variant gateway: the reference's gateway (createGateway) and admin server
// (createAdminServer) put together as `gateway run` does, on the variant's config (variant-gateway-config.ts),
// with the variant's layers in front of the admin server (variant-gateway-admin.ts) and of the public listeners
// (here): a health answer with more fields, denied connections closed, OpenMetrics, 503 for what the shutdown
// timeout cuts, an access log, slower answers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';
import { createAdminServer } from '../../../reference/gateway/admin/admin-server.ts';
import { ConfigError } from '../../../reference/gateway/config/config-error.ts';
import { coldChange } from '../../../reference/gateway/config/cold-change.ts';
import type { GatewayConfig } from '../../../reference/gateway/config/gateway-config.ts';
import { METRICS_CONTENT_TYPE } from '../../../reference/gateway/data-plane/metrics.ts';
import { createGateway, type Gateway } from '../../../reference/gateway/runtime/create-gateway.ts';
import { capturing, type Layer, putInFront } from '../faulty/faulty-gateway-http.ts';
import { adminLayer, VARIANT_NAME, VARIANT_VERSION, type VariantContext } from './variant-gateway-admin.ts';
import { loadVariantConfig, VARIANT_CONFIG_FILE } from './variant-gateway-config.ts';
import type { GatewayVariant } from './variant-gateway-variants.ts';

const PUBLIC_DELAY_MS = 10;
/** How long before the shutdown timeout the requests still running are answered 503 (timeout-503). */
const CUT_AHEAD_MS = 150;
const OPENMETRICS = 'application/openmetrics-text; version=1.0.0; charset=utf-8';
const FORBIDDEN = 'Forbidden\n';
const UNAUTHORIZED = 'Unauthorized\n';

interface Running {
  on: (v: GatewayVariant) => boolean;
  /** Responses in progress on the public listeners (timeout-503). */
  open: Set<ServerResponse>;
  startedAt: number;
}

/** The data plane's layer. */
function publicLayer(run: Running): Layer {
  const { on } = run;
  const handle = (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    if (on('extra-fields') && req.url === '/__health__' && (req.method === 'GET' || req.method === 'HEAD')) {
      const text = JSON.stringify({ status: 'ok', version: VARIANT_VERSION, uptime_secs: Math.floor((Date.now() - run.startedAt) / 1000) });
      res.writeHead(200, { 'content-type': 'application/health+json', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : text);
      return;
    }
    if (on('auth-403')) {
      const writeHead = res.writeHead.bind(res);
      res.writeHead = ((status: number, ...rest: unknown[]) => {
        const headers = (rest.find((r) => typeof r === 'object' && r !== null) ?? {}) as Record<string, unknown>;
        // The gateway's own 401 (data-plane/plain-responses.ts) for an API key or a token: 403, no challenge.
        const own = headers['content-length'] === UNAUTHORIZED.length && String(headers['content-type']).startsWith('text/plain');
        if (status === 401 && own && !/^basic/i.test(String(headers['www-authenticate'] ?? ''))) {
          const { 'www-authenticate': _challenge, ...others } = headers;
          return writeHead(403, { ...others, 'content-length': FORBIDDEN.length });
        }
        return (writeHead as (...a: unknown[]) => ServerResponse)(status, ...rest);
      }) as typeof res.writeHead;
      const end = res.end.bind(res);
      res.end = ((chunk?: unknown, ...rest: unknown[]) =>
        res.statusCode === 403 && String(chunk ?? '') === UNAUTHORIZED ? end(FORBIDDEN) : (end as (...a: unknown[]) => ServerResponse)(chunk, ...rest)) as typeof res.end;
    }
    if (on('deny-drop') || on('openmetrics')) {
      const writeHead = res.writeHead.bind(res);
      const end = res.end.bind(res);
      let metrics = false;
      res.writeHead = ((status: number, ...rest: unknown[]) => {
        const headers = (rest.find((r) => typeof r === 'object' && r !== null) ?? {}) as Record<string, unknown>;
        if (on('openmetrics') && headers['content-type'] === METRICS_CONTENT_TYPE) {
          metrics = true;
          const { 'content-length': _length, ...others } = headers;
          return writeHead(status, { ...others, 'content-type': OPENMETRICS });
        }
        return (writeHead as (...a: unknown[]) => ServerResponse)(status, ...rest);
      }) as typeof res.writeHead;
      res.end = ((chunk?: unknown, ...rest: unknown[]) => {
        // The gateway's own 403 (data-plane/plain-responses.ts): its head is not on the wire before end().
        if (on('deny-drop') && res.statusCode === 403 && String(chunk ?? '') === FORBIDDEN) {
          req.socket.destroy();
          return res;
        }
        if (metrics && chunk !== undefined) return end(`${String(chunk)}# EOF\n`);
        return (end as (...a: unknown[]) => ServerResponse)(chunk, ...rest);
      }) as typeof res.end;
    }
    if (on('timeout-503')) {
      run.open.add(res);
      res.once('close', () => run.open.delete(res));
    }
    if (on('banner')) {
      const started = Date.now();
      res.once('finish', () => process.stdout.write(`${new Date().toISOString()} ${req.socket.remoteAddress} "${req.method} ${req.url}" ${res.statusCode} ${Date.now() - started}ms\n`));
    }
    next();
  };
  return (req, res, next) => {
    if (on('slow')) setTimeout(() => handle(req, res, next), PUBLIC_DELAY_MS);
    else handle(req, res, next);
  };
}

/** Serves until shut down (undefined), or the exit code when it cannot start. */
export async function runVariantGateway(args: string[], on: (v: GatewayVariant) => boolean): Promise<number | undefined> {
  const { values } = parseArgs({ args, options: { config: { type: 'string', short: 'c' } }, strict: true });
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const ctx = { on, env: process.env, warn: log };
  let config: GatewayConfig;
  try {
    config = loadVariantConfig(values.config ?? VARIANT_CONFIG_FILE, ctx);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // `run` (without own-cli) as the reference words it; `serve` exits 78 (EX_CONFIG).
    process.stderr.write(on('own-cli') ? `${VARIANT_NAME}: configuration rejected: ${error.message}\n` : `error: ${error.message}\n`);
    return on('own-cli') ? 78 : 1;
  }
  if (on('banner')) process.stdout.write(`${VARIANT_NAME} ${VARIANT_VERSION}\nconfiguration: ${config.path}\n`);
  const run: Running = { on, open: new Set(), startedAt: Date.now() };
  let gateway: Gateway;
  try {
    const started = await capturing(() => createGateway(config, { loadConfig: (path) => loadVariantConfig(path, ctx), coldChange, log }));
    gateway = started.value;
    for (const server of started.servers) putInFront(server, publicLayer(run));
  } catch (error) {
    process.stderr.write(`${VARIANT_NAME}: cannot start: ${(error as Error).message}\n`);
    return 1;
  }

  let stopping = false;
  let closeAdmin = async () => {};
  const stop = () => {
    if (stopping) process.exit(0);
    stopping = true;
    void closeAdmin();
    if (on('timeout-503')) {
      const timeoutMs = (gateway as unknown as { table?: { config: GatewayConfig } }).table?.config.global.shutdownTimeoutSecs ?? config.global.shutdownTimeoutSecs;
      setTimeout(() => {
        for (const res of run.open) {
          if (res.headersSent) continue;
          const text = 'Service Unavailable: the gateway is shutting down\n';
          res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), connection: 'close' });
          res.end(text);
        }
      }, Math.max(0, timeoutMs * 1000 - CUT_AHEAD_MS)).unref();
    }
    gateway.shutdown().finally(() => process.exit(0));
  };
  if (!on('no-sigterm')) {
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  }

  const admin = config.global.admin;
  let adminAddress = '';
  if (admin !== undefined) {
    const context: VariantContext = {
      on,
      gateway,
      config: () => (gateway as unknown as { table?: { config: GatewayConfig } }).table?.config ?? config,
      token: admin.token,
      startedAt: run.startedAt,
      events: [],
      adminInflight: 0,
    };
    const server = createAdminServer(gateway, { ...admin, onShutdown: stop, log });
    try {
      const listened = await capturing(() => server.listen());
      adminAddress = `${listened.value.host}:${listened.value.port}`;
      for (const s of listened.servers) putInFront(s, adminLayer(context));
    } catch (error) {
      await gateway.shutdown();
      process.stderr.write(`${VARIANT_NAME}: global.admin.bind: cannot listen: ${(error as Error).message}\n`);
      return 1;
    }
    closeAdmin = () => server.close();
  }
  process.on('uncaughtException', (err) => log(`${VARIANT_NAME}: uncaught: ${err.message}`));
  process.on('unhandledRejection', (reason) => log(`${VARIANT_NAME}: unhandled rejection: ${String(reason)}`));
  const ports = gateway.ports().join(', ');
  process.stdout.write(on('banner') ? `serving on ${ports}\n${adminAddress ? `admin API on http://${adminAddress}\n` : 'no admin API\n'}ready\n` : `${VARIANT_NAME} ready (${ports})\n`);
  return undefined;
}
