// The twelve endpoints of the admin server over a recording runtime: each success body and the runtime
// call it makes, the field checks (400 naming the field, no runtime call), and GatewayError codes mapped to
// statuses. Serial: the tests read the runtime's call list.
import test from 'ava';
import { GatewayError } from '../runtime/gateway-runtime.ts';
import { CERTS_NOTE } from './admin-routes.ts';
import { COUNTERS, ROUTE, STATUS, UPSTREAM, call, callJson, recordingRuntime, startTestAdmin, type TestAdmin } from './test-admin.ts';

const recording = recordingRuntime();
const logs: string[] = [];
let admin: TestAdmin;

test.before(async () => {
  admin = await startTestAdmin(recording.runtime, undefined, logs);
});
test.after.always(() => admin?.close());
test.beforeEach(() => {
  recording.calls.length = 0;
  for (const key of Object.keys(recording.answers)) delete recording.answers[key as keyof typeof recording.answers];
});

test.serial('GET /status answers the runtime status object, 200 application/json', async (t) => {
  const res = await call(admin.port, 'GET', '/status');
  t.is(res.status, 200);
  t.is(res.headers['content-type'], 'application/json');
  t.deepEqual(res.json, STATUS);
  t.deepEqual(recording.calls, [{ method: 'status', args: [] }]);
});

test.serial('GET /upstreams answers upstreams and routes', async (t) => {
  const res = await call(admin.port, 'GET', '/upstreams');
  t.is(res.status, 200);
  t.deepEqual(res.json, { upstreams: [UPSTREAM], routes: [ROUTE] });
});

test.serial('GET /rate-limits answers the counters object as is', async (t) => {
  const res = await call(admin.port, 'GET', '/rate-limits');
  t.is(res.status, 200);
  t.deepEqual(res.json, COUNTERS);
});

test.serial('POST /reload answers ok and a message, warnings only when there are some', async (t) => {
  const plain = await call(admin.port, 'POST', '/reload');
  t.is(plain.status, 200);
  t.deepEqual(plain.json, { status: 'ok', message: 'configuration reloaded' });
  recording.answers.reload = () => ({ warnings: ['logging: configured but not compiled in'] });
  const warned = await call(admin.port, 'POST', '/reload');
  t.deepEqual(warned.json, { status: 'ok', message: 'configuration reloaded', warnings: ['logging: configured but not compiled in'] });
});

test.serial('POST /reload ignores a body, even one that is not JSON', async (t) => {
  const res = await call(admin.port, 'POST', '/reload', { headers: { 'Content-Type': 'text/plain' }, body: 'not json' });
  t.is(res.status, 200);
  t.deepEqual(recording.calls, [{ method: 'reload', args: [] }]);
});

test.serial('POST /reload refused by the runtime: 400 with its message', async (t) => {
  recording.answers.reload = () => {
    throw new GatewayError('bad-request', 'sites[0].port: a cold field changed; restart the gateway to apply it');
  };
  const res = await call(admin.port, 'POST', '/reload');
  t.is(res.status, 400);
  t.deepEqual(res.json, { status: 'error', message: 'sites[0].port: a cold field changed; restart the gateway to apply it' });
});

test.serial('POST /shutdown answers shutting_down, then calls onShutdown once', async (t) => {
  const before = admin.shutdowns;
  const res = await call(admin.port, 'POST', '/shutdown');
  t.is(res.status, 200);
  t.deepEqual(res.json, { status: 'shutting_down' });
  t.is(admin.shutdowns, before + 1);
  t.deepEqual(recording.calls, []);
});

test.serial('POST /upstreams/add without site and weight: site "*", weight 1, runtime gets site undefined', async (t) => {
  const res = await callJson(admin.port, 'POST', '/upstreams/add', { route: '/api', target: 'http://127.0.0.1:9003' });
  t.is(res.status, 200);
  t.deepEqual(res.json, { status: 'ok', site: '*', route: '/api', target: 'http://127.0.0.1:9003', weight: 1 });
  t.deepEqual(recording.calls, [{ method: 'addTarget', args: [{ site: undefined, route: '/api', target: 'http://127.0.0.1:9003', weight: 1 }] }]);
});

test.serial('POST /upstreams/add with site and weight passes both; unknown fields are ignored', async (t) => {
  const body = { route: '/api', target: 'https://Example.test:8443', weight: 7, site: 'example.test:8080', extra: [1] };
  const res = await callJson(admin.port, 'POST', '/upstreams/add', body);
  t.deepEqual(res.json, { status: 'ok', site: 'example.test:8080', route: '/api', target: 'https://Example.test:8443', weight: 7 });
  t.deepEqual(recording.calls[0]?.args, [{ site: 'example.test:8080', route: '/api', target: 'https://Example.test:8443', weight: 7 }]);
});

test.serial('POST /upstreams/add with site "*" means every site', async (t) => {
  const res = await callJson(admin.port, 'POST', '/upstreams/add', { route: '/api', target: 'http://a.test', site: '*' });
  t.is((res.json as { site: string }).site, '*');
  t.deepEqual(recording.calls[0]?.args, [{ site: undefined, route: '/api', target: 'http://a.test', weight: 1 }]);
});

