// A permitted variant of the web gateway, for proving that the translate-web suite passes a different but
// right gateway: written apart from the reference (node:http, grpc-js's generic client, protobuf-es), it does
// what document 000 states (the seven routes on their RPCs, PORT and TRANSLATE_GRPC_URL with their defaults,
// the deadlines, a page whose client retries 502/503/504), and where the document leaves room each variant
// named in VARIANTS (comma-separated, see variant-web-variants.ts) makes another choice than the reference.
//
//   VARIANTS=a,b node --import <tsx> tools/test/variant/variant-web.ts      (environment as for translate-web)
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { DescMessage, DescMethodUnary, MessageShape } from '@bufbuild/protobuf';
import { fromBinary, toBinary } from '@bufbuild/protobuf';
import { Client, credentials, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import sirv from 'sirv';
import { TranslateService } from '../../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { BodyError, DESIGNS, type DesignName, type RouteName } from './variant-web-bodies.ts';
import type { WebVariant } from './variant-web-variants.ts';

const variants = new Set((process.env.VARIANTS ?? '').split(',').filter(Boolean) as WebVariant[]);
const on = (v: WebVariant): boolean => variants.has(v);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const out = (line: string): void => void process.stdout.write(`${line}\n`);

// ---------------------------------------------------------------- environment

function fail(message: string): never {
  process.stderr.write(`variant gateway: ${message}\n`);
  process.exit(1);
}

const variable = (name: string): string | undefined => (process.env[name] ? process.env[name] : undefined);

function timeout(name: string): number | undefined {
  const raw = variable(name);
  if (raw === undefined) return undefined;
  const ms = Number(raw);
  if (/^\d+$/.test(raw) && ms > 0) return ms;
  if (on('lenient-env')) {
    process.stderr.write(`variant gateway: ignoring ${name}=${raw}; no deadline\n`);
    return undefined;
  }
  return fail(`${name} must be a positive number of milliseconds, not "${raw}"`);
}

const portText = variable('PORT') ?? '4000';
if (!/^\d{1,5}$/.test(portText)) fail(`PORT must be a port number, not "${portText}"`);
const PORT = Number(portText);
const GRPC_TARGET = variable('TRANSLATE_GRPC_URL') ?? 'localhost:5100';
const FIXED_MS = 30_000;

// ---------------------------------------------------------------- routes

type Method = DescMethodUnary<DescMessage, DescMessage>;
interface Route {
  name: RouteName;
  method: 'GET' | 'POST';
  rpc: Method;
  timeoutMs: number | undefined;
}

const M = TranslateService.method;
const ROUTES = new Map<string, Route>([
  ['/api/capabilities', { name: 'capabilities', method: 'GET', rpc: M.getCapabilities, timeoutMs: FIXED_MS }],
  ['/api/translate', { name: 'translate', method: 'POST', rpc: M.translateText, timeoutMs: timeout('TRANSLATE_TIMEOUT_MS') }],
  ['/api/detect', { name: 'detect', method: 'POST', rpc: M.detectLanguage, timeoutMs: FIXED_MS }],
  ['/api/localize', { name: 'localize', method: 'POST', rpc: M.translateLocalization, timeoutMs: timeout('LOCALIZE_TIMEOUT_MS') }],
  ['/api/transcribe', { name: 'transcribe', method: 'POST', rpc: M.transcribeAudio, timeoutMs: timeout('TRANSCRIBE_TIMEOUT_MS') }],
  ['/api/translate-audio', { name: 'translate-audio', method: 'POST', rpc: M.translateAudio, timeoutMs: timeout('TRANSCRIBE_TIMEOUT_MS') }],
  ['/api/synthesize', { name: 'synthesize', method: 'POST', rpc: M.synthesizeSpeech, timeoutMs: FIXED_MS }],
]) as ReadonlyMap<string, Route>;

const design: DesignName = on('rest-bodies') ? 'rest' : on('snake-case') ? 'snake' : 'proto';
const bodies = DESIGNS[design];

// ---------------------------------------------------------------- the service

const client = new Client(GRPC_TARGET, credentials.createInsecure(), {
  'grpc.max_send_message_length': 128 * 2 ** 20,
  'grpc.max_receive_message_length': 128 * 2 ** 20,
  'grpc.initial_reconnect_backoff_ms': 200,
  'grpc.max_reconnect_backoff_ms': 1_500,
});

function unary<O>(path: string, request: Buffer, decode: (b: Buffer) => O, timeoutMs: number | undefined, signal?: AbortSignal): Promise<O> {
  return new Promise((resolve, reject) => {
    const options = timeoutMs === undefined ? {} : { deadline: Date.now() + timeoutMs };
    const call = client.makeUnaryRequest(path, (b: Buffer) => b, decode, request, new Metadata(), options, (err, response) => (err ? reject(err) : resolve(response as O)));
    signal?.addEventListener('abort', () => call.cancel(), { once: true });
  });
}

let inFlight = 0;
const queue: (() => void)[] = [];
async function slot(): Promise<() => void> {
  if (on('concurrency-limit') && inFlight >= 16) await new Promise<void>((resolve) => queue.push(resolve));
  inFlight++;
  return () => {
    inFlight--;
    queue.shift()?.();
  };
}

async function callService(route: Route, request: MessageShape<DescMessage>, signal: AbortSignal): Promise<MessageShape<DescMessage>> {
  const path = `/${TranslateService.typeName}/${route.rpc.name}`;
  const bytes = Buffer.from(toBinary(route.rpc.input, request));
  const release = await slot();
  try {
    if (on('startup-probe')) await unary('/grpc.health.v1.Health/Check', Buffer.alloc(0), (b) => b, 2_000).catch(() => undefined);
    for (let attempt = 1; ; attempt++) {
      try {
        // The deadline counts from the call.
        return await unary(path, bytes, (b) => fromBinary(route.rpc.output, b), route.timeoutMs, on('no-cancel') ? undefined : signal);
      } catch (err) {
        if (!on('gateway-retries') || (err as ServiceError).code !== status.UNAVAILABLE || attempt > 2) throw err;
        await sleep(100);
      }
    }
  } finally {
    release();
  }
}

// ---------------------------------------------------------------- answers

const CORS = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'GET, POST, OPTIONS', 'Access-Control-Allow-Headers': 'Content-Type' };
const codeName = (code: number): string => status[code] ?? 'UNKNOWN';

