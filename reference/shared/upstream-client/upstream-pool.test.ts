// The upstream pool against real servers on loopback: node:http ones for the ordinary cases, raw TCP ones
// for answers node:http would not give (no length, garbage, a reset mid-body, an idle close). Every case
// runs twice: on the parser chosen at load time (Node's own) and on the plain-JavaScript fallback.
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import anyTest, { type ExecutionContext, type TestFn } from 'ava';
import { freePorts } from '../../../conformance/harness/free-ports.ts';
import { JsResponseParser } from './js-response-parser.ts';
import type { UpstreamController, UpstreamRequest } from './pooled-connection.ts';
import { HTTPParser, type ResponseParserClass } from './response-parser.ts';
import type { UpstreamError } from './upstream-error.ts';
import { type PoolLimits, UpstreamPool } from './upstream-pool.ts';

type Context = ExecutionContext<{ parser: ResponseParserClass }>;

const PARSERS = [
  ['', HTTPParser],
  [' [plain-JS parser]', JsResponseParser],
] as const;

/** Registers `run` once per parser; the pools it makes (poolFor) use that parser. */
function test(title: string, run: (t: Context) => Promise<void>): void {
  for (const [suffix, parser] of PARSERS) {
    (anyTest as TestFn<{ parser: ResponseParserClass }>)(title + suffix, (t) => {
      t.context.parser = parser;
      return run(t);
    });
  }
}

function poolFor(t: Context, origin: string, limits: PoolLimits): UpstreamPool {
  const pool = new UpstreamPool(origin, limits, t.context.parser);
  t.teardown(() => pool.destroy());
  return pool;
}

const LIMITS: PoolLimits = { connections: 8, keepAliveTimeoutMs: 10_000, connectTimeoutMs: 5_000, headersTimeoutMs: 30_000, bodyTimeoutMs: 30_000, maxHeaderSize: 16 * 1024 };

interface Outcome {
  status: number;
  headers: string[];
  body: Buffer;
  error: Error | undefined;
  /** Terminal callbacks (end or error) the handler got: exactly one is right. */
  endings: number;
}

/** Dispatches `request` and settles once the handler got its ending (and a moment more, to see a second). */
function exchange(pool: UpstreamPool, request: Partial<UpstreamRequest>, onData?: (c: UpstreamController, chunk: Buffer) => void): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = { status: 0, headers: [], body: Buffer.alloc(0), error: undefined, endings: 0 };
    const chunks: Buffer[] = [];
    const finish = () => {
      outcome.endings++;
      outcome.body = Buffer.concat(chunks);
      setTimeout(() => resolve(outcome), 20);
    };
    pool.dispatch(
      { method: 'GET', path: '/', headers: [], body: null, ...request },
      {
        onRequestStart() {},
        onResponseStart(_c, status, headers) {
          outcome.status = status;
          outcome.headers = headers;
        },
        onResponseData(c, chunk) {
          chunks.push(Buffer.from(chunk));
          onData?.(c, chunk);
        },
        onResponseEnd: finish,
        onResponseError(_c, error) {
          outcome.error = error;
          finish();
        },
      },
    );
  });
}

const sha = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

async function listen(t: ExecutionContext, server: ReturnType<typeof createServer> | ReturnType<typeof createTcpServer>): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => {
    if ('closeAllConnections' in server) server.closeAllConnections();
    server.close();
  });
  return (server.address() as AddressInfo).port;
}

/** A node:http upstream; counts the connections it accepted. */
async function httpUpstream(t: Context, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ pool: UpstreamPool; connections: () => number }> {
  const server = createServer(handler);
  let connections = 0;
  server.on('connection', () => connections++);
  const port = await listen(t, server);
  const pool = poolFor(t, `http://127.0.0.1:${port}`, LIMITS);
  return { pool, connections: () => connections };
}

/** A raw TCP upstream: `onRequest(socket, head)` per request head received. */
async function tcpUpstream(t: Context, onRequest: (socket: Socket, head: string, index: number) => void, limits: Partial<PoolLimits> = {}): Promise<UpstreamPool> {
  let index = 0;
  const server = createTcpServer((socket) => {
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      let end = buffered.indexOf('\r\n\r\n');
      while (end !== -1) {
        const head = buffered.slice(0, end);
        buffered = buffered.slice(end + 4);
        onRequest(socket, head, index++);
        end = buffered.indexOf('\r\n\r\n');
      }
    });
    socket.on('error', () => {});
  });
  const port = await listen(t, server);
  const pool = poolFor(t, `http://127.0.0.1:${port}`, { ...LIMITS, ...limits });
  return pool;
}

