// The lingering close after an early answer: a client that sends its whole body before reading gets the answer
// and no reset; a client that stops sending is closed after the bound; a request whose body was read keeps its
// connection. Closing at once (node's own Connection: close) is shown to reset such a client.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import test from 'ava';
import { closeAfterAnswer } from './close-after-answer.ts';

const BODY_BYTES = 32 * 2 ** 20;
/** A bound on waiting for a connection that is stuck, not a speed check. */
const STUCK_MS = 15_000;

/** A server that answers 413 once 1 MB of the body arrived, with `extraHeaders(req)` added; `closed` resolves
 * when the server's side of its first connection is closed. */
async function earlyAnswering(
  t: import('ava').ExecutionContext,
  extraHeaders: (req: IncomingMessage) => Record<string, string>,
): Promise<{ port: number; closed: Promise<void> }> {
  let closedNow: () => void;
  const closed = new Promise<void>((resolve) => (closedNow = resolve));
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.socket.once('close', () => closedNow());
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size < 2 ** 20) return;
      req.off('data', onData).pause();
      res.writeHead(413, { 'Content-Type': 'application/json', 'Content-Length': 2, ...extraHeaders(req) });
      res.end('{}');
    };
    req.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return { port: (server.address() as { port: number }).port, closed };
}

/** Sends the head and `bodyBytes` of a BODY_BYTES body (going on after the server's half-close), then reads
 * until the connection ends. */
function sendThenRead(port: number, bodyBytes = BODY_BYTES): Promise<{ answer: string; error: string | undefined; written: number }> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    let answer = '';
    let error: string | undefined;
    let written = 0;
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', (err: NodeJS.ErrnoException) => (error = err.code ?? err.message));
    const stuck = setTimeout(() => socket.destroy(new Error('stuck')), STUCK_MS);
    socket.on('close', () => {
      clearTimeout(stuck);
      resolve({ answer, error, written });
    });
    socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${BODY_BYTES}\r\n\r\n`);
    const piece = Buffer.alloc(2 ** 20, 0x20);
    const more = (): void => {
      while (written < bodyBytes) {
        written += piece.length;
        if (!socket.write(piece)) return void socket.once('drain', more);
      }
      if (bodyBytes === BODY_BYTES) socket.end();
    };
    more();
  });
}

test('an early answer with a lingering close: the client sends its whole body, reads the answer, and is not reset', async (t) => {
  const { port } = await earlyAnswering(t, (req) => closeAfterAnswer(req));
  const { answer, error, written } = await sendThenRead(port);
  t.is(error, undefined);
  t.is(written, BODY_BYTES);
  t.regex(answer, /^HTTP\/1\.1 413 /);
  t.regex(answer, /\r\nconnection: close\r\n/i);
});

test('closing at once instead (Connection: close alone) resets a client still sending', async (t) => {
  const { port } = await earlyAnswering(t, () => ({ Connection: 'close' }));
  const { error } = await sendThenRead(port);
  t.true(error === 'EPIPE' || error === 'ECONNRESET', `error ${error}`);
});

test('a client that stops sending is closed once the lingering bound passes', async (t) => {
  const { port, closed } = await earlyAnswering(t, (req) => closeAfterAnswer(req, 200));
  // 4 MB of the 32 MB announced, then nothing: only the server's bound ends its side of the connection.
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  t.teardown(() => socket.destroy());
  socket.on('error', () => {});
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${BODY_BYTES}\r\n\r\n`);
  socket.write(Buffer.alloc(4 * 2 ** 20, 0x20));
  let stuck: NodeJS.Timeout | undefined;
  const closedInTime = await Promise.race([closed.then(() => true), new Promise<boolean>((resolve) => (stuck = setTimeout(resolve, STUCK_MS, false)))]);
  clearTimeout(stuck);
  t.true(closedInTime, `the server kept the connection over ${STUCK_MS} ms`);
  t.regex(answer, /^HTTP\/1\.1 413 /);
});

test('a request whose body was all read keeps its connection: no header is added', async (t) => {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end(JSON.stringify(closeAfterAnswer(req))));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const res = await fetch(`http://127.0.0.1:${(server.address() as { port: number }).port}/`, { method: 'POST', body: 'small' });
  t.is(await res.text(), '{}');
  t.not(res.headers.get('connection'), 'close');
});
