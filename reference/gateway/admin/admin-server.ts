// The admin HTTP server (document 001, Endpoints and Authentication) over a GatewayRuntime. Per request:
// the bearer token first (catalog gateway/auth/before-routing), then the path (404) and method (405 with
// Allow), then the JSON body where the endpoint takes one, then the route's handler. Every answer is a JSON
// object; failures are `{"status":"error","message":…}`. It listens apart from the data plane, so its
// requests never count in `inflight`.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { GatewayRuntime } from '../runtime/gateway-runtime.ts';
import { closeAfterAnswer } from '../../shared/close-after-answer.ts';
import { AdminError, httpError, unauthorized } from './admin-error.ts';
import { ADMIN_ROUTES, type AdminMethod, type AdminRoute } from './admin-routes.ts';
import { bearerCheck } from './bearer-auth.ts';
import { readJsonObject } from './read-json-body.ts';

export interface AdminServerOptions {
  host: string;
  port: number;
  /** undefined = no authentication (catalog gateway/auth/no-token-open). */
  token: string | undefined;
  /** Called once POST /shutdown has been answered in full. */
  onShutdown: () => void;
  /** Where an unexpected failure is told (never the client); default stderr. */
  log?: (line: string) => void;
}

export interface AdminServer {
  /** Resolves with the bound address (the port chosen when `port` is 0). */
  listen(): Promise<{ host: string; port: number }>;
  /** Stops accepting and closes idle connections; resolves when every connection has ended. */
  close(): Promise<void>;
}

interface PathEntry {
  methods: Map<string, AdminRoute>;
  allow: string;
}

function buildTable(routes: readonly AdminRoute[]): Map<string, PathEntry> {
  const table = new Map<string, PathEntry>();
  for (const route of routes) {
    const entry = table.get(route.path) ?? { methods: new Map<AdminMethod, AdminRoute>(), allow: '' };
    entry.methods.set(route.method, route);
    entry.allow = [...entry.methods.keys()].join(', ');
    table.set(route.path, entry);
  }
  return table;
}

function sendJson(req: IncomingMessage, res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    // A body left unread (401, 404, 405, 413…): the connection closes gracefully after the answer.
    ...closeAfterAnswer(req),
    ...headers,
  });
  res.end(text);
}

/** Malformed requests node refuses before any handler runs are answered as JSON too. */
function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const body = JSON.stringify({ status: 'error', message: tooLarge ? 'request headers too large' : 'malformed HTTP request' });
  socket.end(
    `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export function createAdminServer(runtime: GatewayRuntime, options: AdminServerOptions): AdminServer {
  const table = buildTable(ADMIN_ROUTES);
  const authorized = bearerCheck(options.token);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));

  async function answer(req: IncomingMessage, res: ServerResponse, path: string, query: string): Promise<object> {
    if (!authorized(req.headers.authorization)) throw unauthorized();
    const entry = table.get(path);
    if (entry === undefined) throw new AdminError(404, `no admin endpoint ${path}`);
    const route = entry.methods.get(req.method ?? '');
    if (route === undefined) {
      throw new AdminError(405, `${path} does not take ${req.method}; allowed: ${entry.allow}`, { Allow: entry.allow });
    }
    let body: Record<string, unknown> = {};
    if (route.body) body = await readJsonObject(req);
    else req.resume(); // bodies sent to endpoints that take none are ignored
    return route.handle({
      runtime,
      body,
      query: new URLSearchParams(query),
      onShutdown: options.onShutdown,
      afterResponse: (action) => {
        let done = false;
        const once = () => {
          if (!done) action();
          done = true;
        };
        res.once('finish', once).once('close', once);
      },
    });
  }

  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    answer(req, res, path, mark === -1 ? '' : url.slice(mark + 1)).then(
      (body) => sendJson(req, res, 200, body),
      (err: unknown) => {
        const error = httpError(err, (cause) =>
          log(`error: admin ${req.method} ${path}: ${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}`),
        );
        sendJson(req, res, error.httpStatus, { status: 'error', message: error.message }, error.headers);
      },
    );
  });
  server.on('clientError', answerClientError);

  return {
    listen: () =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.port, options.host, () => {
          server.off('error', reject);
          const address = server.address() as AddressInfo;
          resolve({ host: address.address, port: address.port });
        });
      }),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
