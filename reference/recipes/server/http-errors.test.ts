// The server's surface without accounts: health, unknown routes, body checks (415, 413, 400) and the bearer
// check's 401s (recipes/errors/*, recipes/limits/json-body-size, recipes/auth/unauthenticated).
import test from 'ava';
import { SignJWT } from 'jose';
import { DEFAULT_JSON_LIMIT } from './json-io.ts';
import { type Answer, startTestServer, TEST_SECRET, type TestServer } from './test-server.ts';

let s: TestServer;
test.before(async () => {
  s = await startTestServer();
});
test.after.always(async () => {
  await s?.close();
});

function assertErrorBody(t: import('ava').ExecutionContext, answer: Answer): void {
  t.regex(answer.headers.get('content-type') ?? '', /^application\/json/);
  t.is(typeof answer.body.error, 'string');
  t.false(JSON.stringify(answer.body).includes('    at '), 'no stack trace');
}

test('GET /health and /api/health answer 200 {status: ok, uptime} without a token', async (t) => {
  for (const path of ['/health', '/api/health']) {
    const answer = await s.api('GET', path);
    t.is(answer.status, 200);
    t.is(answer.body.status, 'ok');
    t.is(typeof answer.body.uptime, 'number');
  }
});

test('unknown routes, versioned paths and unsupported methods answer 404 with the JSON error body', async (t) => {
  for (const [method, path] of [
    ['GET', '/api/nope'],
    ['GET', '/api/v1/auth/me'],
    ['DELETE', '/api/auth/login'],
    ['GET', '/api/auth/r%C3%A9gister#x'],
    ['GET', '/elsewhere'],
  ] as const) {
    const answer = await s.api(method, path);
    t.is(answer.status, 404, `${method} ${path}`);
    assertErrorBody(t, answer);
  }
});

test('a body that is not JSON answers 415', async (t) => {
  const answer = await s.api('POST', '/api/auth/login', { body: 'email=a@b.org', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  t.is(answer.status, 415);
  assertErrorBody(t, answer);
});

test('a JSON body over 1 MiB answers 413, declared or streamed', async (t) => {
  const big = JSON.stringify({ email: 'a@b.org', password: 'x'.repeat(DEFAULT_JSON_LIMIT) });
  const declared = await s.api('POST', '/api/auth/login', { body: big, headers: { 'content-type': 'application/json' } });
  t.is(declared.status, 413);
  assertErrorBody(t, declared);
  // Chunked: no Content-Length, the limit is found while reading.
  const chunks = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode(' '.repeat(100_000)));
      controller.close();
    },
  });
  const res = await fetch(`${s.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: chunks,
    duplex: 'half',
  } as RequestInit);
  t.is(res.status, 413);
  t.is(typeof ((await res.json()) as { error: unknown }).error, 'string');
});

test('malformed JSON and a non-object body answer 400', async (t) => {
  for (const body of ['{"email":', '[1,2]', 'null']) {
    const answer = await s.api('POST', '/api/auth/login', { body, headers: { 'content-type': 'application/json' } });
    t.is(answer.status, 400, body);
    assertErrorBody(t, answer);
  }
});

test('a missing or mistyped field answers 400 naming the field', async (t) => {
  const missing = await s.api('POST', '/api/auth/login', { json: { email: 'a@b.org' } });
  t.is(missing.status, 400);
  t.deepEqual(missing.body.details.map((d: { field: string }) => d.field), ['password']);
  t.regex(missing.body.error, /password/);
  const wrong = await s.api('POST', '/api/admin/setup', { json: { email: 'not an address', password: 'short', name: 7 } });
  t.is(wrong.status, 400);
  t.deepEqual(wrong.body.details.map((d: { field: string }) => d.field), ['email', 'password', 'name']);
});

test('GET /api/auth/me without a usable bearer token answers 401 with WWW-Authenticate', async (t) => {
  const key = new TextEncoder().encode(TEST_SECRET);
  const now = Math.floor(Date.now() / 1000);
  const signed = (secret: Uint8Array, exp: number) =>
    new SignJWT({ role: 'user', tv: 0 }).setProtectedHeader({ alg: 'HS256' }).setSubject('nobody').setIssuedAt(now - 100).setExpirationTime(exp).sign(secret);
  const expired = await signed(key, now - 10);
  const otherSecret = await signed(new TextEncoder().encode('another secret that is long enough, 40 bytes'), now + 600);
  const unknownUser = await signed(key, now + 600);
  const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(`{"sub":"x","exp":${now + 600}}`).toString('base64url')}.`;
  const cases: [string, Record<string, string>, string][] = [
    ['no header', {}, 'Authentication required'],
    ['another scheme', { authorization: 'Basic YTpi' }, 'Invalid or expired token'],
    ['garbage', { authorization: 'Bearer not.a.jwt' }, 'Invalid or expired token'],
    ['expired', { authorization: `Bearer ${expired}` }, 'Invalid or expired token'],
    ['other secret', { authorization: `Bearer ${otherSecret}` }, 'Invalid or expired token'],
    ['tampered', { authorization: `Bearer ${unknownUser.slice(0, -2)}${unknownUser.endsWith('A') ? 'BB' : 'AA'}` }, 'Invalid or expired token'],
    ['alg none', { authorization: `Bearer ${none}` }, 'Invalid or expired token'],
    ['unknown user', { authorization: `Bearer ${unknownUser}` }, 'Invalid or expired token'],
  ];
  for (const [name, headers, message] of cases) {
    const answer = await s.api('GET', '/api/auth/me', { headers });
    t.is(answer.status, 401, name);
    t.is(answer.body.error, message, name);
    t.regex(answer.headers.get('www-authenticate') ?? '', /^Bearer/, name);
  }
});
