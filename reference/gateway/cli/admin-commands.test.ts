// The admin shortcuts against a real admin server on loopback ports (over a recording runtime): the call each
// command makes, its output and exit code, the upstream table, address precedence and the token.
import test from 'ava';
import { GatewayError } from '../runtime/gateway-runtime.ts';
import { recordingRuntime, STATUS, startTestAdmin, type TestAdmin, UPSTREAM } from '../admin/test-admin.ts';
import { adminBaseUrl, DEFAULT_ADMIN_ADDRESS, UsageError } from './admin-client.ts';
import { type AdminCommand, runAdminCommand } from './admin-commands.ts';
import { UPSTREAM_COLUMNS, upstreamTable } from './status-table.ts';

const TOKEN = 'tok-ü-123';
const first = recordingRuntime();
const second = recordingRuntime();
let a: TestAdmin;
let b: TestAdmin;
let locked: TestAdmin;

test.before(async () => {
  a = await startTestAdmin(first.runtime, undefined);
  b = await startTestAdmin(second.runtime, undefined);
  locked = await startTestAdmin(recordingRuntime().runtime, TOKEN);
});
test.after.always(async () => {
  await Promise.all([a?.close(), b?.close(), locked?.close()]);
});
test.beforeEach(() => {
  first.calls.length = 0;
  second.calls.length = 0;
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const result = { code: -1, stdout: '', stderr: '' };
  const [command, ...args] = argv;
  result.code = await runAdminCommand(command as AdminCommand, args, {
    env,
    cwd: process.cwd(),
    stdout: (text) => {
      result.stdout += text;
    },
    stderr: (text) => {
      result.stderr += text;
    },
  });
  return result;
}

const at = (admin: TestAdmin) => `127.0.0.1:${admin.port}`;

/** [command line, the runtime method called, its arguments]. */
const CALLS: [string[], string, unknown[]][] = [
  [['reload'], 'reload', []],
  [['status'], 'status', []],
  [['status', '--upstream'], 'upstreams', []],
  [['upstreams'], 'upstreams', []],
  [['upstreams', 'add', '--route', '/api', '--target', 'http://x.test:1'], 'addTarget', [{ site: undefined, route: '/api', target: 'http://x.test:1', weight: 1 }]],
  [
    ['upstreams', 'add', '--route', '/api', '--target', 'http://x.test:1', '--weight', '5', '--site', 'a.test:8080'],
    'addTarget',
    [{ site: 'a.test:8080', route: '/api', target: 'http://x.test:1', weight: 5 }],
  ],
  [['upstreams', 'remove', '--route', '/api', '--target', 'http://x.test:1'], 'removeTarget', [{ site: undefined, route: '/api', target: 'http://x.test:1' }]],
  [['upstreams', 'remove', '--site', '*:8080', '--route', '/api', '--target', 'http://x.test:1'], 'removeTarget', [{ site: '*:8080', route: '/api', target: 'http://x.test:1' }]],
  [['upstreams', 'weight', '--route', '/api', '--target', 'http://x.test:1', '--weight', '9'], 'setWeight', [{ site: undefined, route: '/api', target: 'http://x.test:1', weight: 9 }]],
];

for (const [argv, method, args] of CALLS) {
  test.serial(`gateway ${argv.join(' ')} → runtime ${method}, exit 0`, async (t) => {
    const result = await run([...argv, '--admin', at(a)]);
    t.is(result.code, 0, result.stderr);
    t.is(result.stderr, '');
    t.deepEqual(first.calls, [{ method: method as never, args }]);
  });
}

test.serial('gateway shutdown calls POST /shutdown and prints its answer', async (t) => {
  const before = a.shutdowns;
  const result = await run(['shutdown', '--admin', at(a)]);
  t.is(result.code, 0);
  t.is(result.stdout, `${JSON.stringify({ status: 'shutting_down' }, null, 2)}\n`);
  t.is(a.shutdowns, before + 1);
});

test.serial('a successful answer is printed as pretty JSON on stdout', async (t) => {
  const result = await run(['status', '--admin', at(a)]);
  t.is(result.stdout, `${JSON.stringify(STATUS, null, 2)}\n`);
});

test.serial('status --upstream prints the table with its columns', async (t) => {
  first.answers.upstreams = () => ({
    upstreams: [UPSTREAM, { ...UPSTREAM, url: 'http://127.0.0.1:9002', state: 'ejected', ejected: true, latency_ms: 12, active_connections: 3, responses: { '2xx': 1, '4xx': 0, '5xx': 17 } }],
    routes: [],
  });
  try {
    const result = await run(['status', '--upstream', '--admin', at(a)]);
    t.is(result.code, 0);
    const lines = result.stdout.trimEnd().split('\n');
    t.deepEqual(lines[0]?.split(/ +/), [...UPSTREAM_COLUMNS]);
    t.deepEqual(lines[1]?.split(/ +/), ['http://127.0.0.1:9001', 'healthy', 'true', '-', '0', '0', 'false']);
    t.deepEqual(lines[2]?.split(/ +/), ['http://127.0.0.1:9002', 'ejected', 'true', '12', '3', '17', 'true']);
    t.is(lines.length, 3);
  } finally {
    delete first.answers.upstreams;
  }
});

test('the table aligns its columns; a missing field is "-"', (t) => {
  const text = upstreamTable([{ url: 'http://a.test', state: 'busy', healthy: true, latency_ms: 1234, active_connections: 2, responses: { '5xx': 0 }, ejected: false }, { url: 'http://long-name.test:8080' }]);
  t.is(
    text,
    'URL                         STATE  HEALTHY  LATENCY_MS  ACTIVE  5XX  EJECTED\n' +
      'http://a.test               busy   true     1234        2       0    false\n' +
      'http://long-name.test:8080  -      -        -           -       -    -\n',
  );
});

test.serial('a non-2xx answer: "error: <status> <message>" on stderr, exit 1', async (t) => {
  first.answers.addTarget = () => {
    throw new GatewayError('not-found', 'route /nope: no site has this route');
  };
  try {
    const result = await run(['upstreams', 'add', '--route', '/nope', '--target', 'http://x.test', '--admin', at(a)]);
    t.is(result.code, 1);
    t.is(result.stdout, '');
    t.is(result.stderr, 'error: 404 route /nope: no site has this route\n');
  } finally {
    delete first.answers.addTarget;
  }
  const invalid = await run(['upstreams', 'weight', '--route', '/api', '--target', 'http://x.test', '--weight', '0', '--admin', at(a)]);
  t.is(invalid.code, 1);
  t.regex(invalid.stderr, /^error: 400 weight: /);
});

test.serial('an unreachable address: "error:" naming it, exit 1', async (t) => {
  const closed = await startTestAdmin(recordingRuntime().runtime, undefined);
  await closed.close();
  const result = await run(['status', '--admin', at(closed)]);
  t.is(result.code, 1);
  t.is(result.stdout, '');
  t.regex(result.stderr, new RegExp(`^error: cannot reach the admin server at 127\\.0\\.0\\.1:${closed.port}: .*ECONNREFUSED`));
});

test.serial('--admin beats GATEWAY_ADMIN, which is used without it; the http:// form works too', async (t) => {
  t.is((await run(['status', '--admin', at(a)], { GATEWAY_ADMIN: at(b) })).code, 0);
  t.is(first.calls.length, 1);
  t.is(second.calls.length, 0);
  t.is((await run(['status'], { GATEWAY_ADMIN: `http://${at(b)}` })).code, 0);
  t.is(second.calls.length, 1);
  t.is((await run(['reload', `--admin=http://${at(a)}/`])).code, 0);
  t.is(first.calls.length, 2);
});

test('the address: default 127.0.0.1:2019, host:port over http, IPv6, refused forms', (t) => {
  t.is(DEFAULT_ADMIN_ADDRESS, '127.0.0.1:2019');
  t.is(adminBaseUrl(undefined, {}).href, 'http://127.0.0.1:2019/');
  t.is(adminBaseUrl(undefined, { GATEWAY_ADMIN: '' }).href, 'http://127.0.0.1:2019/');
  t.is(adminBaseUrl(undefined, { GATEWAY_ADMIN: 'localhost:7' }).href, 'http://localhost:7/');
  t.is(adminBaseUrl('[::1]:2019', { GATEWAY_ADMIN: 'localhost:7' }).href, 'http://[::1]:2019/');
  t.is(adminBaseUrl('https://admin.test', {}).href, 'https://admin.test/');
  for (const bad of ['localhost', 'ftp://a.test:1', 'http://a.test:1/admin', 'http://u:p@a.test:1', 'a b:1', ':2019']) {
    t.throws(() => adminBaseUrl(bad, {}), { instanceOf: UsageError }, bad);
  }
  t.throws(() => adminBaseUrl(undefined, { GATEWAY_ADMIN: 'nope' }), { message: /GATEWAY_ADMIN/ });
});

test.serial('GATEWAY_ADMIN_TOKEN is sent as the bearer token; missing or wrong: 401 on stderr, exit 1', async (t) => {
  const right = await run(['status', '--admin', at(locked)], { GATEWAY_ADMIN_TOKEN: TOKEN });
  t.is(right.code, 0, right.stderr);
  const missing = await run(['status', '--admin', at(locked)]);
  t.is(missing.code, 1);
  t.is(missing.stderr, 'error: 401 unauthorized (set GATEWAY_ADMIN_TOKEN to the admin token)\n');
  const wrong = await run(['status', '--admin', at(locked)], { GATEWAY_ADMIN_TOKEN: 'nope' });
  t.is(wrong.code, 1);
  t.is(wrong.stderr, 'error: 401 unauthorized (GATEWAY_ADMIN_TOKEN does not hold the admin token)\n');
});

/** Command lines refused before any call. */
const USAGE_ERRORS: string[][] = [
  ['reload', '--upstream'],
  ['status', 'now'],
  ['status', '--frob'],
  ['upstreams', 'list'],
  ['upstreams', '--route', '/api'],
  ['upstreams', 'add', '--target', 'http://x.test'],
  ['upstreams', 'add', '--route', '/api'],
  ['upstreams', 'add', '--route', '/api', '--target', 'http://x.test', '--weight', 'heavy'],
  ['upstreams', 'remove', '--route', '/api', '--target', 'http://x.test', '--weight', '2'],
  ['upstreams', 'weight', '--route', '/api', '--target', 'http://x.test'],
  ['status', '--admin', 'no-port'],
];

for (const argv of USAGE_ERRORS) {
  test.serial(`gateway ${argv.join(' ')} is a usage error, no call`, async (t) => {
    await t.throwsAsync(run([...argv, ...(argv.includes('--admin') ? [] : ['--admin', at(a)])]), { instanceOf: UsageError });
    t.deepEqual(first.calls, []);
  });
}