/** The reference's table, for comparison: catalog translate-web/errors/status-mapping. */
const PLAIN_STATUS: Record<number, number> = { 1: 499, 3: 400, 4: 504, 5: 404, 6: 409, 7: 403, 8: 413, 9: 400, 10: 409, 11: 400, 12: 501, 14: 503, 16: 401 };
const ALT_STATUS: Record<number, number> = { 1: 499, 3: 422, 4: 504, 5: 404, 6: 409, 7: 403, 8: 429, 9: 412, 10: 409, 11: 422, 12: 501, 14: 502, 16: 401 };

function send(res: ServerResponse, httpStatus: number, headers: Record<string, string>, body: string | Buffer): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(httpStatus, { ...headers, ...(on('cors') ? CORS : {}), 'Content-Length': String(Buffer.byteLength(body)) });
  res.end(body);
}

function sendError(res: ServerResponse, code: number, message: string, httpStatus?: number, headers: Record<string, string> = {}): void {
  if (on('errors-alt')) {
    const http = httpStatus === 400 ? 422 : (httpStatus ?? ALT_STATUS[code] ?? 500);
    const problem = { type: `https://errors.example/grpc/${codeName(code).toLowerCase()}`, title: codeName(code), status: http, detail: message };
    send(res, http, { ...headers, 'Content-Type': 'application/problem+json' }, JSON.stringify(problem));
    return;
  }
  const http = httpStatus ?? PLAIN_STATUS[code] ?? 500;
  send(res, http, { ...headers, 'Content-Type': 'application/json' }, JSON.stringify({ error: { code: codeName(code), message } }));
}

