// Hop-by-hop headers stay on their hop whatever their case, with the names Connection lists; the client is
// added to X-Forwarded-For; the rest passes with its names as written.
import type { IncomingMessage } from 'node:http';
import test from 'ava';
import { clientResponseHeaders, headerObject, upstreamRequestHeaders } from './forward-headers.ts';

function request(rawHeaders: string[]): IncomingMessage {
  return { rawHeaders, headers: headerObject(rawHeaders) } as unknown as IncomingMessage;
}

test('request: hop-by-hop and Connection-named headers are dropped in any case; X-Forwarded-* are the gateway\'s', (t) => {
  const out = upstreamRequestHeaders(
    request(['Host', 'a.example', 'CONNECTION', 'X-Trace, keep-alive', 'X-TRACE', '1', 'Keep-Alive', 'timeout=5', 'TE', 'trailers', 'X-Forwarded-For', '10.0.0.1', 'x-forwarded-proto', 'ftp', 'Accept', '*/*', 'Upgrade', 'h2c']),
    '127.0.0.1',
    'http',
  );
  t.deepEqual(out, ['Host', 'a.example', 'Accept', '*/*', 'x-forwarded-for', '10.0.0.1, 127.0.0.1', 'x-forwarded-proto', 'http', 'x-forwarded-host', 'a.example']);
});

test('response: hop-by-hop and Connection-named headers are dropped in any case; names keep their case', (t) => {
  const out = clientResponseHeaders(['Content-Type', 'text/plain', 'Connection', 'keep-alive, X-Hop', 'x-hop', '1', 'Keep-Alive', 'timeout=5', 'Transfer-Encoding', 'chunked', 'Set-Cookie', 'a=1', 'Set-Cookie', 'b=2']);
  t.deepEqual(out, ['Content-Type', 'text/plain', 'Set-Cookie', 'a=1', 'Set-Cookie', 'b=2']);
  t.deepEqual(headerObject(out), { 'content-type': 'text/plain', 'set-cookie': ['a=1', 'b=2'] });
});