test.serial('POST /upstreams/remove answers removed as the runtime says', async (t) => {
  const body = { route: '/api', target: 'http://127.0.0.1:9001' };
  const removed = await callJson(admin.port, 'POST', '/upstreams/remove', body);
  t.deepEqual(removed.json, { status: 'ok', removed: true, site: '*', route: '/api', target: 'http://127.0.0.1:9001' });
  recording.answers.removeTarget = () => false;
  const absent = await callJson(admin.port, 'POST', '/upstreams/remove', { ...body, site: '*:8080' });
  t.deepEqual(absent.json, { status: 'ok', removed: false, site: '*:8080', route: '/api', target: 'http://127.0.0.1:9001' });
  t.deepEqual(recording.calls[1]?.args, [{ site: '*:8080', route: '/api', target: 'http://127.0.0.1:9001' }]);
});

test.serial('POST /upstreams/weight answers the new weight', async (t) => {
  const res = await callJson(admin.port, 'POST', '/upstreams/weight', { route: '/api', target: 'http://127.0.0.1:9001', weight: 1000 });
  t.deepEqual(res.json, { status: 'ok', site: '*', route: '/api', target: 'http://127.0.0.1:9001', weight: 1000 });
  t.deepEqual(recording.calls, [{ method: 'setWeight', args: [{ site: undefined, route: '/api', target: 'http://127.0.0.1:9001', weight: 1000 }] }]);
});

test.serial('runtime not-found on the upstream endpoints is 404 with its message', async (t) => {
  recording.answers.addTarget = () => {
    throw new GatewayError('not-found', 'route /nope: no site has this route');
  };
  const res = await callJson(admin.port, 'POST', '/upstreams/add', { route: '/nope', target: 'http://a.test' });
  t.is(res.status, 404);
  t.deepEqual(res.json, { status: 'error', message: 'route /nope: no site has this route' });
});

/** [endpoint, body, field the message starts with]. */
const INVALID: [string, Record<string, unknown>, string][] = [
  ['/upstreams/add', { target: 'http://a.test' }, 'route: required'],
  ['/upstreams/add', { route: null, target: 'http://a.test' }, 'route: required'],
  ['/upstreams/add', { route: 5, target: 'http://a.test' }, 'route: must be a string'],
  ['/upstreams/add', { route: 'api', target: 'http://a.test' }, 'route: must be a path prefix'],
  ['/upstreams/add', { route: '/api' }, 'target: required'],
  ['/upstreams/add', { route: '/api', target: '/relative' }, 'target: must be an absolute http:// or https:// URL'],
  ['/upstreams/add', { route: '/api', target: 'ftp://a.test/' }, 'target: must be an absolute http:// or https:// URL'],
  ['/upstreams/add', { route: '/api', target: 'http://a.test/x?y' }, 'target: must not have a path'],
  ['/upstreams/add', { route: '/api', target: 'http://a.test', weight: 0 }, 'weight: must be an integer from 1 to 1000'],
  ['/upstreams/add', { route: '/api', target: 'http://a.test', weight: 1001 }, 'weight: must be an integer from 1 to 1000'],
  ['/upstreams/add', { route: '/api', target: 'http://a.test', weight: -3 }, 'weight: must be an integer'],
  ['/upstreams/add', { route: '/api', target: 'http://a.test', weight: 1.5 }, 'weight: must be an integer'],
  ['/upstreams/add', { route: '/api', target: 'http://a.test', weight: '3' }, 'weight: must be an integer'],
  ['/upstreams/add', { route: '/api', target: 'http://a.test', weight: null }, 'weight: must be an integer'],
  ['/upstreams/add', { route: '/api', target: 'http://a.test', site: 8080 }, 'site: must be a string'],
  ['/upstreams/add', { route: '/api', target: 'http://a.test', site: 'example.test' }, 'site: must be a site label'],
  ['/upstreams/remove', { target: 'http://a.test' }, 'route: required'],
  ['/upstreams/remove', { route: '/api' }, 'target: required'],
  ['/upstreams/weight', { route: '/api', target: 'http://a.test' }, 'weight: required'],
  ['/upstreams/weight', { route: '/api', weight: 2 }, 'target: required'],
  ['/ip-deny', {}, 'cidr: required'],
  ['/ip-deny', { cidr: 10 }, 'cidr: must be a string'],
  ['/certs/reload', { key: 'k' }, 'cert: required'],
  ['/certs/reload', { cert: 'c' }, 'key: required'],
  ['/certs/reload', { cert: 'c', key: 7 }, 'key: must be a string'],
];

for (const [path, body, message] of INVALID) {
  test.serial(`POST ${path} ${JSON.stringify(body)} → 400 "${message}…", no runtime call`, async (t) => {
    const res = await callJson(admin.port, 'POST', path, body);
    t.is(res.status, 400);
    t.is((res.json as { status: string }).status, 'error');
    t.true((res.json as { message: string }).message.startsWith(message), (res.json as { message: string }).message);
    t.deepEqual(recording.calls, []);
  });
}

