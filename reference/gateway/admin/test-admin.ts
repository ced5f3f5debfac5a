// Test support for the admin server's own tests: a GatewayRuntime that records every call and answers
// what the test sets (a test double of the interface, not of HTTP), a started admin server on a loopback
// port, and a raw HTTP call whose headers and body bytes are exactly those given.
import { request } from 'node:http';
import type { GatewayRuntime, RateLimitCounters, RouteEntry, StatusObject, UpstreamEntry } from '../runtime/gateway-runtime.ts';
import { createAdminServer } from './admin-server.ts';

export interface RuntimeCall {
  method: keyof GatewayRuntime;
  args: unknown[];
}

export const STATUS: StatusObject = {
  status: 'running',
  inflight: 0,
  retry_inflight: 0,
  sites: 1,
  configured_upstreams: 2,
  healthy_upstreams: 2,
  total_probed_upstreams: 0,
  config_path: '/etc/gateway/gateway.yaml',
};

export const UPSTREAM: UpstreamEntry = {
  url: 'http://127.0.0.1:9001',
  healthy: true,
  state: 'healthy',
  latency_ms: null,
  ewma_latency_ms: 0,
  consecutive_failures: 0,
  consecutive_successes: 0,
  consecutive_5xx: 0,
  active_connections: 0,
  ejected: false,
  responses: { '2xx': 0, '4xx': 0, '5xx': 0 },
  selected: { total: 0, last_secs: 0 },
};

export const ROUTE: RouteEntry = {
  site: '*:8080',
  path: '/api',
  strategy: 'round-robin',
  targets: [{ url: UPSTREAM.url, weight: 1, healthy: true, latency_ms: null, consecutive_failures: 0, consecutive_successes: 0 }],
};

export const COUNTERS: RateLimitCounters = { '*:8080': { '*': { passed: 3, rejected: 1 }, '/api': { passed: 2, rejected: 0 } } };

export interface RecordingRuntime {
  runtime: GatewayRuntime;
  calls: RuntimeCall[];
  /** What each method answers (a function of its arguments); a thrown error is thrown by the method. */
  answers: { [M in keyof GatewayRuntime]?: (...args: Parameters<GatewayRuntime[M]>) => unknown };
}

export function recordingRuntime(): RecordingRuntime {
  const calls: RuntimeCall[] = [];
  const answers: RecordingRuntime['answers'] = {};
  const defaults: { [M in keyof GatewayRuntime]: () => unknown } = {
    status: () => STATUS,
    upstreams: () => ({ upstreams: [UPSTREAM], routes: [ROUTE] }),
    addTarget: () => undefined,
    removeTarget: () => true,
    setWeight: () => undefined,
    reload: () => ({ warnings: [] }),
    purge: () => true,
    rateLimits: () => COUNTERS,
    denyAdd: () => undefined,
    denyRemove: () => undefined,
    certsReload: () => ({ certPath: '/etc/gateway/cert.pem', keyPath: '/etc/gateway/key.pem' }),
    shutdown: () => undefined,
  };
  const async = new Set<keyof GatewayRuntime>(['reload', 'certsReload', 'shutdown']);
  const runtime = Object.fromEntries(
    (Object.keys(defaults) as (keyof GatewayRuntime)[]).map((method) => [
      method,
      (...args: unknown[]) => {
        calls.push({ method, args });
        const answer = (answers[method] as ((...a: unknown[]) => unknown) | undefined) ?? defaults[method];
        if (!async.has(method)) return answer(...args);
        return new Promise((resolve) => resolve(answer(...args)));
      },
    ]),
  ) as unknown as GatewayRuntime;
  return { runtime, calls, answers };
}

export interface TestAdmin {
  url: string;
  port: number;
  shutdowns: number;
  close(): Promise<void>;
}

export async function startTestAdmin(runtime: GatewayRuntime, token: string | undefined, logs: string[] = []): Promise<TestAdmin> {
  const admin = createAdminServer(runtime, {
    host: '127.0.0.1',
    port: 0,
    token,
    onShutdown: () => {
      started.shutdowns += 1;
    },
    log: (line) => logs.push(line),
  });
  const { port } = await admin.listen();
  const started: TestAdmin = { url: `http://127.0.0.1:${port}`, port, shutdowns: 0, close: () => admin.close() };
  return started;
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
}

/** One request with exactly these headers and body bytes (no Content-Type added), on a fresh connection. */
export function call(
  port: number,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    // Content-Length always: node's client sends a DELETE body without length or chunking otherwise.
    const length = options.body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(options.body)) };
    const headers = { ...length, ...options.headers };
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    // A Buffer: a string body would be sent together with the headers in UTF-8, re-encoding latin1 header bytes.
    req.end(typeof options.body === 'string' ? Buffer.from(options.body, 'utf8') : options.body);
  });
}

/** A JSON body sent with `Content-Type: application/json` (and the token when given). */
export function callJson(port: number, method: string, path: string, body: unknown, token?: string): Promise<RawAnswer> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token !== undefined) headers['Authorization'] = `Bearer ${token}`;
  return call(port, method, path, { headers, body: JSON.stringify(body) });
}