const MAX_BODY = 72 * 2 ** 20;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY) throw new BodyError(413, `the body is over ${MAX_BODY} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new BodyError(413, `the body is over ${MAX_BODY} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

async function forward(route: Route, req: IncomingMessage, res: ServerResponse, query: URLSearchParams): Promise<void> {
  const gone = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  try {
    const body = route.method === 'POST' ? await readBody(req) : Buffer.alloc(0);
    const request = await bodies.decode(route.name, route.rpc.input, { contentType: String(req.headers['content-type'] ?? ''), body, query });
    if (on('slow')) await sleep(300);
    const response = await callService(route, request, gone.signal);
    if (on('slow')) await sleep(300);
    const answer = bodies.encode(route.name, route.rpc.output, response);
    send(res, on('created-201') && route.method === 'POST' ? 201 : 200, answer.headers, answer.body);
  } catch (err) {
    if (gone.signal.aborted) return;
    if (err instanceof BodyError) {
      const code = err.httpStatus === 413 ? status.RESOURCE_EXHAUSTED : status.INVALID_ARGUMENT;
      sendError(res, code, err.message, err.httpStatus, err.httpStatus === 413 ? { Connection: 'close' } : {});
    } else if (typeof (err as ServiceError).code === 'number') sendError(res, (err as ServiceError).code, (err as ServiceError).details);
    else sendError(res, status.INTERNAL, 'the gateway failed');
  }
}

// ---------------------------------------------------------------- the page

const HERE = fileURLToPath(new URL('.', import.meta.url));
const PAGE = readFileSync(`${HERE}variant-web-page.html`, 'utf8').replace('data-design="proto"', `data-design="${design}"`);
const PAGE_SCRIPT = readFileSync(`${HERE}variant-web-page.js`, 'utf8');
const referencePage = sirv(fileURLToPath(new URL('../../../reference/translate-web/public', import.meta.url)));

function page(path: string, req: IncomingMessage, res: ServerResponse): void {
  if (!on('page-alt')) {
    referencePage(req, res, () => sendError(res, status.NOT_FOUND, `nothing at ${path}`));
    return;
  }
  if (path === '/' || path === '/index.html') send(res, 200, { 'Content-Type': 'text/html; charset=utf-8' }, PAGE);
  else if (path === '/client.js') send(res, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }, PAGE_SCRIPT);
  else sendError(res, status.NOT_FOUND, `nothing at ${path}`);
}

// ---------------------------------------------------------------- serving

function extra(path: string, req: IncomingMessage, res: ServerResponse, query: URLSearchParams): boolean {
  if (!on('extra-routes')) return false;
  if (path === '/healthz') send(res, 200, { 'Content-Type': 'text/plain' }, 'ok\n');
  else if (path === '/api/languages') send(res, 200, { 'Content-Type': 'application/json' }, JSON.stringify(['en', 'es', 'de', 'fr', 'ru']));
  else if (path === '/api/detect' && req.method === 'GET') {
    const detect = ROUTES.get('/api/detect')!;
    const text = query.get('text') ?? '';
    const incoming =
      design === 'rest'
        ? { contentType: 'application/x-www-form-urlencoded', body: Buffer.from(new URLSearchParams({ q: text }).toString()), query }
        : { contentType: 'application/json', body: Buffer.from(JSON.stringify({ text })), query };
    void (async () => {
      const request = await bodies.decode('detect', detect.rpc.input, incoming);
      const response = await callService(detect, request, new AbortController().signal);
      const answer = bodies.encode('detect', detect.rpc.output, response);
      send(res, 200, answer.headers, answer.body);
    })().catch((err: ServiceError) => sendError(res, err.code ?? status.INTERNAL, err.details ?? String(err)));
  } else return false;
  return true;
}

const server = createServer((req, res) => {
  const started = Date.now();
  const url = new URL(req.url ?? '/', 'http://gateway');
  if (on('banner')) res.once('finish', () => out(`${new Date().toISOString()} ${req.method} ${url.pathname} ${res.statusCode} ${Date.now() - started}ms`));
  if (on('cors') && req.method === 'OPTIONS') {
    send(res, 204, { 'Access-Control-Max-Age': '600' }, '');
    return;
  }
  if (extra(url.pathname, req, res, url.searchParams)) return;
  const route = ROUTES.get(url.pathname);
  if (route && req.method === route.method) void forward(route, req, res, url.searchParams);
  else if (route) sendError(res, status.UNIMPLEMENTED, `${url.pathname} takes ${route.method}`, 405, { Allow: route.method });
  else if (url.pathname.startsWith('/api/')) sendError(res, status.NOT_FOUND, `no route ${url.pathname}`);
  else page(url.pathname, req, res);
});

// The start-up probe comes before listening: once the port is open, the calls the service sees are the
// requests'.
if (on('startup-probe')) {
  const path = `/${TranslateService.typeName}/${M.getCapabilities.name}`;
  await unary(path, Buffer.alloc(0), (b) => fromBinary(M.getCapabilities.output, b), 2_000).then(
    (caps) => process.stderr.write(`variant gateway: service up, models ${caps.availableModels.join(', ')}\n`),
    (err: ServiceError) => process.stderr.write(`variant gateway: service not reachable yet: ${err.details}\n`),
  );
}

server.listen(PORT, () => {
  const { port } = server.address() as { port: number };
  if (on('banner')) {
    out('=====================================');
    out(' Variant translation web gateway');
    out(` variants: ${[...variants].join(', ')}`);
    out(` HTTP port ${port} -> gRPC ${GRPC_TARGET}`);
    out('=====================================');
  } else out(`listening on http://127.0.0.1:${port}`);
});

if (!on('no-sigterm')) {
  const stop = (): void => {
    server.close();
    server.closeAllConnections();
    client.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
