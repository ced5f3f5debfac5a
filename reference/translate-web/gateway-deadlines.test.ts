// Deadlines, cancellation and an unreachable service, against a fake backend that answers after a delay:
// each route's deadline as the service sees it, 504 as soon as a deadline passes, none when unset.
import { once } from 'node:events';
import { createServer } from 'node:net';
import { status } from '@grpc/grpc-js';
import test from 'ava';
import { type FakeBackend, startFakeBackend } from './fake-backend.ts';
import { UNREACHABLE_MESSAGE } from './grpc-forwarder.ts';
import { FIXED_DEADLINE_MS, ROUTES } from './routes.ts';
import { postJson, startGateway } from './test-gateway.ts';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

const withGateway = (backend: FakeBackend, env: Record<string, string>) => startGateway({ TRANSLATE_GRPC_URL: `127.0.0.1:${backend.port}`, ...env });

const call = (url: string, route: (typeof ROUTES)[number], init: RequestInit = {}) =>
  route.method === 'GET' ? fetch(url + route.path, init) : postJson(url + route.path, {}, init);

const CONFIGURED = { TRANSLATE_TIMEOUT_MS: '7000', LOCALIZE_TIMEOUT_MS: '8000', TRANSCRIBE_TIMEOUT_MS: '9000' };

test('each route carries its deadline: 30 s fixed, or its variable in ms', async (t) => {
  const backend = await startFakeBackend();
  const gateway = await withGateway(backend, CONFIGURED);
  t.teardown(async () => {
    await gateway.stop();
    await backend.stop();
  });
  for (const route of ROUTES) {
    const response = await call(gateway.url, route);
    t.is(response.status, 200, route.path);
    const expected = typeof route.deadline === 'number' ? FIXED_DEADLINE_MS : Number(CONFIGURED[route.deadline]);
    const { method, deadlineMs } = backend.calls.at(-1)!;
    t.is(method, route.rpc.name);
    // The deadline travels as grpc-timeout and is read back a few ms later.
    t.true(deadlineMs <= expected && deadlineMs > expected - 1_000, `${route.path}: ${deadlineMs} ms, expected ${expected}`);
  }
});

test('an unset (or empty) variable means no deadline on the configurable routes; the fixed ones keep 30 s', async (t) => {
  const backend = await startFakeBackend();
  const gateway = await withGateway(backend, { TRANSLATE_TIMEOUT_MS: '' });
  t.teardown(async () => {
    await gateway.stop();
    await backend.stop();
  });
  for (const route of ROUTES) {
    t.is((await call(gateway.url, route)).status, 200);
    const { deadlineMs } = backend.calls.at(-1)!;
    if (typeof route.deadline === 'number') t.true(deadlineMs > FIXED_DEADLINE_MS - 1_000, route.path);
    else t.is(deadlineMs, Number.POSITIVE_INFINITY, route.path);
  }
});

test('TRANSLATE_TIMEOUT_MS=200 with a slow service → 504 DEADLINE_EXCEEDED after about 200 ms, call cancelled', async (t) => {
  const backend = await startFakeBackend({ delayMs: 3_000 });
  const gateway = await withGateway(backend, { TRANSLATE_TIMEOUT_MS: '200' });
  t.teardown(async () => {
    await gateway.stop();
    await backend.stop();
  });
  const started = performance.now();
  const response = await postJson(`${gateway.url}/api/translate`, { text: 'slow' });
  const elapsed = performance.now() - started;
  t.is(response.status, 504);
  t.is(response.headers.get('content-type'), 'application/json');
  const { error } = await response.json();
  t.is(error.code, 'DEADLINE_EXCEEDED');
  t.regex(error.message, /deadline/i);
  t.true(elapsed >= 190 && elapsed < 1_000, `${Math.round(elapsed)} ms`);
  t.log(`504 after ${Math.round(elapsed)} ms`);
  t.true(await backend.calls[0]!.cancelled, 'the service saw the call cancelled');
});

test('no deadline: the gateway waits for a slow service and answers 200', async (t) => {
  const backend = await startFakeBackend({ delayMs: 1_500 });
  const gateway = await withGateway(backend, {});
  t.teardown(async () => {
    await gateway.stop();
    await backend.stop();
  });
  const started = performance.now();
  const response = await postJson(`${gateway.url}/api/translate`, { text: 'slow' });
  const elapsed = performance.now() - started;
  t.is(response.status, 200);
  t.is((await response.json()).translatedText, 'slow answer');
  t.true(elapsed >= 1_450, `${Math.round(elapsed)} ms`);
  t.log(`200 after ${Math.round(elapsed)} ms`);
});

test('a client that disconnects has its gRPC call cancelled', async (t) => {
  const backend = await startFakeBackend({ delayMs: 5_000 });
  const gateway = await withGateway(backend, {});
  t.teardown(async () => {
    await gateway.stop();
    await backend.stop();
  });
  const abort = new AbortController();
  const pending = postJson(`${gateway.url}/api/translate`, { text: 'gone' }, { signal: abort.signal });
  while (backend.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  const aborted = performance.now();
  abort.abort();
  // fetch rejects with a DOMException, which ava's throwsAsync does not take for an error.
  t.is(await pending.then(() => 'answered', (err: DOMException) => err.name), 'AbortError');
  const cancelled = await Promise.race([backend.calls[0]!.cancelled, new Promise<string>((resolve) => setTimeout(() => resolve('not within 2 s'), 2_000))]);
  t.is(cancelled, true);
  t.log(`cancelled ${Math.round(performance.now() - aborted)} ms after the disconnect`);
});

test('an unreachable service → 503 UNAVAILABLE; the gateway recovers when the service comes up', async (t) => {
  const port = await freePort();
  const gateway = await startGateway({ TRANSLATE_GRPC_URL: `127.0.0.1:${port}` });
  let backend: FakeBackend | undefined;
  t.teardown(async () => {
    await gateway.stop();
    await backend?.stop();
  });
  const down = await postJson(`${gateway.url}/api/detect`, { text: 'x' });
  t.is(down.status, 503);
  // The address and the socket error go to the gateway's log, not to its clients.
  t.deepEqual(await down.json(), { error: { code: 'UNAVAILABLE', message: UNREACHABLE_MESSAGE } });
  t.regex(gateway.stderr(), new RegExp(`cannot be reached: .*127\\.0\\.0\\.1:${port}`));
  backend = await startFakeBackend({ port });
  const started = performance.now();
  let status = 0;
  while (status !== 200 && performance.now() - started < 10_000) {
    status = (await postJson(`${gateway.url}/api/detect`, { text: 'x' })).status;
    if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  t.is(status, 200);
  t.log(`recovered ${Math.round(performance.now() - started)} ms after the service came up`);
});

test('an UNAVAILABLE status the service itself sends keeps its message', async (t) => {
  const backend = await startFakeBackend({ fail: { code: status.UNAVAILABLE, details: 'model warming up' } });
  const gateway = await startGateway({ TRANSLATE_GRPC_URL: `127.0.0.1:${backend.port}` });
  t.teardown(async () => {
    await gateway.stop();
    await backend.stop();
  });
  const res = await postJson(`${gateway.url}/api/detect`, { text: 'x' });
  t.is(res.status, 503);
  t.deepEqual(await res.json(), { error: { code: 'UNAVAILABLE', message: 'model warming up' } });
});
