// The load-time choice of the response parser, and the plain-JavaScript fallback against Node's own parser
// on one table of answers: the same callbacks with the same arguments, fed whole and one byte at a time.
import test from 'ava';
import { JsResponseParser } from './js-response-parser.ts';
import { chooseParser, HTTPParser, type ResponseParserClass } from './response-parser.ts';

test("Node's own parser is the fast path on this Node (20, 22 and 24 all expose it)", (t) => {
  t.not(HTTPParser, JsResponseParser);
  t.is(chooseParser(), HTTPParser);
});

test('the plain-JavaScript parser is chosen when the internal module is missing or not in the shape expected', (t) => {
  const missing = () => {
    throw Object.assign(new Error("Cannot find module '_http_common'"), { code: 'MODULE_NOT_FOUND' });
  };
  t.is(chooseParser(missing), JsResponseParser);
  t.is(chooseParser(() => ({})), JsResponseParser);
  t.is(chooseParser(() => undefined), JsResponseParser);
  t.is(chooseParser(() => ({ HTTPParser: class {} })), JsResponseParser, 'a class without execute, consume and the callback slots');
});

interface Case {
  name: string;
  bytes: string;
  /** Answers to a HEAD request: the headers-complete callback asks to skip the body. */
  head?: boolean;
  /** The connection closes after the bytes. */
  eof?: boolean;
  /** The parse must fail. */
  fails?: boolean;
}

const CASES: Case[] = [
  { name: 'content-length', bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-Name: f\xfcnke #1\r\n\r\nhello' },
  { name: 'no reason phrase', bytes: 'HTTP/1.1 200 \r\nContent-Length: 0\r\n\r\n' },
  { name: 'chunked with extensions and trailers', bytes: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: x-t\r\n\r\n4;ext=1\r\nbody\r\nA\r\n0123456789\r\n0\r\nx-t: v\r\n\r\n' },
  { name: 'chunked without trailers, then a second answer', bytes: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\nno' },
  { name: 'interim answers before the final one', bytes: 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok' },
  { name: '204 and 304 have no body', bytes: 'HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 304 Not Modified\r\nETag: "x"\r\nContent-Length: 10\r\n\r\n' },
  { name: 'HEAD: the length is not read as a body', bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n', head: true },
  { name: 'no length: the body runs to the close', bytes: 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end', eof: true },
  { name: 'HTTP/1.0 kept alive when asked', bytes: 'HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 1\r\n\r\naHTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nb' },
  { name: 'Connection: close', bytes: 'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 4\r\n\r\ndone' },
  { name: 'bytes after an HTTP/1.0 answer not kept alive', bytes: 'HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\naHTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nb', fails: true },
  { name: 'bytes after an answer with Connection: close', bytes: 'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\na\r\nHTTP/1.1 200 OK\r\n\r\n', fails: true },
  { name: 'garbage', bytes: 'SMTP ready\r\n\r\n', fails: true },
  { name: 'garbage without a line end', bytes: 'SSH-2.0-OpenSSH', fails: true },
  { name: 'Content-Length beside Transfer-Encoding', bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', fails: true },
  { name: 'two Content-Length', bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd', fails: true },
  { name: 'a Content-Length that is not a number', bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 3x\r\n\r\nabc', fails: true },
  { name: 'a chunk size that is not hex', bytes: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', fails: true },
  { name: 'chunk data not followed by CRLF', bytes: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n', fails: true },
  { name: 'a header name with a space', bytes: 'HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n', fails: true },
  { name: 'headers beyond the size limit', bytes: `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(2048)}\r\n\r\n`, fails: true },
  { name: 'the close before the body is complete', bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial', eof: true, fails: true },
];

/** What `Parser` reports on `bytes`, fed in slices of `step` bytes: the callbacks, in order, and the error. */
function run(Parser: ResponseParserClass, c: Case, step: number): { events: string[]; failed: boolean } {
  const events: string[] = [];
  let body = '';
  const parser = new Parser();
  parser.initialize(Parser.RESPONSE, {}, 1024, 0);
  parser[Parser.kOnMessageBegin] = () => events.push('begin');
  parser[Parser.kOnHeaders] = (fields: string[]) => events.push(`trailers ${JSON.stringify(fields)}`);
  parser[Parser.kOnHeadersComplete] = (major: number, minor: number, headers: string[], _m: unknown, _u: unknown, status: number, reason: string, upgrade: boolean, keepAlive: boolean) => {
    events.push(`head ${major}.${minor} ${status} ${JSON.stringify(reason)} ${JSON.stringify(headers)} upgrade=${upgrade} keepAlive=${keepAlive}`);
    return c.head === true ? 1 : 0;
  };
  parser[Parser.kOnBody] = (chunk: Buffer) => {
    body += chunk.toString('latin1');
  };
  parser[Parser.kOnMessageComplete] = () => {
    events.push(`complete ${JSON.stringify(body)}`);
    body = '';
  };
  const data = Buffer.from(c.bytes, 'latin1');
  let failed = false;
  for (let at = 0; at < data.length && !failed; at += step) failed = parser.execute(data.subarray(at, at + step)) instanceof Error;
  if (!failed && c.eof === true) failed = parser.finish() instanceof Error;
  parser.close();
  return { events, failed };
}

const FEEDS = [
  ['whole', Number.MAX_SAFE_INTEGER],
  ['byte by byte', 1],
] as const;

for (const c of CASES.filter((c) => c.fails !== true)) {
  test(`the plain-JavaScript parser reports what Node's own does: ${c.name}`, (t) => {
    const native = run(HTTPParser, c, Number.MAX_SAFE_INTEGER);
    t.false(native.failed, 'the native parser accepts it');
    for (const [feed, step] of FEEDS) t.deepEqual(run(JsResponseParser, c, step), native, feed);
  });
}

// Before failing, the two may have reported different parts of the message: the failure is what counts.
for (const c of CASES.filter((c) => c.fails === true)) {
  test(`the plain-JavaScript parser refuses what Node's own does: ${c.name}`, (t) => {
    t.true(run(HTTPParser, c, Number.MAX_SAFE_INTEGER).failed, 'the native parser refuses it');
    for (const [feed, step] of FEEDS) t.true(run(JsResponseParser, c, step).failed, feed);
  });
}
