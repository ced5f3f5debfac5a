// The gateway's request handler: the seven API routes (404/405 around them), the OpenAPI document, and the
// browser client's files; every route is looked up in tables built at start-up.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { create, toJson } from '@bufbuild/protobuf';
import { status } from '@grpc/grpc-js';
import sirv from 'sirv';
import { GatewayError } from './gateway-error.ts';
import type { GatewayOptions } from './gateway-options.ts';
import type { GrpcForwarder } from './grpc-forwarder.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { readJsonBody } from './read-body.ts';
import { RequestDecoder } from './request-decoder.ts';
import { COMMON_HEADERS, sendError, sendJson } from './respond.ts';
import { OPENAPI_PATH, ROUTES, type Route } from './routes.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** The page may play speech from blob: URLs; everything else comes from the gateway itself. */
const PAGE_HEADERS = {
  ...COMMON_HEADERS,
  'Content-Security-Policy': "default-src 'self'; media-src 'self' blob:; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
};

const notFound = (path: string) => new GatewayError(status.NOT_FOUND, `no route ${path}`);
const wrongMethod = (method: string | undefined, path: string, allow: string) =>
  new GatewayError(status.UNIMPLEMENTED, `${path} does not take ${method}; allowed: ${allow}`, { httpStatus: 405, headers: { Allow: allow } });

export function createHandler(options: GatewayOptions, forwarder: GrpcForwarder, publicDir: string): Handler {
  const document = buildOpenApiDocument();
  const openApiJson = JSON.stringify(document);
  const decoder = new RequestDecoder(
    document,
    ROUTES.filter((route) => route.method === 'POST').map((route) => route.rpc.input),
  );
  const routes = new Map(ROUTES.map((route) => [route.path, { route, timeoutMs: typeof route.deadline === 'number' ? route.deadline : options.timeouts[route.deadline] }]));
  const serveFile = sirv(publicDir, { etag: true });

  async function forward(route: Route, timeoutMs: number | undefined, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    try {
      const request = route.method === 'GET' ? create(route.rpc.input) : decoder.decode(route.rpc.input, await readJsonBody(req, options.maxBodyBytes));
      const response = await forwarder.call(route.rpc, request, { timeoutMs, signal: gone.signal });
      if (!gone.signal.aborted) sendJson(res, 200, JSON.stringify(toJson(route.rpc.output, response, { alwaysEmitImplicit: true })));
    } catch (err) {
      // The client went away: the call is cancelled and nothing more is written.
      if (!gone.signal.aborted) sendError(req, res, err);
    }
  }

  function api(path: string, req: IncomingMessage, res: ServerResponse): void {
    const entry = routes.get(path);
    if (entry) {
      if (req.method === entry.route.method) void forward(entry.route, entry.timeoutMs, req, res);
      else sendError(req, res, wrongMethod(req.method, path, entry.route.method));
    } else if (path === OPENAPI_PATH) {
      if (req.method === 'GET') sendJson(res, 200, openApiJson);
      else sendError(req, res, wrongMethod(req.method, path, 'GET'));
    } else sendError(req, res, notFound(path));
  }

  return (req, res) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (path === '/api' || path.startsWith('/api/')) return api(path, req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(req, res, wrongMethod(req.method, path, 'GET, HEAD'));
    for (const [name, value] of Object.entries(PAGE_HEADERS)) res.setHeader(name, value);
    serveFile(req, res, () => {
      for (const name of Object.keys(PAGE_HEADERS)) res.removeHeader(name);
      sendError(req, res, notFound(path));
    });
  };
}
