// The page's HTTP client (public/api-client.js) in Node against a scripted server: 502, 503 and 504 retried
// at most 3 times after 250, 500 and 1000 ms with the same body; nothing else retried.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import test from 'ava';

interface ApiClientModule {
  RETRY_STATUSES: number[];
  RETRY_DELAYS_MS: number[];
  createApiClient(options: { baseUrl?: string; sleep?: (ms: number) => Promise<void>; onAttempt?: (n: number) => void }): {
    post(path: string, body: unknown): Promise<{ body: unknown; attempts: number }>;
    get(path: string): Promise<{ body: unknown; attempts: number }>;
  };
}

// A plain browser module: loaded by URL so the type checker does not ask for declarations.
const CLIENT_URL = new URL('./public/api-client.js', import.meta.url).href;
const { RETRY_DELAYS_MS, RETRY_STATUSES, createApiClient } = (await import(CLIENT_URL)) as ApiClientModule;

/** A server answering with `statuses` in turn (then 200), recording each request body. */
async function scripted(statuses: number[]): Promise<{ url: string; bodies: string[]; server: Server }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      bodies.push(body);
      const status = statuses[bodies.length - 1] ?? 200;
      const answer = status === 200 ? { ok: true } : { error: { code: `CODE_${status}`, message: `failure ${bodies.length}` } };
      res.writeHead(status, { 'Content-Type': 'application/json', 'Retry-After': '60' }).end(JSON.stringify(answer));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, bodies, server };
}

function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

test('the policy constants are the catalog\'s', (t) => {
  t.deepEqual(RETRY_STATUSES, [502, 503, 504]);
  t.deepEqual(RETRY_DELAYS_MS, [250, 500, 1000]);
});

for (const status of [502, 503, 504]) {
  test(`${status} is retried 3 times with the same body, then the last error is reported`, async (t) => {
    const { url, bodies, server } = await scripted([status, status, status, status, 200]);
    t.teardown(() => server.close());
    const { waits, sleep } = recordingSleep();
    const error = await createApiClient({ baseUrl: url, sleep }).post('/api/translate', { text: 'fünke #1' }).then(
      () => null,
      (err) => err,
    );
    t.like(error, { code: `CODE_${status}`, message: 'failure 4', httpStatus: status, attempts: 4 });
    t.deepEqual(waits, [250, 500, 1000]);
    t.is(bodies.length, 4);
    t.deepEqual(new Set(bodies), new Set([JSON.stringify({ text: 'fünke #1' })]));
  });
}

test('a retry that succeeds gives the answer', async (t) => {
  const { url, server } = await scripted([503, 502]);
  t.teardown(() => server.close());
  const { waits, sleep } = recordingSleep();
  const attempts: number[] = [];
  const result = await createApiClient({ baseUrl: url, sleep, onAttempt: (n) => attempts.push(n) }).post('/x', {});
  t.deepEqual(result, { body: { ok: true }, attempts: 3 });
  t.deepEqual(waits, [250, 500]);
  t.deepEqual(attempts, [1, 2, 3]);
});

for (const status of [400, 403, 404, 413, 429, 500, 501]) {
  test(`${status} is not retried`, async (t) => {
    const { url, bodies, server } = await scripted([status]);
    t.teardown(() => server.close());
    const { waits, sleep } = recordingSleep();
    const error = await createApiClient({ baseUrl: url, sleep }).get('/x').then(
      () => null,
      (err) => err,
    );
    t.like(error, { code: `CODE_${status}`, httpStatus: status, attempts: 1 });
    t.is(bodies.length, 1);
    t.deepEqual(waits, []);
  });
}

test('a network failure is not retried', async (t) => {
  const { url, server } = await scripted([]);
  server.close();
  await once(server, 'close');
  const { waits, sleep } = recordingSleep();
  const error = await createApiClient({ baseUrl: url, sleep }).get('/x').then(
    () => null,
    (err) => err,
  );
  t.like(error, { code: 'NETWORK_ERROR', attempts: 1 });
  t.deepEqual(waits, []);
});

test('a non-JSON error body still gives a code (HTTP_<status>)', async (t) => {
  const server = createServer((_req, res) => res.writeHead(418, { 'Content-Type': 'text/html' }).end('<h1>teapot</h1>'));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => server.close());
  const error = await createApiClient({ baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}` }).get('/x').then(
    () => null,
    (err) => err,
  );
  t.like(error, { code: 'HTTP_418', httpStatus: 418 });
});

test('with the real timer the three waits take about 1.75 s', async (t) => {
  const { url, server } = await scripted([504, 504, 504, 504]);
  t.teardown(() => server.close());
  const started = performance.now();
  await createApiClient({ baseUrl: url }).get('/x').catch(() => {});
  const elapsed = performance.now() - started;
  t.true(elapsed >= 1_740 && elapsed < 2_500, `${Math.round(elapsed)} ms`);
});
