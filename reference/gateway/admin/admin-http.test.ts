// The admin server's HTTP rules around the endpoints: 404 for unknown paths, 405 with Allow, JSON bodies
// (415, 400, 413), error bodies that are JSON objects, no runtime call when a request is refused.
import { request } from 'node:http';
import test from 'ava';
import { ADMIN_ROUTES } from './admin-routes.ts';
import { MAX_BODY_BYTES } from './read-json-body.ts';
import { call, recordingRuntime, startTestAdmin, type TestAdmin } from './test-admin.ts';

const recording = recordingRuntime();
let admin: TestAdmin;

test.before(async () => {
  admin = await startTestAdmin(recording.runtime, undefined);
});
test.after.always(() => admin?.close());
test.beforeEach(() => {
  recording.calls.length = 0;
});

test('the table holds the twelve endpoints of the document, none under a version prefix', (t) => {
  t.deepEqual(
    ADMIN_ROUTES.map((route) => `${route.method} ${route.path}`),
    [
      'GET /status',
      'POST /reload',
      'POST /shutdown',
      'GET /upstreams',
      'POST /upstreams/add',
      'POST /upstreams/remove',
      'POST /upstreams/weight',
      'DELETE /cache/purge',
      'GET /rate-limits',
      'POST /ip-deny',
      'DELETE /ip-deny',
      'POST /certs/reload',
    ],
  );
});

test.serial('an unknown path is 404 naming the path', async (t) => {
  for (const path of ['/', '/v1/status', '/status/', '/upstreams/list', '/ip-deny/list']) {
    const res = await call(admin.port, 'GET', path);
    t.is(res.status, 404, path);
    t.is(res.headers['content-type'], 'application/json');
    t.deepEqual(res.json, { status: 'error', message: `no admin endpoint ${path}` });
  }
  t.deepEqual(recording.calls, []);
});

test.serial('a wrong method is 405 with Allow listing the methods of the path', async (t) => {
  const cases: [string, string, string][] = [
    ['GET', '/reload', 'POST'],
    ['POST', '/status', 'GET'],
    ['GET', '/ip-deny', 'POST, DELETE'],
    ['PUT', '/ip-deny', 'POST, DELETE'],
    ['GET', '/cache/purge', 'DELETE'],
    ['DELETE', '/upstreams/add', 'POST'],
  ];
  for (const [method, path, allow] of cases) {
    const res = await call(admin.port, method, path);
    t.is(res.status, 405, `${method} ${path}`);
    t.is(res.headers['allow'], allow);
    t.is((res.json as { status: string }).status, 'error');
    t.regex((res.json as { message: string }).message, new RegExp(`allowed: ${allow}`));
  }
  const head = await call(admin.port, 'HEAD', '/upstreams');
  t.is(head.status, 405);
  t.is(head.headers['allow'], 'GET');
  t.deepEqual(recording.calls, []);
});

const ADD = JSON.stringify({ route: '/api', target: 'http://127.0.0.1:9009' });

test.serial('a body with a Content-Type other than application/json is 415', async (t) => {
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/merge-patch+json']) {
    const res = await call(admin.port, 'POST', '/upstreams/add', { headers: { 'Content-Type': type }, body: ADD });
    t.is(res.status, 415, type);
    t.is((res.json as { status: string }).status, 'error');
  }
  t.deepEqual(recording.calls, []);
});

test.serial('application/json with parameters, and a body without Content-Type, are read as JSON', async (t) => {
  for (const headers of [{ 'Content-Type': 'Application/JSON; charset=utf-8' }, {}] as Record<string, string>[]) {
    const res = await call(admin.port, 'POST', '/upstreams/add', { headers, body: ADD });
    t.is(res.status, 200, JSON.stringify(headers));
  }
  t.is(recording.calls.length, 2);
});

test.serial('a body that is not a JSON object is 400', async (t) => {
  const bodies: [string, RegExp][] = [
    ['{"route":', /not valid JSON/],
    ['', /JSON object/],
    ['[]', /JSON object/],
    ['null', /JSON object/],
    ['"x"', /JSON object/],
    ['7', /JSON object/],
  ];
  for (const [body, message] of bodies) {
    const res = await call(admin.port, 'POST', '/ip-deny', { headers: { 'Content-Type': 'application/json' }, body });
    t.is(res.status, 400, body);
    t.is((res.json as { status: string }).status, 'error');
    t.regex((res.json as { message: string }).message, message);
  }
  const latin1 = await call(admin.port, 'POST', '/ip-deny', { headers: { 'Content-Type': 'application/json' }, body: Buffer.from('{"cidr":"\xff"}', 'latin1') });
  t.is(latin1.status, 400);
  t.deepEqual(recording.calls, []);
});

test.serial('a body over the limit is 413, by Content-Length or while reading a chunked body', async (t) => {
  const big = `{"cidr":"${'x'.repeat(MAX_BODY_BYTES)}"}`;
  const declared = await call(admin.port, 'POST', '/ip-deny', { headers: { 'Content-Type': 'application/json' }, body: big });
  t.is(declared.status, 413);
  t.is((declared.json as { status: string }).status, 'error');
  const chunked = await new Promise<number>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: admin.port, method: 'POST', path: '/ip-deny', headers: { 'Content-Type': 'application/json' }, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.write(big.slice(0, MAX_BODY_BYTES / 2));
    req.write(big.slice(MAX_BODY_BYTES / 2));
    req.end();
  });
  t.is(chunked, 413);
  t.deepEqual(recording.calls, []);
});

test.serial('a malformed request line is answered with a JSON 400', async (t) => {
  const { connect } = await import('node:net');
  const text = await new Promise<string>((resolve, reject) => {
    const socket = connect(admin.port, '127.0.0.1', () => socket.write('GARBAGE\r\n\r\n'));
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString();
    });
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
  t.regex(text, /^HTTP\/1\.1 400 /);
  t.regex(text, /\r\n\r\n\{"status":"error","message":"malformed HTTP request"\}$/);
});

test.serial('answers carry Cache-Control: no-store', async (t) => {
  const res = await fetch(`${admin.url}/status`);
  t.is(res.headers.get('cache-control'), 'no-store');
  t.is(res.status, 200);
  await res.body?.cancel();
});
