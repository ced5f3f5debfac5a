// The proxy's hygiene on a real loopback upstream that records what reaches it: dot segments resolved before a
// rule is matched (and the resolved path forwarded), hop-by-hop headers dropped both ways, and the client's
// connection kept or closed as the client asked, whatever the upstream's Connection says.
import { createServer, type IncomingHttpHeaders, request } from 'node:http';
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
    proxy.close();
    upstream.closeAllConnections();
    await new Promise((done) => upstream.close(done));
  });
  return { url: front.url, seen };
}

/** A raw request: the path as written (a URL string would have its dot segments resolved by the client), and
 * any header (fetch refuses Connection, Upgrade and the like); resolves with the status and headers. */
function send(base: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, headers, agent: false }, (res) => {
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
