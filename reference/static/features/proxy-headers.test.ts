// The headers each way, on requests and answers built by hand: what goes upstream (hop-by-hop ones dropped,
// Host and X-Forwarded-* as the proxy sent them on http-proxy, framing) and what goes back to the client.
import type { IncomingHttpHeaders } from 'node:http';
import test from 'ava';
import type { Request, Response } from '../site/handler.ts';
import { clientHeaders, upstreamHead } from './proxy-headers.ts';

const TARGET = 'upstream.test:8081';

function request(method: string, headers: IncomingHttpHeaders, options: { version?: string; tls?: boolean } = {}): Request {
  const [major, minor] = (options.version ?? '1.1').split('.').map(Number);
  return {
    method,
    headers,
    httpVersionMajor: major,
    httpVersionMinor: minor,
    socket: { remoteAddress: '192.0.2.7', encrypted: options.tls === true },
  } as unknown as Request;
}

/** The flat list as an object (repeated names as a list), for comparing without caring for order. */
function asObject(list: string[]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (let i = 0; i < list.length; i += 2) {
    const [name, value] = [list[i]!, list[i + 1]!];
    const before = out[name];
    out[name] = before === undefined ? value : [before, value].flat();
  }
  return out;
}

test('Host becomes the target; X-Forwarded-For/-Port/-Proto/-Host are added', (t) => {
  const head = upstreamHead(request('GET', { host: 'front.test:8080', accept: '*/*' }), TARGET);
  t.deepEqual(asObject(head.headers), {
    host: TARGET,
    accept: '*/*',
    'x-forwarded-for': '192.0.2.7',
    'x-forwarded-port': '8080',
    'x-forwarded-proto': 'http',
    'x-forwarded-host': 'front.test:8080',
  });
  t.is(head.body, 'none');
});

test("a client's X-Forwarded-* lists are extended (comma, no space); its X-Forwarded-Host is kept", (t) => {
  const head = upstreamHead(
    request('GET', {
      host: 'front.test',
      'x-forwarded-for': '203.0.113.1',
      'x-forwarded-port': '443',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'first.test',
    }, { tls: true }),
    TARGET,
  );
  const headers = asObject(head.headers);
  t.is(headers['x-forwarded-for'], '203.0.113.1,192.0.2.7');
  // No port in Host: the scheme's default.
  t.is(headers['x-forwarded-port'], '443,443');
  t.is(headers['x-forwarded-proto'], 'https,https');
  t.is(headers['x-forwarded-host'], 'first.test');
});

test('empty X-Forwarded-* values count as absent', (t) => {
  const headers = asObject(upstreamHead(request('GET', { host: 'front.test', 'x-forwarded-for': '', 'x-forwarded-host': '' }), TARGET).headers);
  t.is(headers['x-forwarded-for'], '192.0.2.7');
  t.is(headers['x-forwarded-host'], 'front.test');
});

test('hop-by-hop headers, Connection and the headers it names stay behind; framing headers it names do not', (t) => {
  const head = upstreamHead(
    request('POST', {
      host: 'front.test',
      connection: 'keep-alive, X-Secret, X-Forwarded-For, Content-Length, Host',
      'x-secret': 'for the proxy',
      'x-forwarded-for': '203.0.113.66',
      'keep-alive': 'timeout=5',
      'proxy-connection': 'keep-alive',
      te: 'trailers',
      upgrade: 'h2c',
      'http2-settings': 'AAMAAABkAARAAAAAAAIAAAAA',
      'content-length': '2',
      'x-kept': 'yes',
    }),
    TARGET,
  );
  const headers = asObject(head.headers);
  for (const name of ['connection', 'x-secret', 'keep-alive', 'proxy-connection', 'te', 'upgrade', 'http2-settings']) t.is(headers[name], undefined, name);
  t.is(headers['x-forwarded-for'], '192.0.2.7');
  t.is(headers['content-length'], '2');
  t.is(headers.host, TARGET);
  t.is(headers['x-kept'], 'yes');
  t.is(head.body, 'stream');
});

