// Bearer authentication of the admin server (catalog gateway/auth/*, gateway/errors/unauthorized-*): any
// missing or wrong credential on any endpoint, any path or method, is 401 with the fixed body and
// WWW-Authenticate, and the runtime sees no call; the right token in any scheme case passes.
import test from 'ava';
import fc from 'fast-check';
import { ADMIN_ROUTES } from './admin-routes.ts';
import { bearerCheck } from './bearer-auth.ts';
import { call, recordingRuntime, startTestAdmin, type TestAdmin } from './test-admin.ts';

const TOKEN = 's3cr3t-Tok3n_ä';
const recording = recordingRuntime();
let admin: TestAdmin;

test.before(async () => {
  admin = await startTestAdmin(recording.runtime, TOKEN);
});
test.after.always(() => admin?.close());

const VALID_BODY: Record<string, object> = {
  '/upstreams/add': { route: '/api', target: 'http://a.test' },
  '/upstreams/remove': { route: '/api', target: 'http://a.test' },
  '/upstreams/weight': { route: '/api', target: 'http://a.test', weight: 2 },
  '/ip-deny': { cidr: '10.0.0.0/8' },
  '/certs/reload': { cert: 'C', key: 'K' },
};

const pathOf = (path: string) => (path === '/cache/purge' ? '/cache/purge?url=http%3A%2F%2Fa.test%2F' : path);
const bodyOf = (path: string) => (VALID_BODY[path] === undefined ? undefined : JSON.stringify(VALID_BODY[path]));

/** Credentials that are not `Bearer <TOKEN>`: absent, other schemes carrying the token, near misses. */
const wrongCredential = fc.oneof(
  fc.constant<Record<string, string>>({}),
  fc.constant({ Authorization: `Basic ${Buffer.from(`admin:${TOKEN}`).toString('base64')}` }),
  fc.constant({ Authorization: `Basic ${Buffer.from(`${TOKEN}:`).toString('base64')}` }),
  fc.constant({ Cookie: `token=${TOKEN}; admin_token=${TOKEN}` }),
  fc.constant({ Authorization: TOKEN }),
  fc.constant({ Authorization: `Bearer${TOKEN}` }),
  fc.constant({ Authorization: `Token ${TOKEN}` }),
  fc.constant({ Authorization: `Bearer ${TOKEN.slice(0, -1)}` }),
  fc.constant({ Authorization: `Bearer ${TOKEN}x` }),
  fc.constant({ Authorization: `Bearer ${TOKEN.toUpperCase()}` }),
  fc.constant({ Authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.c2lnbmF0dXJl' }),
  fc
    .string({ minLength: 1, maxLength: 40, unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEF0123456789-._~+/=') })
    .filter((token) => token !== TOKEN)
    .map((token) => ({ Authorization: `Bearer ${token}` })),
);

const anyEndpoint = fc.constantFrom(...ADMIN_ROUTES.map((route) => ({ method: route.method, path: route.path })));

test.serial('any missing or wrong credential on any endpoint: 401, fixed body, WWW-Authenticate, no runtime call', async (t) => {
  await fc.assert(
    fc.asyncProperty(anyEndpoint, wrongCredential, async ({ method, path }, headers) => {
      recording.calls.length = 0;
      const body = bodyOf(path);
      const res = await call(admin.port, method, pathOf(path), {
        headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body }),
      });
      return (
        res.status === 401 &&
        res.headers['content-type'] === 'application/json' &&
        res.headers['www-authenticate'] === 'Bearer' &&
        res.text === '{"status":"error","message":"unauthorized"}' &&
        recording.calls.length === 0 &&
        admin.shutdowns === 0
      );
    }),
    { numRuns: 150 },
  );
  t.pass();
});

test.serial('authentication comes before routing: an unknown path or a wrong method without the token is 401', async (t) => {
  for (const [method, path] of [
    ['GET', '/nope'],
    ['GET', '/reload'],
    ['PUT', '/ip-deny'],
  ] as const) {
    const res = await call(admin.port, method, path);
    t.is(res.status, 401, `${method} ${path}`);
  }
});

test.serial('the right token on every endpoint passes, whatever the case of the scheme and the spaces after it', async (t) => {
  const encoded = Buffer.from(TOKEN, 'utf8').toString('latin1'); // the header bytes as UTF-8
  for (const [index, route] of ADMIN_ROUTES.filter((r) => r.path !== '/shutdown').entries()) {
    recording.calls.length = 0;
    const scheme = ['Bearer', 'bearer', 'BEARER', 'bEaReR'][index % 4];
    const body = bodyOf(route.path);
    const res = await call(admin.port, route.method, pathOf(route.path), {
      headers: { Authorization: `${scheme}${' '.repeat(1 + (index % 3))}${encoded}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body }),
    });
    t.is(res.status, 200, `${route.method} ${route.path}`);
    t.is(recording.calls.length, 1, `${route.method} ${route.path}`);
  }
  const shutdown = await call(admin.port, 'POST', '/shutdown', { headers: { Authorization: `Bearer ${encoded}` } });
  t.is(shutdown.status, 200);
  t.is(admin.shutdowns, 1);
});

test('bearerCheck: no token configured accepts anything; a token accepts exactly itself', (t) => {
  const open = bearerCheck(undefined);
  t.true(open(undefined));
  t.true(open('Basic abc'));
  const check = bearerCheck('abc');
  t.true(check('Bearer abc'));
  t.true(check('bearer   abc'));
  t.false(check('Bearer  '));
  t.false(check('Bearer abcd'));
  t.false(check('Bearer ab'));
  t.false(check(undefined));
  t.false(check(''));
});

test('a server without a token answers without any Authorization header', async (t) => {
  const open = await startTestAdmin(recordingRuntime().runtime, undefined);
  try {
    t.is((await call(open.port, 'GET', '/status')).status, 200);
    t.is((await call(open.port, 'GET', '/status', { headers: { Authorization: 'Bearer whatever' } })).status, 200);
  } finally {
    await open.close();
  }
});
