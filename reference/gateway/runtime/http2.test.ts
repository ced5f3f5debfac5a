// HTTP/2 on a site's listener (`http2: true`): h2 by ALPN over TLS and by prior knowledge without, HTTP/1.1
// still served on the same port with its limits, requests and streamed bodies through the same pipeline,
// connection-specific headers kept off h2 answers, a graceful shutdown that sends GOAWAY to open sessions,
// and the client limits of the listener itself (short ones, on a bare listener).
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type OutgoingHttpHeaders, request as httpRequest } from 'node:http';
import { type ClientHttp2Session, type ClientHttp2Stream, connect as h2Connect } from 'node:http2';
import { type RequestOptions as HttpsOptions, request as httpsRequest } from 'node:https';
import { type AddressInfo, connect as netConnect, type Socket } from 'node:net';
import { join } from 'node:path';
import { type ConnectionOptions, connect as tlsConnect, type TLSSocket } from 'node:tls';
import test from 'ava';
import type { SiteConfig } from '../config/gateway-config.ts';
import { type ClientLimits, createHttp2Listener } from './http2-listener.ts';
import { ask, config, route, site, startGateway, startUpstream, until } from './test-support.ts';

const TLS_DIR = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'static', 'tls');
const TLS = { cert: join(TLS_DIR, 'self-signed.crt'), key: join(TLS_DIR, 'self-signed.key') };
const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
/** An empty SETTINGS frame: what a client sends after the preface. */
const EMPTY_SETTINGS = Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]);

const SCHEMES = [
  { name: 'TLS (ALPN h2)', secure: true, protocol: 'h2' },
  { name: 'cleartext (prior-knowledge h2c)', secure: false, protocol: 'h2c' },
] as const;

const h2Site = (secure: boolean, extra: Partial<SiteConfig>): SiteConfig => site({ http2: true, ...(secure ? { tls: TLS } : {}), ...extra });

async function h2Session(secure: boolean, port: number): Promise<ClientHttp2Session> {
  const session = h2Connect(`${secure ? 'https' : 'http'}://localhost:${port}`, { rejectUnauthorized: false });
  await once(session, 'connect');
  return session;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One h2 request; `chunks` are written one by one, each after `between` resolves. */
function h2Ask(session: ClientHttp2Session, headers: OutgoingHttpHeaders, chunks?: string[], between?: (i: number) => Promise<void>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const stream = session.request(headers, { endStream: chunks === undefined });
    let head: IncomingHttpHeaders = {};
    const body: Buffer[] = [];
    stream.on('response', (h) => {
      head = h;
    });
    stream.on('data', (chunk: Buffer) => body.push(chunk));
    stream.on('end', () => resolve({ status: Number(head[':status']), headers: head, body: Buffer.concat(body).toString() }));
    stream.on('error', reject);
    if (chunks === undefined) return;
    (async () => {
      for (const [i, chunk] of chunks.entries()) {
        await between?.(i);
        stream.write(chunk);
      }
      stream.end();
    })().catch(reject);
  });
}

/** An HTTP/1.1 request (over TLS: ALPN offering only http/1.1); `alpn` is what TLS chose (false: none). */
function h1Ask(secure: boolean, port: number, path: string, headers: Record<string, string> = {}): Promise<Answer & { version: string; alpn: TLSSocket['alpnProtocol'] | undefined }> {
  return new Promise((resolve, reject) => {
    const options = { host: '127.0.0.1', port, path, headers, agent: false as const };
    const answered = (res: import('node:http').IncomingMessage): void => {
      const body: Buffer[] = [];
      res.on('data', (chunk: Buffer) => body.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(body).toString(),
          version: res.httpVersion,
          alpn: (res.socket as Partial<TLSSocket>).alpnProtocol,
        }),
      );
    };
    const overTls: HttpsOptions & ConnectionOptions = { ...options, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] };
    const req = secure ? httpsRequest(overTls, answered) : httpRequest(options, answered);
    req.on('error', reject);
    req.end();
  });
}

/** The first bytes the port answers to `bytes` on a fresh connection. */
function firstReply(port: number, bytes: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = netConnect(port, '127.0.0.1', () => socket.write(bytes));
    socket.once('data', (chunk: Buffer) => {
      socket.destroy();
      resolve(chunk);
    });
    socket.once('error', reject);
  });
}

const kindOf = (reply: Buffer): string => {
  if (reply.length >= 9 && reply[3] === 0x04) return 'a SETTINGS frame';
  return reply.toString('latin1').startsWith('HTTP/1.1 ') ? 'an HTTP/1.1 answer' : `something else: ${JSON.stringify(reply.toString('latin1'))}`;
};

