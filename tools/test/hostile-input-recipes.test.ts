// Hostile input against the recipe manager reference, kept: bodies over the limit or nested deep, forged
// tokens (alg none, a changed payload, another secret), traversal under /uploads, paging and search values
// meant to make a list expensive, imports aimed at the machine itself, slow clients. Each gets its status and a
// JSON error (or nothing outside the uploads), the server's peak memory stays bounded, and it still answers.
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import test, { type ExecutionContext } from 'ava';
import { listenOnFreePort, releasePorts } from '../../conformance/harness/free-ports.ts';
import { launch, type Launched } from '../../conformance/harness/launch.ts';
import { loadReferenceTargets } from '../../conformance/harness/reference-targets.ts';
import { type Answer, boundedAttack, cutAfterPartHead, refusedAsJson, withSlowClients } from './hostile-support.ts';

const RSS_GROWTH_BOUND_MB = 100;
const SECRET = 'hostile-test-secret-0123456789abcdef';

let server: Launched;
let base: string;
let token: string;

async function call(method: string, path: string, init: { token?: string; body?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(base + path, { method, headers, ...(init.body !== undefined ? { body: init.body } : {}), signal: AbortSignal.timeout(30_000) });
  return { status: res.status, body: await res.text() };
}

test.before(async () => {
  const { recipes: target } = loadReferenceTargets(['recipes']);
  // Imports of private addresses refused, as by default (the suite's target allows them for its own pages).
  server = await launch(target!.command!, { ...target!.env, RECIPES_IMPORT_PRIVATE: '' }, { env: { JWT_SECRET: SECRET } });
  base = `http://127.0.0.1:${server.port}`;
  const account = { email: 'admin@hostile.test', password: 'a long enough password 1', name: 'Admin' };
  const setup = await call('POST', '/api/admin/setup', { body: JSON.stringify(account) });
  if (setup.status >= 300) throw new Error(`setup: ${setup.status} ${setup.body}`);
  const login = await call('POST', '/api/auth/login', { body: JSON.stringify({ email: account.email, password: account.password }) });
  token = (JSON.parse(login.body) as { token: string }).token;
  if (!token) throw new Error(`login: ${login.status} ${login.body}`);
});

test.after.always(async () => {
  await server?.stop();
});

/** Runs `run`, then checks the memory bound and that the server still answers. */
function attack(t: ExecutionContext, run: () => Promise<void>): Promise<void> {
  return boundedAttack(t, server, RSS_GROWTH_BOUND_MB, run, async () => {
    t.is((await call('GET', '/health')).status, 200);
  });
}



const base64url = (value: unknown): string => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

test.serial('bodies: 2 MB is 413, nesting 100,000 deep and cut JSON are 400', async (t) => {
  await attack(t, async () => {
    refusedAsJson(t, await call('POST', '/api/recipes', { token, body: JSON.stringify({ title: 'x'.repeat(2 * 2 ** 20) }) }), 413, '2 MB');
    refusedAsJson(t, await call('POST', '/api/recipes', { token, body: `${'['.repeat(100_000)}${']'.repeat(100_000)}` }), 400, 'nested');
    refusedAsJson(t, await call('POST', '/api/recipes', { token, body: '{"title": ' }), 400, 'cut JSON');
  });
});

test.serial('forged tokens: alg none, a changed payload, another secret, garbage: 401', async (t) => {
  await attack(t, async () => {
    const [, payload] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    const admin = { ...claims, role: 'admin', sub: claims.sub };
    const none = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(admin)}.`;
    const changed = `${token.split('.')[0]}.${base64url({ ...claims, exp: 4_102_444_800 })}.${token.split('.')[2]}`;
    const head = base64url({ alg: 'HS256', typ: 'JWT' });
    const body = base64url(admin);
    const other = `${head}.${body}.${createHmac('sha256', 'another secret').update(`${head}.${body}`).digest('base64url')}`;
    for (const [name, forged] of Object.entries({ none, changed, other, garbage: 'a.b.c', empty: '' })) {
      refusedAsJson(t, await call('GET', '/api/admin/users', { token: forged }), 401, name);
    }
  });
});

test.serial('traversal under /uploads never serves a file outside it', async (t) => {
  await attack(t, async () => {
    for (const path of ['/uploads/../package.json', '/uploads/..%2f..%2fetc%2fpasswd', '/uploads/%2e%2e/%2e%2e/etc/passwd', '/uploads/..\\..\\etc\\passwd']) {
      const answer = await call('GET', path);
      t.true(answer.status >= 400 && answer.status < 500, `${path}: ${answer.status}`);
      t.notRegex(answer.body, /root:|"dependencies"/, path);
    }
  });
});

test.serial('photo uploads cut right after the head of a part: 400 as JSON, and the server lives on', async (t) => {
  const recipe = await call('POST', '/api/recipes', { token, body: JSON.stringify({ title: 'Cut uploads' }) });
  const id = (JSON.parse(recipe.body) as { id: string }).id;
  await attack(t, async () => {
    for (const fields of [['photo'], ['image'], ['image', 'photo'], ['photo', 'photo']]) {
      refusedAsJson(t, await call('POST', `/api/recipes/${id}/photo`, { token, ...cutAfterPartHead(fields) }), 400, fields.join(', '));
    }
  });
});

test.serial('paging and search meant to be expensive: a bounded answer, never a crash', async (t) => {
  await attack(t, async () => {
    const queries = ['limit=1000000000', 'page=-1', 'page=99999999999999999999', 'limit=abc&page=1e400', `q=${encodeURIComponent('(a+)+$'.repeat(200))}`, `q=${'%'.repeat(3)}`, 'tag=a&tag=b&tag=c'.repeat(200)];
    for (const query of queries) {
      const answer = await call('GET', `/api/recipes?${query}`, { token });
      t.true([200, 400].includes(answer.status), `${query.slice(0, 60)}: ${answer.status} ${answer.body.slice(0, 120)}`);
      t.notRegex(answer.body, /\n\s+at /, query.slice(0, 60));
    }
  });
});

test.serial('imports aimed at the machine itself are refused (400) without a request', async (t) => {
  let requests = 0;
  const recorder = createServer((_req, res) => {
    requests++;
    res.end('<html></html>');
  });
  const port = await listenOnFreePort(recorder);
  try {
    await attack(t, async () => {
      for (const url of [`http://127.0.0.1:${port}/recipe`, `http://localhost:${port}/recipe`, 'http://169.254.169.254/latest/meta-data/', 'http://[::1]:1/', 'file:///etc/passwd', 'gopher://127.0.0.1:25/']) {
        const answer = await call('POST', '/api/recipes/import-url', { token, body: JSON.stringify({ url }) });
        refusedAsJson(t, answer, 400, url);
        t.regex(answer.body, /url refused|only http and https/, url);
      }
      t.is(requests, 0, 'the import reached the loopback server');
    });
  } finally {
    recorder.closeAllConnections();
    await new Promise((resolve) => recorder.close(resolve));
    releasePorts([port]);
  }
});

test.serial('slow clients holding 50 connections with half-sent heads do not stop others being served', async (t) => {
  await attack(t, async () => {
    const answer = await withSlowClients(server.port, 'GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ', 50, () => call('GET', '/health'));
    t.is(answer.status, 200);
  });
});
