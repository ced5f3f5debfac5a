// The proxy on a real loopback upstream that records what reaches it: dot segments resolved before a rule is
// matched (and the resolved path forwarded), hop-by-hop headers dropped both ways, the client's connection kept
// or closed as the client asked, whatever the upstream's Connection says; bodies streamed both ways, 502 on a
// failure before the answer, a cut connection after it, slow upstreams waited for, upstream connections kept
// alive and freed when the client goes away.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { serve } from '../site/serve-for-tests.ts';
import { createProxy, removeDotSegments } from './proxy.ts';

interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
}

async function setup(t: { teardown(fn: () => Promise<void> | void): void }): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const upstream = createServer((req, res) => {
    seen.push({ url: req.url!, headers: req.headers });
    // Hop-by-hop answer headers of the upstream's own connection, and one its Connection names.
    res.writeHead(200, { Connection: 'keep-alive, X-Hop', 'Keep-Alive': 'timeout=77', 'X-Hop': 'upstream only', 'X-End': 'kept' });
    res.end('upstream');
  });
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  const target = new URL(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
  const proxy = await createProxy([{ prefix: '/api', targets: [{ href: target.href, url: target }] }]);
  const front = await serve(proxy.handler);
  t.teardown(async () => {
    await front.close();
    await proxy.close();
    upstream.closeAllConnections();
    await new Promise((done) => upstream.close(done));
  });
  return { url: front.url, seen };
}

/** A raw request: the path as written (a URL string would have its dot segments resolved by the client), and
 * any header (fetch refuses Connection, Upgrade and the like); resolves with the status and headers. */
function send(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, headers, method, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

const get = async (base: string, path: string, headers: Record<string, string> = {}): Promise<number> => (await send(base, path, headers)).status;

test('removeDotSegments: RFC 3986 examples, encoded dots, empty segments kept', (t) => {
  const cases: [string, string][] = [
    ['/a/b/c/./../../g', '/a/g'],
    ['/api/../cgi-bin/env.sh', '/cgi-bin/env.sh'],
    ['/api/%2e%2E/secret', '/secret'],
    ['/a/b/..', '/a/'],
    ['/..', '/'],
    ['/a//b/./c', '/a//b/c'],
    ['/a/.b/..c', '/a/.b/..c'],
    ['/plain/path', '/plain/path'],
  ];
  for (const [path, expected] of cases) {
    t.is(removeDotSegments(path), expected, path);
  }
});

test('a path that leaves the prefix through dot segments is not forwarded under it', async (t) => {
  const { url, seen } = await setup(t);
  t.is(await get(url, '/api/../cgi-bin/env.sh'), 404);
  t.is(await get(url, '/api/%2e%2e/secret?x=1'), 404);
  t.deepEqual(seen, []);
});

test('dot segments within the prefix are resolved, and the resolved path is forwarded with its query', async (t) => {
  const { url, seen } = await setup(t);
  t.is(await get(url, '/api/./a/../b?q=1'), 200);
  t.is(await get(url, '/x/../api/c'), 200);
  t.deepEqual(
    seen.map((s) => s.url),
    ['/api/b?q=1', '/api/c'],
  );
});

test('hop-by-hop request headers, and those Connection names, are not forwarded; end-to-end ones are', async (t) => {
  const { url, seen } = await setup(t);
  const status = await get(url, '/api/h', {
    Connection: 'keep-alive, X-Secret, X-Forwarded-For',
    'X-Secret': 'for the proxy only',
    'X-Forwarded-For': '203.0.113.66',
    'Keep-Alive': 'timeout=5',
    Upgrade: 'h2c',
    'HTTP2-Settings': 'AAMAAABkAARAAAAAAAIAAAAA',
    'Proxy-Connection': 'keep-alive',
    TE: 'trailers',
    'X-Kept': 'yes',
  });
  t.is(status, 200);
  const headers = seen[0]!.headers;
  for (const name of ['x-secret', 'keep-alive', 'upgrade', 'http2-settings', 'proxy-connection', 'te']) t.is(headers[name], undefined, name);
  t.not(headers.connection, 'keep-alive, X-Secret, X-Forwarded-For');
  // The client's X-Forwarded-For was named hop-by-hop: only the proxy's own entry remains.
  t.is(headers['x-forwarded-for'], '127.0.0.1');
  t.is(headers['x-kept'], 'yes');
});

test("the upstream's hop-by-hop answer headers are not relayed; the client's connection goes as the client asked", async (t) => {
  const { url } = await setup(t);
  for (const [asked, expected] of [
    ['close', 'close'],
    ['keep-alive', 'keep-alive'],
  ] as const) {
    const { status, headers } = await send(url, '/api/answer', { Connection: asked });
    t.is(status, 200);
    t.is(headers.connection, expected, `Connection: ${asked}`);
    t.is(headers['x-hop'], undefined);
    t.not(headers['keep-alive'], 'timeout=77');
    t.is(headers['x-end'], 'kept');
  }
});

type UpstreamHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** An upstream answering with `answer`, the proxy sending `/api` to it (after a step that sets X-Site, as the
 * custom headers step does), and the upstream's connection count. */
async function proxied(t: { teardown(fn: () => Promise<void> | void): void }, answer: UpstreamHandler): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const upstream = createServer(answer);
  upstream.on('connection', () => connections++);
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  const target = new URL(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
  const proxy = await createProxy([{ prefix: '/api', targets: [{ href: target.href, url: target }] }]);
  const front = await serve((req, res, next) => {
    res.setHeader('X-Site', 'conform');
    proxy.handler(req, res, next);
  });
  t.teardown(async () => {
    await front.close();
    await proxy.close();
    upstream.closeAllConnections();
    await new Promise((done) => upstream.close(done));
  });
  return { url: front.url, connections: () => connections };
}

/** Rejects after `ms`: a bound on what a test waits for. */
const within = <T>(ms: number, promise: Promise<T>, what: string): Promise<T> =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms).unref())]);