for (const { name, secure, protocol } of SCHEMES) {
  test(`${name}: an h2 client gets the upstream's answer; HTTP/1.1 on the same port still works, with its limits`, async (t) => {
    const up = await startUpstream('up', (_req, res) => res.writeHead(200, { 'x-upstream': 'yes', 'content-type': 'text/plain' }).end('from upstream'));
    const { gateway, port } = await startGateway(config([h2Site(secure, { host: 'localhost', routes: [route('/', [up.url])] })]));
    const session = await h2Session(secure, port);
    try {
      t.is(session.alpnProtocol, protocol);
      const answer = await h2Ask(session, { ':path': '/h2?q=1', cookie: 'a=1', Cookie: 'b=2' });
      t.is(answer.status, 200);
      t.is(answer.body, 'from upstream');
      t.is(answer.headers['x-upstream'], 'yes');
      t.is(answer.headers['content-type'], 'text/plain');
      const hit = up.traffic()[0]!;
      t.is(hit.url, '/h2?q=1');
      t.is(hit.headers.host, `localhost:${port}`, 'Host from :authority');
      t.is(hit.headers.cookie, 'a=1; b=2', 'split cookies joined for HTTP/1.1');
      t.is(hit.headers['x-forwarded-proto'], secure ? 'https' : 'http');
      t.deepEqual(Object.keys(hit.headers).filter((header) => header.startsWith(':')), [], 'no pseudo-headers upstream');

      const h1 = await h1Ask(secure, port, '/h1', { host: 'localhost' });
      t.is(h1.version, '1.1');
      t.is(h1.alpn, secure ? 'http/1.1' : undefined);
      t.is(h1.status, 200);
      t.is(h1.body, 'from upstream');
      t.is((await h1Ask(secure, port, '/big', { host: 'localhost', 'x-big': 'a'.repeat(20_000) })).status, 431);
    } finally {
      session.destroy();
      await gateway.shutdown();
      await up.close();
    }
  });

  test(`${name}: a graceful shutdown sends GOAWAY to open sessions, lets the request under way finish, then completes`, async (t) => {
    const held: Array<() => void> = [];
    const slow = await startUpstream('slow', (_req, res) => held.push(() => res.end('done')));
    const { gateway, port } = await startGateway(config([h2Site(secure, { routes: [route('/', [slow.url])] })]));
    const busy = await h2Session(secure, port);
    const idle = await h2Session(secure, port);
    try {
      const goaways = [once(busy, 'goaway'), once(idle, 'goaway')];
      const pending = h2Ask(busy, { ':path': '/' });
      await until(() => held.length === 1, 3000, 'the request to reach the upstream');
      let finished = false;
      const closing = gateway.shutdown().then(() => {
        finished = true;
      });
      await Promise.all(goaways);
      t.false(finished, 'waits for the request under way');
      held[0]!();
      t.is((await pending).body, 'done');
      await closing;
      t.true(finished);
    } finally {
      for (const release of held) release();
      busy.destroy();
      idle.destroy();
      await gateway.shutdown();
      await slow.close();
    }
  });
}

for (const [http2, expected] of [
  [true, 'a SETTINGS frame'],
  [false, 'an HTTP/1.1 answer'],
] as const) {
  test(`cleartext with http2 ${http2}: the prior-knowledge preface gets ${expected}`, async (t) => {
    const { gateway, port } = await startGateway(config([site({ http2, routes: [] })]));
    try {
      t.is(kindOf(await firstReply(port, Buffer.concat([PREFACE, EMPTY_SETTINGS]))), expected);
    } finally {
      await gateway.shutdown();
    }
  });
}

test('cleartext with http2 false: an h2 client gets no answer', async (t) => {
  const up = await startUpstream('up');
  const { gateway, port } = await startGateway(config([site({ routes: [route('/', [up.url])] })]));
  const session = h2Connect(`http://localhost:${port}`);
  session.on('error', () => {});
  try {
    await t.throwsAsync(h2Ask(session, { ':path': '/' }));
    t.is((await ask(port, '/')).body, 'up', 'HTTP/1.1 is served');
    t.deepEqual(up.traffic().map((hit) => hit.url), ['/']);
  } finally {
    session.destroy();
    await gateway.shutdown();
    await up.close();
  }
});

test('a POST body streams through over h2: chunked upstream without content-length, as declared with it', async (t) => {
  const received: string[] = [];
  const seen: IncomingHttpHeaders[] = [];
  const echo = createServer((req, res) => {
    seen.push(req.headers);
    const body: string[] = [];
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      received.push(chunk);
      body.push(chunk);
    });
    req.on('end', () => res.end(`${req.method} ${body.join('')}`));
  });
  echo.listen(0, '127.0.0.1');
  await once(echo, 'listening');
  const url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
  const { gateway, port } = await startGateway(config([h2Site(false, { routes: [route('/', [url])] })]));
  const session = await h2Session(false, port);
  try {
    // The second chunk is sent only once the upstream has the first: the body is not held by the gateway.
    const streamed = await h2Ask(session, { ':method': 'POST', ':path': '/up' }, ['first,', 'second'], (i) =>
      i === 0 ? Promise.resolve() : until(() => received.join('') === 'first,', 3000, 'the first chunk upstream'),
    );
    t.is(streamed.status, 200);
    t.is(streamed.body, 'POST first,second');
    t.is(seen[0]!['transfer-encoding'], 'chunked');
    t.is(seen[0]!['content-length'], undefined);

    const declared = await h2Ask(session, { ':method': 'PUT', ':path': '/up', 'content-length': '5' }, ['hello']);
    t.is(declared.body, 'PUT hello');
    t.is(seen[1]!['content-length'], '5');
    t.is(seen[1]!['transfer-encoding'], undefined);
  } finally {
    session.destroy();
    await gateway.shutdown();
    echo.closeAllConnections();
    echo.close();
  }
});

