// Upstream servers the suite runs behind the gateway, recording what reaches them: which upstream got each
// request, in what order (one sequence over all upstreams of the worker), with what headers. A case sets how
// they answer (status, delay, headers), kills one (connections refused) and brings it back on the same port.
// Requests to the health-check path are kept apart as probes. A request is told by the tail of its path (its last
// segment and query, unique per request: traffic.ts freshPath), which a gateway keeps whether it forwards the
// path unchanged or without the route's prefix (catalog gateway/data-plane/route-prefix-matching).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { type CaseContext, listenOnFreePort, releasePorts } from '../harness/index.ts';
import { perFile } from '../harness/per-file.ts';

/** The health-check path the suite's setups configure. */
export const PROBE_PATH = '/probe';

/** The part of a request path every forwarding keeps, with or without the route prefix: from the last `/` before
 * the query on (`/c/r-1a2b?v=1` → `/r-1a2b?v=1`). */
export function pathTail(path: string): string {
  const query = path.indexOf('?');
  const end = query < 0 ? path.length : query;
  return path.slice(path.lastIndexOf('/', end - 1));
}

/** Whether `url`, as an upstream received it, is the request sent as `path` (the same tail, prefix kept or not). */
export const sentAs = (url: string, path: string): boolean => url.endsWith(pathTail(path));

export interface Received {
  /** Order of arrival over every upstream of this worker. */
  seq: number;
  at: number;
  upstream: string;
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Answer once this settles (a case holds a request at the upstream for as long as it looks). */
  until?: Promise<unknown>;
}

export interface Upstream {
  name: string;
  url: string;
  port: number;
  /** Requests other than probes, in order. */
  received: Received[];
  probes: Received[];
  /** How requests (other than probes) are answered; default 200 with a JSON echo. */
  answer: (req: Received) => Answer;
  /** How probes are answered; default 200. */
  probeAnswer: (req: Received) => Answer;
  /** Requests of `received` that were sent to the gateway as `path` (told by its tail: sentAs). */
  got(path: string): Received[];
  /** Stops listening and drops every connection: the port refuses connections. */
  kill(): Promise<void>;
  /** Listens again on the same port. */
  restart(): Promise<void>;
  readonly alive: boolean;
  close(): Promise<void>;
}

let sequence = 0;

const echo = (req: Received): Answer => ({ body: JSON.stringify({ upstream: req.upstream, method: req.method, url: req.url, headers: req.headers }) });

async function listen(server: Server, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Starts a recording upstream named `name` (not tied to a case: close it yourself, or use startUpstream). */
export async function recordingUpstream(name: string): Promise<Upstream> {
  const sockets = new Set<Socket>();
  let alive = true;
  const up: Upstream = {
    name,
    url: '',
    port: 0,
    received: [],
    probes: [],
    answer: echo,
    probeAnswer: () => ({ body: '{"status":"ok"}' }),
    got: (path) => up.received.filter((r) => sentAs(r.url, path)),
    kill: async () => {
      alive = false;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
    restart: async () => {
      await listen(server, up.port);
      alive = true;
    },
    get alive() {
      return alive;
    },
    close: async () => {
      if (alive) await up.kill();
      releasePorts([up.port]);
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const r: Received = {
        seq: ++sequence,
        at: Date.now(),
        upstream: name,
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const probe = r.url === PROBE_PATH || r.url.startsWith(`${PROBE_PATH}?`);
      (probe ? up.probes : up.received).push(r);
      const a = (probe ? up.probeAnswer : up.answer)(r);
      const send = (): void => {
        if (res.destroyed) return;
        res.writeHead(a.status ?? 200, { 'content-type': 'application/json', 'x-upstream': name, ...a.headers });
        res.end(a.body ?? echo(r).body);
      };
      if (a.until) void a.until.finally(send);
      else if (a.delayMs) setTimeout(send, a.delayMs).unref();
      else send();
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  server.keepAliveTimeout = 30_000;
  up.port = await listenOnFreePort(server);
  up.url = `http://127.0.0.1:${up.port}`;
  server.unref();
  return up;
}

/** Upstreams of the case, closed when it ends. */
export async function startUpstreams(c: CaseContext, ...names: string[]): Promise<Upstream[]> {
  const ups = await Promise.all(names.map((n) => recordingUpstream(n)));
  for (const up of ups) c.defer(() => up.close());
  c.note(`# upstreams: ${ups.map((u) => `${u.name}=${u.url}`).join(' ')}`);
  return ups;
}

const shared = perFile<Upstream[]>((ups) => Promise.all(ups.map((u) => u.close())));

/** Upstreams of the test file, started once under `key` (for a shared gateway). */
export function sharedUpstreams(key: string, ...names: string[]): Promise<Upstream[]> {
  return shared(key, () => Promise.all(names.map((n) => recordingUpstream(n))));
}

/** A loopback port nothing listens on (claimed, so no case binds it meanwhile): an unreachable upstream. */
export async function deadUpstream(c: CaseContext): Promise<string> {
  const up = await recordingUpstream('dead');
  await up.kill();
  c.defer(() => up.close());
  return up.url;
}

let spare = 0;

/** A target URL of a host that answers nothing (TEST-NET-1), different at each call: for targets a case
 * adds and removes without sending traffic to them. */
export function spareUrl(): string {
  spare++;
  return `http://192.0.2.${(spare % 250) + 1}:${8000 + spare}`;
}