test('request bodies are streamed: the upstream has the first part before the client sends the rest', async (t) => {
  let firstPart!: () => void;
  const arrived = new Promise<void>((done) => {
    firstPart = done;
  });
  const { url } = await proxied(t, (req, res) => {
    const chunks: Buffer[] = [];
    req.once('data', () => firstPart());
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => res.end(Buffer.concat(chunks)));
  });
  const { hostname, port } = new URL(url);
  const req = request({ hostname, port, path: '/api/upload', method: 'POST', agent: false });
  const answer = new Promise<string>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
  });
  req.write('first part, ');
  await within(5000, arrived, 'the first part upstream');
  req.end('then the rest');
  t.is(await within(5000, answer, 'the answer'), 'first part, then the rest');
});

test('a large body goes up and comes back whole', async (t) => {
  const { url } = await proxied(t, (req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    req.pipe(res);
  });
  const body = randomBytes(8 * 1024 * 1024);
  const res = await fetch(`${url}/api/echo`, { method: 'PUT', body });
  const back = Buffer.from(await res.arrayBuffer());
  t.is(res.status, 200);
  t.is(back.length, body.length);
  t.true(back.equals(body));
});

test("an upstream dying mid-body cuts the client's connection: the client never sees a complete answer", async (t) => {
  const { url } = await proxied(t, (_req, res) => {
    res.writeHead(200, { 'content-length': '100' });
    res.write('partial');
    setTimeout(() => res.socket?.destroy(), 50);
  });
  const { hostname, port } = new URL(url);
  const outcome = await within(
    5000,
    new Promise<{ status: number; complete: boolean; body: string }>((resolve, reject) => {
      const req = request({ hostname, port, path: '/api/die', agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('error', () => {});
        res.on('close', () => resolve({ status: res.statusCode!, complete: res.complete, body }));
      });
      req.on('error', reject);
      req.end();
    }),
    'the cut',
  );
  t.deepEqual(outcome, { status: 200, complete: false, body: 'partial' });
});

test('any upstream failure before an answer is a 502 Bad Gateway', async (t) => {
  const { url } = await proxied(t, (req) => req.socket.destroy());
  const res = await fetch(`${url}/api/x`);
  t.is(res.status, 502);
  t.is(await res.text(), 'Bad Gateway');

  const [dead] = await new Promise<number[]>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve([port]));
    });
  });
  const target = new URL(`http://127.0.0.1:${dead}`);
  const proxy = await createProxy([{ prefix: '/', targets: [{ href: target.href, url: target }] }]);
  const front = await serve(proxy.handler);
  try {
    t.is((await fetch(`${front.url}/x`)).status, 502);
  } finally {
    await front.close();
    await proxy.close();
  }
});

test('a slow upstream is waited for', async (t) => {
  const { url } = await proxied(t, (_req, res) => {
    setTimeout(() => res.end('late'), 1500);
  });
  const res = await fetch(`${url}/api/slow`);
  t.is(await res.text(), 'late');
});

test('HEAD: the answer head is relayed, without a body', async (t) => {
  const { url } = await proxied(t, (req, res) => {
    res.writeHead(200, { 'content-length': '11', 'x-method': req.method });
    res.end(req.method === 'HEAD' ? undefined : 'hello world');
  });
  const { status, headers } = await send(url, '/api/h', {}, 'HEAD');
  t.is(status, 200);
  t.is(headers['x-method'], 'HEAD');
  t.is(headers['content-length'], '11');
});

test('a chunked answer is relayed in full; Set-Cookie lines stay apart beside the headers earlier steps set', async (t) => {
  const { url } = await proxied(t, (_req, res) => {
    res.writeHead(200, [['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2'], ['Content-Type', 'text/plain']].flat());
    res.write('one, ');
    setTimeout(() => res.end('two'), 20);
  });
  const res = await fetch(`${url}/api/chunks`);
  t.is(await res.text(), 'one, two');
  t.deepEqual(res.headers.getSetCookie(), ['a=1', 'b=2']);
  t.is(res.headers.get('x-site'), 'conform');
});

test('upstream connections are kept alive and reused', async (t) => {
  const { url, connections } = await proxied(t, (_req, res) => res.end('ok'));
  for (let i = 0; i < 5; i++) t.is(await (await fetch(`${url}/api/${i}`)).text(), 'ok');
  t.is(connections(), 1);
});

test('a client that goes away frees the upstream connection it was waiting on', async (t) => {
  let upstreamClosed!: () => void;
  const closed = new Promise<void>((done) => {
    upstreamClosed = done;
  });
  let received!: () => void;
  const waiting = new Promise<void>((done) => {
    received = done;
  });
  const { url } = await proxied(t, (req) => {
    req.socket.once('close', () => upstreamClosed());
    received();
  });
  const { hostname, port } = new URL(url);
  const req = request({ hostname, port, path: '/api/never', agent: false });
  req.on('error', () => {});
  req.end();
  await within(5000, waiting, 'the request upstream');
  req.destroy();
  await within(5000, closed, 'the upstream connection closed');
  t.pass();
});