// Method, request headers -> the framing headers sent and whether the body is streamed.
const FRAMING: [method: string, headers: IncomingHttpHeaders, contentLength: string | undefined, body: 'none' | 'stream'][] = [
  ['GET', {}, undefined, 'none'],
  ['HEAD', {}, undefined, 'none'],
  ['POST', {}, '0', 'none'],
  ['PUT', { 'content-length': '0' }, '0', 'none'],
  ['PUT', { 'content-length': '5' }, '5', 'stream'],
  ['POST', { 'transfer-encoding': 'chunked' }, undefined, 'stream'],
  ['GET', { 'transfer-encoding': 'chunked' }, undefined, 'stream'],
  ['DELETE', {}, '0', 'none'],
  ['DELETE', { 'transfer-encoding': 'chunked' }, undefined, 'stream'],
  ['OPTIONS', { 'transfer-encoding': 'chunked' }, undefined, 'stream'],
  ['DELETE', { 'content-length': '3' }, '3', 'stream'],
  ['OPTIONS', {}, '0', 'none'],
  ['PURGE', {}, '0', 'none'],
];

for (const [method, extra, contentLength, body] of FRAMING) {
  test(`${method} ${JSON.stringify(extra)} goes with content-length ${contentLength} and body ${body}`, (t) => {
    const head = upstreamHead(request(method, { host: 'front.test', ...extra }), TARGET);
    const headers = asObject(head.headers);
    t.is(headers['content-length'], contentLength);
    // The upstream client frames a body without a length itself.
    t.is(headers['transfer-encoding'], undefined);
    t.is(head.body, body);
  });
}

test('an HTTP/1.0 request without Host gets the target Host and an empty X-Forwarded-Host', (t) => {
  const headers = asObject(upstreamHead(request('GET', {}, { version: '1.0' }), TARGET).headers);
  t.is(headers.host, TARGET);
  t.is(headers['x-forwarded-host'], '');
  t.is(headers['x-forwarded-port'], '80');
});

function response(shouldKeepAlive: boolean): Response {
  return { shouldKeepAlive } as Response;
}

test('answer headers: repeated lines joined as node:http joins them, hop-by-hop ones dropped', (t) => {
  const raw = [
    'Set-Cookie', 'a=1',
    'Set-Cookie', 'b=2',
    'X-Multi', 'one',
    'X-Multi', 'two',
    'Content-Type', 'text/a',
    'Content-Type', 'text/b',
    'Connection', 'keep-alive, X-Hop',
    'Keep-Alive', 'timeout=77',
    'X-Hop', 'upstream only',
    'Upgrade', 'h2c',
    'Content-Length', '3',
  ];
  t.deepEqual(clientHeaders(request('GET', {}), response(true), raw), {
    'set-cookie': ['a=1', 'b=2'],
    'x-multi': 'one, two',
    'content-type': 'text/a',
    connection: 'keep-alive',
    'content-length': '3',
  });
});

test("the client's connection is kept or closed as Node decided, whatever the upstream's Connection says", (t) => {
  t.is(clientHeaders(request('GET', {}), response(false), ['Connection', 'keep-alive']).connection, 'close');
  t.is(clientHeaders(request('GET', {}), response(true), ['Connection', 'close']).connection, 'keep-alive');
});

test('an HTTP/1.0 client gets no Transfer-Encoding and its own Connection back (close when it sent none)', (t) => {
  const raw = ['Transfer-Encoding', 'chunked', 'Trailer', 'X-T'];
  t.deepEqual(clientHeaders(request('GET', { connection: 'keep-alive' }, { version: '1.0' }), response(true), raw), { connection: 'keep-alive' });
  t.deepEqual(clientHeaders(request('GET', {}, { version: '1.0' }), response(false), raw), { connection: 'close' });
});

test('Trailer is relayed only on a chunked answer', (t) => {
  t.is(clientHeaders(request('GET', {}), response(true), ['Transfer-Encoding', 'chunked', 'Trailer', 'X-T']).trailer, 'X-T');
  t.is(clientHeaders(request('GET', {}), response(true), ['Content-Length', '2', 'Trailer', 'X-T']).trailer, undefined);
});
