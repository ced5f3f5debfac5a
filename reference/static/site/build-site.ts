// Builds the polka app of one site: every configured feature becomes one middleware, in the document's
// order; unconfigured features add nothing, and their packages are not even loaded (a smaller heap makes
// the garbage collections that file streaming triggers cheaper). Everything is created here, once, so a
// request only runs the chain. Errors in the chain end as a short 500 text, never a stack trace and never a crash.
import { STATUS_CODES } from 'node:http';
import polka from 'polka';
import type { NormalizedSite } from '../config/normalize-site.ts';
import type { SiteConfig } from '../config/site-config.ts';
import { createBasicAuth } from '../features/basic-auth.ts';
import { createCompression } from '../features/compression.ts';
import { createCors } from '../features/cors.ts';
import { createCustomHeaders } from '../features/custom-headers.ts';
import { createFavicon } from '../features/favicon.ts';
import { createHealth } from '../features/health.ts';
import { createHelmet } from '../features/helmet.ts';
import { createLogging } from '../features/logging.ts';
import { createProxy } from '../features/proxy.ts';
import { createRateLimit } from '../features/rate-limit.ts';
import { createRedirects } from '../features/redirects.ts';
import { createResponseTime } from '../features/response-time.ts';
import { loadSsl, type SslMaterial } from '../features/ssl.ts';
import { createStaticFolders } from '../features/static-folders.ts';
import { createUnhandled } from '../features/unhandled.ts';
import type { Handler, Request, Response } from './handler.ts';
import { sendText } from './send.ts';

export interface BuiltSite {
  config: SiteConfig;
  /** Entry point for requests routed to this site. */
  handle(req: Request, res: Response): void;
  ssl: SslMaterial | null;
  /** Stops watchers and drops pooled upstream connections. */
  close(): Promise<void>;
}

export async function buildSite({ config, ctx }: NormalizedSite): Promise<BuiltSite> {
  const key = (name: string) => config.keyPrefix + name;
  const wares: Handler[] = [];
  const closers: (() => void | Promise<void>)[] = [];
  // Read before any middleware exists, so a bad certificate stops startup early.
  const ssl = config.ssl === null ? null : loadSsl(config.ssl, config.keyPrefix);

  if (config.logging) wares.push(await createLogging(config.logging, key('logging')));
  wares.push(decodePath);
  if (config.responseTime) wares.push(await createResponseTime(config.responseTime));
  if (config.cors) wares.push(await createCors(config.cors));
  if (config.compression) wares.push(await createCompression(config.compression));
  if (config.helmet) wares.push(await createHelmet(config.helmet, key('helmet')));
  if (config.favicon) wares.push(await createFavicon(config.favicon, key('favicon')));
  if (config.healthCheck) wares.push(createHealth(config.healthCheck));
  let injectHtml: ((html: string) => string) | null = null;
  if (config.hotReload) {
    const folders = [...new Set((config.folders ?? []).map((folder) => folder.dir))];
    const { createHotReload } = await import('../features/hot-reload.ts');
    const hotReload = createHotReload(folders, ctx);
    wares.push(hotReload.handler);
    injectHtml = (html) => hotReload.injectHtml(html);
    closers.push(() => hotReload.close());
  }
  if (config.rateLimit) wares.push(await createRateLimit(config.rateLimit));
  if (config.basicAuth) wares.push(await createBasicAuth(config.basicAuth));
  if (config.headers) wares.push(createCustomHeaders(config.headers));
  if (config.redirects) wares.push(createRedirects(config.redirects));
  if (config.folders) wares.push(createStaticFolders(config.folders, ctx, injectHtml));
  if (config.cgi) wares.push((await import('../features/cgi.ts')).createCgiHandler(config.cgi, ctx));
  if (config.upload) wares.push((await import('../features/upload.ts')).createUploadHandler(config.upload, ctx));
  if (config.proxy) {
    const proxy = await createProxy(config.proxy);
    wares.push(proxy.handler);
    closers.push(() => proxy.close());
  }
  const unhandled = await createUnhandled(config.unhandled, ctx);
  wares.push(unhandled);

  const label = config.keyPrefix ? `${config.keyPrefix.slice(0, -1)}: ` : '';
  const app = polka<Request>({
    onError: (error, req, res) => sendError(error, req, res as Response, label),
    // Unreachable while `unhandled` ends the chain, but it keeps polka's own 404 text out.
    onNoMatch: unhandled,
  });
  app.use(...wares);
  const handler = app.handler;

  return {
    config,
    ssl,
    // Called directly rather than through polka's `listen` (which defers every request by a setImmediate).
    handle: (req, res) => void handler(req, res, undefined as never),
    async close() {
      for (const close of closers) await close();
    },
  };
}

/** Decodes the pathname once for every later feature; a malformed escape or a NUL byte is a 400. */
const decodePath: Handler = (req, res, next) => {
  const raw = req.path;
  if (raw.includes('%')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      return sendStatus(res, 400);
    }
    if (decoded.includes('\0')) return sendStatus(res, 400);
    req.path = decoded;
  }
  next();
};

function sendStatus(res: Response, status: number): void {
  sendText(res, status, STATUS_CODES[status] ?? 'Error');
}

/** polka's error hook: log one line (never the stack to the client), answer 500 or the error's 4xx/5xx. */
function sendError(error: unknown, req: Request, res: Response, label: string): void {
  const status = (error as { status?: unknown })?.status;
  const code = typeof status === 'number' && status >= 400 && status <= 599 ? status : 500;
  if (code === 500) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`error: ${label}${req.method} ${req.originalUrl ?? req.url}: ${message}\n`);
  }
  sendStatus(res, code);
}