test('keep-alive: sequential requests share one connection; method, path and header bytes arrive as sent', async (t) => {
  const seen: string[] = [];
  const { pool, connections } = await httpUpstream(t, (req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.host}`);
    // node:http reads header values one character per byte: re-encoded as latin1, the bytes on the wire.
    res.end(Buffer.from(String(req.headers['x-name']), 'latin1'));
  });
  // A header value in the form node:http hands it over (UTF-8 bytes, one character each).
  const name = Buffer.from('fünke #1', 'utf8');
  for (const path of ['/a?x=1', '/b/%C3%BC']) {
    const out = await exchange(pool, { path, headers: ['X-Name', name.toString('latin1')] });
    t.is(out.status, 200);
    t.deepEqual(out.body, name);
    t.is(out.endings, 1);
  }
  t.is(connections(), 1);
  t.deepEqual(seen, ['GET /a?x=1', 'GET /b/%C3%BC'].map((line) => `${line} ${pool.host}`), 'the origin is the Host when the request names none');
});

test('request bodies: with a length sent as is, without one chunked; both arrive whole', async (t) => {
  const { pool } = await httpUpstream(t, async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    res.end(`${req.headers['transfer-encoding'] ?? 'length'} ${sha(Buffer.concat(chunks))}`);
  });
  const data = Buffer.alloc(4 * 2 ** 20, 'fünke#');
  const withLength = await exchange(pool, { method: 'POST', headers: ['content-length', String(data.length)], body: Readable.from([data.subarray(0, 1000), data.subarray(1000)]) });
  t.is(withLength.body.toString(), `length ${sha(data)}`);
  const chunked = await exchange(pool, { method: 'PUT', body: Readable.from([data.subarray(0, 7), data.subarray(7)]) });
  t.is(chunked.body.toString(), `chunked ${sha(data)}`);
});

test('large chunked answers arrive whole and in order; an answer the handler pauses stops, then resumes', async (t) => {
  const data = Buffer.from(Array.from({ length: 3 * 2 ** 20 }, (_, i) => i % 251));
  const { pool } = await httpUpstream(t, (_req, res) => {
    for (let at = 0; at < data.length; at += 65_536) res.write(data.subarray(at, at + 65_536));
    res.end();
  });
  const plain = await exchange(pool, {});
  t.is(sha(plain.body), sha(data));
  let paused = false;
  let received = 0;
  let whilePaused = -1;
  const slow = await exchange(pool, {}, (c, chunk) => {
    received += chunk.length;
    if (paused) return;
    paused = true;
    c.pause();
    // What had been read when the pause began has been handed over by the next turn; nothing comes after.
    setImmediate(() => {
      const before = received;
      setTimeout(() => {
        whilePaused = received - before;
        c.resume();
      }, 100);
    });
  });
  t.is(whilePaused, 0, 'no bytes arrive while the answer is paused');
  t.is(sha(slow.body), sha(data));
  t.is(slow.endings, 1);
});

test('HEAD, 204 and 304 answers have no body and leave the connection reusable', async (t) => {
  const { pool, connections } = await httpUpstream(t, (req, res) => {
    if (req.url === '/204') res.writeHead(204).end();
    else if (req.url === '/304') res.writeHead(304, { etag: '"x"' }).end();
    else res.writeHead(200, { 'content-length': 5 }).end(req.method === 'HEAD' ? undefined : 'hello');
  });
  const head = await exchange(pool, { method: 'HEAD' });
  t.is(head.status, 200);
  t.is(head.body.length, 0);
  t.is((await exchange(pool, { path: '/204' })).status, 204);
  t.is((await exchange(pool, { path: '/304' })).status, 304);
  t.is((await exchange(pool, {})).body.toString(), 'hello');
  t.is(connections(), 1);
});

test('trailers of an answer are not headers of the next answer on the connection', async (t) => {
  const { pool, connections } = await httpUpstream(t, (req, res) => {
    if (req.url === '/trailed') {
      res.writeHead(200, { 'transfer-encoding': 'chunked', trailer: 'x-t' });
      res.write('body');
      res.addTrailers({ 'x-t': 'v' });
      res.end();
    } else res.writeHead(200, { 'content-length': 4 }).end('next');
  });
  t.is((await exchange(pool, { path: '/trailed' })).body.toString(), 'body');
  const next = await exchange(pool, {});
  t.is(next.body.toString(), 'next');
  t.false(next.headers.some((h) => h.toLowerCase() === 'x-t'), next.headers.join(', '));
  t.is(connections(), 1);
});

test('an answer without a length runs to the connection close; Connection: close is not reused', async (t) => {
  let opened = 0;
  const pool = await tcpUpstream(t, (socket, _head, index) => {
    opened++;
    if (index === 0) socket.end('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end');
    else socket.end('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 4\r\n\r\ndone');
  });
  const untilClose = await exchange(pool, {});
  t.is(untilClose.body.toString(), 'until the end');
  t.is(untilClose.error, undefined);
  const closing = await exchange(pool, {});
  t.is(closing.body.toString(), 'done');
  t.is(opened, 2);
});

test('interim 1xx answers are skipped: the handler sees the final answer only', async (t) => {
  const pool = await tcpUpstream(t, (socket) => {
    socket.write('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n');
    socket.write('HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok');
  });
  const out = await exchange(pool, {});
  t.is(out.status, 201);
  t.deepEqual(out.headers, ['Content-Length', '2']);
  t.is(out.body.toString(), 'ok');
});

test('a reused connection the upstream closes as the next request arrives: the request is sent again on a fresh one', async (t) => {
  const perConnection = new Map<Socket, number>();
  const pool = await tcpUpstream(t, (socket) => {
    const served = perConnection.get(socket) ?? 0;
    perConnection.set(socket, served + 1);
    // An upstream closing an idle connection just as a request comes in: the request is lost unanswered.
    if (served > 0) socket.destroy();
    else socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
  });
  t.is((await exchange(pool, {})).body.toString(), 'ok');
  const again = await exchange(pool, {});
  t.is(again.error, undefined);
  t.is(again.body.toString(), 'ok');
  t.is(perConnection.size, 2);
  // With a body the request is not sent twice: the handler learns of the loss.
  const withBody = await exchange(pool, { method: 'POST', headers: ['content-length', '1'], body: Readable.from([Buffer.from('x')]) });
  t.is((withBody.error as UpstreamError | undefined)?.code, 'connection-lost');
});

test('failures reach the handler once, with their code: refused, garbage, oversized headers, reset mid-body', async (t) => {
  const [closedPort] = await freePorts(1);
  const refused = poolFor(t, `http://127.0.0.1:${closedPort}`, LIMITS);
  const out = await exchange(refused, {});
  t.is((out.error as UpstreamError).code, 'connection-lost');
  t.is(((out.error as UpstreamError).cause as { code?: string }).code, 'ECONNREFUSED');
  t.is(out.endings, 1);

  const pool = await tcpUpstream(t, (socket, head) => {
    if (head.startsWith('GET /garbage')) socket.end('SMTP ready\r\n\r\n');
    else if (head.startsWith('GET /huge')) socket.end(`HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(32 * 1024)}\r\n\r\n`);
    else socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial', () => socket.destroy());
  });
  for (const [path, code] of [['/garbage', 'bad-response'], ['/huge', 'bad-response'], ['/cut', 'connection-lost']] as const) {
    const failed = await exchange(pool, { path });
    t.is((failed.error as UpstreamError | undefined)?.code, code, path);
    t.is(failed.endings, 1, path);
  }
});

test('a header value holding CR or LF is refused before anything is sent', async (t) => {
  const heads: string[] = [];
  const pool = await tcpUpstream(t, (socket, head) => {
    heads.push(head);
    socket.end('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n');
  });
  const out = await exchange(pool, { headers: ['x-a', 'b\r\nx-injected: 1'] });
  t.is((out.error as UpstreamError).code, 'invalid-request');
  t.deepEqual(heads, []);
});

test('no answer in time: headers-timeout, and the pool goes on serving', async (t) => {
  const pool = await tcpUpstream(
    t,
    (socket, head) => {
      if (head.startsWith('GET /fast')) socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n');
    },
    { headersTimeoutMs: 200 },
  );
  const silent = await exchange(pool, { path: '/silent' });
  t.is((silent.error as UpstreamError).code, 'headers-timeout');
  t.is((await exchange(pool, { path: '/fast' })).status, 200);
});

test('beyond the connection limit requests wait their turn; all complete on that many connections', async (t) => {
  const { pool, connections } = await httpUpstream(t, (req, res) => setTimeout(() => res.end(req.url), 10));
  const small = poolFor(t, `http://${pool.host}`, { ...LIMITS, connections: 2 });
  const outs = await Promise.all(Array.from({ length: 7 }, (_, i) => exchange(small, { path: `/${i}` })));
  t.deepEqual(
    outs.map((o) => o.body.toString()),
    Array.from({ length: 7 }, (_, i) => `/${i}`),
  );
  t.is(connections(), 2);
});

test('abort mid-answer: the handler gets its reason once; the pool serves the next request', async (t) => {
  const { pool } = await httpUpstream(t, (req, res) => {
    if (req.url === '/endless') setInterval(() => res.write('x'.repeat(1000)), 5).unref();
    else res.end('next');
  });
  const reason = new Error('client left');
  const out = await exchange(pool, { path: '/endless' }, (c) => c.abort(reason));
  t.is(out.error, reason);
  t.is(out.endings, 1);
  t.is((await exchange(pool, {})).body.toString(), 'next');
});

test('request(): status, headers and the kept part of the body; headers sent; a timeout as an error', async (t) => {
  const pool = await tcpUpstream(t, (socket, head) => {
    if (head.startsWith('GET /health')) socket.write('HTTP/1.1 204 No Content\r\n\r\n');
    if (head.startsWith('GET /who')) {
      const body = `not ${/\r\nauthorization: ([^\r]*)/i.exec(head)?.[1]}!`;
      socket.write(`HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
    }
  });
  t.like(await pool.request('GET', '/health', 5_000), { status: 204, headers: [] });
  const who = await pool.request('GET', '/who', 5_000, ['Authorization', 'xyz'], 5);
  t.is(who.status, 401);
  t.deepEqual(who.headers.slice(0, 2), ['WWW-Authenticate', 'Basic']);
  t.is(who.body.toString(), 'not x', 'the body is cut at keepBody bytes');
  t.is((await pool.request('GET', '/who', 5_000, ['Authorization', 'ab'])).body.length, 0, 'keepBody 0: nothing kept');
  const error = await t.throwsAsync(pool.request('GET', '/stuck', 100));
  t.is((error as UpstreamError).code, 'headers-timeout');
});

test('close() lets the request under way finish; destroy() ends it with pool-destroyed', async (t) => {
  const { pool } = await httpUpstream(t, (req, res) => {
    if (req.url === '/slow') setTimeout(() => res.end('late'), 100);
    else res.write('begun');
  });
  const slow = exchange(pool, { path: '/slow' });
  await new Promise((r) => setTimeout(r, 20));
  await pool.close();
  t.is((await slow).body.toString(), 'late');

  const { pool: other } = await httpUpstream(t, (_req, res) => res.write('begun'));
  const hanging = exchange(other, {});
  await new Promise((r) => setTimeout(r, 50));
  await other.destroy();
  t.is(((await hanging).error as UpstreamError).code, 'pool-destroyed');
});

test('a finished exchange controls nothing: its late abort and pause leave the next request on the connection alone', async (t) => {
  const { pool, connections } = await httpUpstream(t, (req, res) => setTimeout(() => res.end(req.url), 30));
  let stale: UpstreamController | undefined;
  // The first exchange ends (its connection idle again) before the second is sent.
  await new Promise<void>((ended, failed) =>
    pool.dispatch(
      { method: 'GET', path: '/first', headers: [], body: null },
      { onRequestStart: (c) => (stale = c), onResponseStart() {}, onResponseData() {}, onResponseEnd: () => ended(), onResponseError: (_c, e) => failed(e) },
    ),
  );
  const next = exchange(pool, { path: '/second' });
  stale!.pause();
  stale!.abort(new Error('late'));
  const out = await next;
  t.is(out.error, undefined);
  t.is(out.body.toString(), '/second');
  t.is(connections(), 1);
});