test.serial('DELETE /ip-deny reads cidr from the body and answers removed', async (t) => {
  const res = await callJson(admin.port, 'DELETE', '/ip-deny', { cidr: '10.0.0.0/8' });
  t.deepEqual(res.json, { status: 'ok', action: 'removed', cidr: '10.0.0.0/8' });
  t.deepEqual(recording.calls, [{ method: 'denyRemove', args: ['10.0.0.0/8'] }]);
  const missing = await callJson(admin.port, 'DELETE', '/ip-deny', {});
  t.is(missing.status, 400);
  t.deepEqual(missing.json, { status: 'error', message: 'cidr: required' });
});

test.serial('POST /ip-deny answers added; an invalid CIDR refused by the runtime is 400', async (t) => {
  const res = await callJson(admin.port, 'POST', '/ip-deny', { cidr: '192.0.2.7' });
  t.deepEqual(res.json, { status: 'ok', action: 'added', cidr: '192.0.2.7' });
  t.deepEqual(recording.calls, [{ method: 'denyAdd', args: ['192.0.2.7'] }]);
  recording.answers.denyAdd = () => {
    throw new GatewayError('bad-request', 'cidr: "10.0.0.0/33" is not a CIDR block or IP address');
  };
  const bad = await callJson(admin.port, 'POST', '/ip-deny', { cidr: '10.0.0.0/33' });
  t.is(bad.status, 400);
  t.deepEqual(bad.json, { status: 'error', message: 'cidr: "10.0.0.0/33" is not a CIDR block or IP address' });
});

test.serial('DELETE /cache/purge?url= answers purged and echoes url as sent', async (t) => {
  const url = 'http://Example.test:8080/a b?x=1&y=%20';
  const res = await call(admin.port, 'DELETE', `/cache/purge?url=${encodeURIComponent(url)}`);
  t.deepEqual(res.json, { status: 'ok', purged: true, url });
  t.deepEqual(recording.calls, [{ method: 'purge', args: [url] }]);
  recording.answers.purge = () => false;
  const absent = await call(admin.port, 'DELETE', `/cache/purge?url=${encodeURIComponent('https://a.test/')}`);
  t.deepEqual(absent.json, { status: 'ok', purged: false, url: 'https://a.test/' });
});

test.serial('DELETE /cache/purge without url, or with a relative one, is 400 naming url', async (t) => {
  for (const query of ['', '?url=', '?url=%2Fpath', '?other=1']) {
    const res = await call(admin.port, 'DELETE', `/cache/purge${query}`);
    t.is(res.status, 400, query);
    t.regex((res.json as { message: string }).message, /^url: /);
  }
  t.deepEqual(recording.calls, []);
});

test.serial('DELETE /cache/purge without the cache feature is 501', async (t) => {
  recording.answers.purge = () => {
    throw new GatewayError('not-implemented', 'the response cache is not configured');
  };
  const res = await call(admin.port, 'DELETE', '/cache/purge?url=http%3A%2F%2Fa.test%2F');
  t.is(res.status, 501);
  t.deepEqual(res.json, { status: 'error', message: 'the response cache is not configured' });
});

test.serial('POST /certs/reload answers ok, both paths and the note', async (t) => {
  const res = await callJson(admin.port, 'POST', '/certs/reload', { cert: 'CERT', key: 'KEY' });
  t.is(res.status, 200);
  t.deepEqual(res.json, { status: 'ok', cert_path: '/etc/gateway/cert.pem', key_path: '/etc/gateway/key.pem', note: CERTS_NOTE });
  t.regex(CERTS_NOTE, /restart/);
  t.deepEqual(recording.calls, [{ method: 'certsReload', args: ['CERT', 'KEY'] }]);
});

test.serial('POST /certs/reload: bad-request 400, internal 500 with the runtime message', async (t) => {
  recording.answers.certsReload = () => {
    throw new GatewayError('bad-request', 'cert and key do not form a pair');
  };
  const pair = await callJson(admin.port, 'POST', '/certs/reload', { cert: 'C', key: 'K' });
  t.is(pair.status, 400);
  t.deepEqual(pair.json, { status: 'error', message: 'cert and key do not form a pair' });
  recording.answers.certsReload = () => {
    throw new GatewayError('internal', 'writing /etc/gateway/cert.pem failed: EACCES');
  };
  const write = await callJson(admin.port, 'POST', '/certs/reload', { cert: 'C', key: 'K' });
  t.is(write.status, 500);
  t.deepEqual(write.json, { status: 'error', message: 'writing /etc/gateway/cert.pem failed: EACCES' });
});

test.serial('an unexpected runtime failure is 500 "internal error" without a stack; the server keeps answering', async (t) => {
  recording.answers.status = () => {
    throw new TypeError('Cannot read properties of undefined (reading "x")');
  };
  const res = await call(admin.port, 'GET', '/status');
  t.is(res.status, 500);
  t.deepEqual(res.json, { status: 'error', message: 'internal error' });
  t.notRegex(res.text, /at |TypeError/);
  t.true(logs.some((line) => line.includes('TypeError')));
  delete recording.answers.status;
  t.is((await call(admin.port, 'GET', '/status')).status, 200);
});
