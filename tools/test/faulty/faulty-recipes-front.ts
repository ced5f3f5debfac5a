// The faulty recipe manager's front: a node:http server that forwards every request to the reference server
// (in the same process, on an internal port) and lets the rules of the faults in force change the request
// before it goes, answer it themselves, or change the reference's JSON answer before it is sent.
import { Agent, createServer, type IncomingHttpHeaders, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { RecipesFault } from './faulty-recipes-faults.ts';

export interface Exchange {
  readonly method: string;
  /** The path without its query; a rule may change it (the path forwarded). */
  path: string;
  /** A rule may change it (the query forwarded). */
  readonly query: URLSearchParams;
  /** The request headers (lower-case names); a rule may change them. */
  readonly headers: IncomingHttpHeaders;
  /** The whole request body (read only when a rule of the route asks for it, else undefined). */
  body: Buffer | undefined;
  /** What a rule's request step keeps for its answer step. */
  readonly kept: Map<RecipesFault, unknown>;
}

export interface Reply {
  status: number;
  /** JSON, or undefined for no body (or `raw`). */
  json?: unknown;
  /** A body of Content-Type `type`. */
  raw?: Buffer;
  type?: string;
}

export interface Rule {
  readonly fault: RecipesFault;
  /** The method, or undefined for any. */
  readonly method?: string;
  readonly path: RegExp;
  /** Reads the request body before `request` (small JSON bodies). */
  readonly body?: boolean;
  /** Before forwarding: change the exchange, or reply instead of the reference. */
  request?(x: Exchange): Reply | undefined | Promise<Reply | undefined>;
  /** The reference's answer, changed (JSON parsed; undefined when it has no body; not called for other types). */
  answer?(json: unknown, status: number, x: Exchange): unknown | Promise<unknown>;
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'content-length'];

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

function send(res: ServerResponse, reply: Reply, headers: Record<string, string | string[] | number> = {}): void {
  const body = reply.raw ?? Buffer.from(reply.json === undefined ? '' : JSON.stringify(reply.json));
  const type = reply.raw !== undefined ? reply.type : reply.json !== undefined ? 'application/json; charset=utf-8' : undefined;
  res.writeHead(reply.status, { ...headers, ...(type === undefined ? {} : { 'content-type': type }), 'content-length': body.length });
  res.end(body);
}

function fail(req: IncomingMessage, res: ServerResponse, err: unknown): void {
  process.stderr.write(`faulty front: ${req.method} ${req.url}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  if (!res.headersSent) send(res, { status: 500, json: { error: 'Internal server error' } });
  else res.destroy();
}

/** The front of the server listening on `socketPath`; `rules` may be filled in until `ready` resolves (requests
 * wait for it). */
export function startFront(rules: readonly Rule[], socketPath: string, ready: Promise<void>): Server {
  const agent = new Agent({ keepAlive: true });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    await ready;
    const url = new URL(req.url ?? '/', 'http://front');
    const x: Exchange = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: { ...req.headers }, body: undefined, kept: new Map() };
    const matching = rules.filter((r) => (r.method === undefined || r.method === x.method) && r.path.test(url.pathname));
    if (matching.some((r) => r.body)) x.body = await readAll(req);
    for (const rule of matching) {
      const reply = await rule.request?.(x);
      if (reply !== undefined) {
        if (x.body === undefined) req.resume();
        send(res, reply);
        return;
      }
    }
    const answering = matching.filter((r) => r.answer !== undefined);
    const headers = { ...x.headers };
    if (x.body !== undefined) {
      delete headers['transfer-encoding'];
      headers['content-length'] = String(x.body.length);
    }
    const search = x.query.toString();
    const upstream = request({ socketPath, method: x.method, path: `${x.path}${search ? `?${search}` : ''}`, headers, agent });
    upstream.on('response', (answer) => {
      respond(answer).catch((err: unknown) => fail(req, res, err));
    });
    const respond = async (answer: IncomingMessage): Promise<void> => {
      const type = answer.headers['content-type'] ?? '';
      if (answering.length === 0 || (type !== '' && !type.includes('json'))) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const text = (await readAll(answer)).toString('utf8');
      let json: unknown = text === '' ? undefined : JSON.parse(text);
      for (const rule of answering) json = await rule.answer!(json, answer.statusCode ?? 502, x);
      const kept = Object.fromEntries(Object.entries(answer.headers).filter(([k, v]) => !HOP_BY_HOP.includes(k) && v !== undefined)) as Record<string, string | string[]>;
      send(res, { status: answer.statusCode ?? 502, json }, kept);
    };
    upstream.on('error', (err) => {
      if (!res.headersSent) send(res, { status: 502, json: { error: `faulty front: ${err.message}` } });
      else res.destroy();
    });
    if (x.body !== undefined) upstream.end(x.body);
    else req.pipe(upstream);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => fail(req, res, err));
  });
  server.on('close', () => agent.destroy());
  return server;
}
