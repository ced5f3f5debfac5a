// The recipe manager's HTTP server: polka, every endpoint under /api, GET /health beside it, JSON errors with the
// catalog's statuses and never a stack trace (recipes/errors/*). Faults are logged (message and stack) and
// answered 500 {"error": "Internal server error"}.
import { once } from 'node:events';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import polka from 'polka';
import type { AuthConfig } from '../auth/index.ts';
import { resolveAppUrl } from '../mail/index.ts';
import type { RecipesStore } from '../store/index.ts';
import { ApiError, toApiError } from './api-error.ts';
import { mountAdminUsers } from './admin-users-routes.ts';
import { mountAuth } from './auth-handler.ts';
import { mountDocs } from './docs-routes.ts';
import { mountInvites } from './invites-routes.ts';
import { LINKS_IN_ANSWERS_WARNING, linksInAnswers } from './link-delivery.ts';
import { DEFAULT_JSON_LIMIT, sendError, sendJson } from './json-io.ts';
import { mountPasswordReset } from './password-handler.ts';
import type { QuotaLimits } from './recipe-quota.ts';
import { mountRecipes } from './recipes-routes.ts';
import { createContext, type Log, type ServerContext } from './server-context.ts';
import { mountSettings } from './settings-handler.ts';
import { mountSetup } from './setup-handler.ts';

export interface RecipesServerOptions {
  readonly store: RecipesStore;
  readonly auth: AuthConfig;
  readonly port?: number;
  readonly host?: string | undefined;
  /** APP_URL as given; default http://localhost:<listening port>. */
  readonly appUrl?: string | undefined;
  readonly jsonLimit?: number;
  /** The folder of uploaded photos; default `uploads`, resolved against the working directory. */
  readonly uploadsDir?: string;
  readonly mailTimeoutMs?: number;
  readonly log?: Log;
  /** RECIPES_IMPORT_PRIVATE=allow: the import may fetch from private addresses (default: refused). */
  readonly importPrivate?: boolean | undefined;
  /** What one user may keep; default DEFAULT_QUOTA (1,000 recipes, 8 MiB). */
  readonly quota?: QuotaLimits | undefined;
}

export interface RecipesServer {
  readonly server: Server;
  readonly port: number;
  /** http://<host>:<port>, for tests and the start-up line. */
  readonly url: string;
  readonly context: ServerContext;
  /** Stops accepting, ends idle keep-alive connections, waits for requests in flight. Not the store. */
  close(): Promise<void>;
}

export const DEFAULT_UPLOADS_DIR = 'uploads';

const startedAt = Date.now();

function health(_req: unknown, res: Parameters<typeof sendJson>[0]): void {
  sendJson(res, 200, { status: 'ok', uptime: Math.round((Date.now() - startedAt) / 1000) });
}

export async function startRecipesServer(options: RecipesServerOptions): Promise<RecipesServer> {
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const server = createHttpServer();
  let appUrl: string | undefined;
  const context = createContext({
    store: options.store,
    auth: options.auth,
    // Resolved once listening: its default needs the port actually bound.
    appUrl: () => appUrl!,
    jsonLimit: options.jsonLimit ?? DEFAULT_JSON_LIMIT,
    uploadsDir: resolve(options.uploadsDir ?? DEFAULT_UPLOADS_DIR),
    log,
    ...(options.mailTimeoutMs === undefined ? {} : { mailTimeoutMs: options.mailTimeoutMs }),
    importPrivate: options.importPrivate,
    quota: options.quota,
  });

  const app = polka({
    server,
    onError(err, req, res) {
      const { error, internal, logLine } = toApiError(err);
      if (logLine !== undefined) log(`${req.method} ${req.originalUrl ?? req.url}: ${error.status}: ${logLine}`);
      if (internal) {
        const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
        log(`${req.method} ${req.originalUrl ?? req.url}: ${detail}`);
      }
      sendError(res, error);
    },
    // Unknown paths, and known paths with another method (recipes/errors/not-found).
    onNoMatch(req, res) {
      sendError(res, new ApiError(404, `No route for ${req.method} ${req.path}`));
    },
  });
  app.get('/health', health);
  app.get('/api/health', health);
  mountSetup(app, context);
  mountAuth(app, context);
  mountPasswordReset(app, context);
  mountSettings(app, context);
  mountAdminUsers(app, context);
  mountInvites(app, context);
  mountRecipes(app, context);
  mountDocs(app, context);

  app.listen(options.port ?? 0, options.host);
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([err]) => Promise.reject(err))]);
  const { port } = server.address() as AddressInfo;
  appUrl = resolveAppUrl(options.appUrl, port);
  if (linksInAnswers(context)) log(LINKS_IN_ANSWERS_WARNING);
  const host = options.host === undefined || options.host.includes(':') ? (options.host ? `[${options.host}]` : 'localhost') : options.host;
  return {
    server,
    port,
    url: `http://${host}:${port}`,
    context,
    async close() {
      const closed = once(server, 'close');
      server.close();
      server.closeIdleConnections();
      await closed;
    },
  };
}