test("an answer's connection-specific headers are left out over h2 and kept over HTTP/1.1", async (t) => {
  const fallback = { status: 418, body: 'no route', headers: [['Keep-Alive', 'timeout=5'], ['Connection', 'close'], ['x-fallback', 'yes']] as [string, string][] };
  const { gateway, port } = await startGateway(config([h2Site(false, { routes: [], fallback })]));
  const session = await h2Session(false, port);
  try {
    const answer = await h2Ask(session, { ':path': '/nowhere' });
    t.is(answer.status, 418);
    t.is(answer.body, 'no route');
    t.is(answer.headers['x-fallback'], 'yes');
    t.deepEqual([answer.headers['keep-alive'], answer.headers.connection], [undefined, undefined]);
    const h1 = await h1Ask(false, port, '/nowhere');
    t.is(h1.status, 418);
    t.is(h1.headers['keep-alive'], 'timeout=5');
  } finally {
    session.destroy();
    await gateway.shutdown();
  }
});

/** Short limits for a bare listener (node:http checks its header and request timeouts only every 30 s, so
 * those of HTTP/1.1 are left out here). */
const SHORT: ClientLimits = { headersTimeoutMs: 200, requestTimeoutMs: 300, keepAliveTimeoutMs: 150, maxHeaderSize: 16 * 1024 };

async function bareListener(secure: boolean) {
  const server = createHttp2Listener({
    handler: (req, res) => {
      req.resume();
      req.on('end', () => res.end('ok'));
    },
    tls: secure ? { cert: readFileSync(TLS.cert), key: readFileSync(TLS.key), SNICallback: (_name, done) => done(null, undefined) } : undefined,
    http1: { keepAliveTimeout: SHORT.keepAliveTimeoutMs, maxHeaderSize: SHORT.maxHeaderSize },
    limits: SHORT,
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** Resolves true when `it` closes within 3 s, false otherwise. */
const closesSoon = (it: Socket | ClientHttp2Session | ClientHttp2Stream): Promise<boolean> =>
  Promise.race([once(it, 'close').then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 3000))]);

for (const { name, secure } of SCHEMES) {
  test(`${name}: an idle HTTP/1.1 keep-alive connection is closed after keepAliveTimeoutMs`, async (t) => {
    const { port, close } = await bareListener(secure);
    const socket = secure ? tlsConnect({ port, host: '127.0.0.1', rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] }) : netConnect(port, '127.0.0.1');
    try {
      socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      const [reply] = (await once(socket, 'data')) as [Buffer];
      t.true(reply.toString('latin1').startsWith('HTTP/1.1 200'));
      t.true(await closesSoon(socket));
    } finally {
      socket.destroy();
      close();
    }
  });

  test(`${name}: an h2 session without streams is closed (GOAWAY) after keepAliveTimeoutMs; a request body not all in within requestTimeoutMs is reset`, async (t) => {
    const { port, close } = await bareListener(secure);
    const session = await h2Session(secure, port);
    try {
      const stream = session.request({ ':method': 'POST', ':path': '/' }, { endStream: false });
      stream.write('never ended');
      stream.resume();
      t.true(await closesSoon(stream));
      t.is(stream.rstCode, 8, 'CANCEL');
      const goaway = once(session, 'goaway');
      t.true(await closesSoon(session));
      await goaway;
    } finally {
      session.destroy();
      close();
    }
  });
}

test('cleartext: a connection sending nothing is closed after headersTimeoutMs', async (t) => {
  const { port, close } = await bareListener(false);
  const socket = netConnect(port, '127.0.0.1');
  try {
    await once(socket, 'connect');
    t.true(await closesSoon(socket));
  } finally {
    socket.destroy();
    close();
  }
});

test('a body over limits.maxBodyBytes gets 413 over h2 and the session goes on serving', async (t) => {
  const up = await startUpstream('up');
  const filters = {
    requestTransform: undefined,
    responseTransform: undefined,
    securityHeaders: undefined,
    cors: undefined,
    maskErrors: undefined,
    limits: { maxBodyBytes: 4, upstreamTimeoutMs: undefined },
  };
  const { gateway, port } = await startGateway(config([h2Site(false, { routes: [route('/', [up.url])], filters })]));
  const session = await h2Session(false, port);
  try {
    const refused = await h2Ask(session, { ':method': 'POST', ':path': '/', 'content-length': '10' }, ['0123456789']);
    t.is(refused.status, 413);
    t.is(refused.headers.connection, undefined);
    t.is((await h2Ask(session, { ':path': '/after' })).body, 'up');
    t.deepEqual(up.traffic().map((hit) => hit.url), ['/after']);
  } finally {
    session.destroy();
    await gateway.shutdown();
    await up.close();
  }
});
