import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { ConfigError } from '../config/config-error.ts';
import type { SiteContext } from '../site/handler.ts';
import { serve } from '../site/serve-for-tests.ts';
import { createCgiHandler, normalizeCgi, scanHeaderBlock } from './cgi.ts';

const ctx: SiteContext = { baseDir: '/srv/site', mode: 'development', warn: () => {} };

/** A scripts directory with an awkward name, and a sibling the scripts must never reach. */
async function scripts(files: Record<string, [string, number]>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'cgi-test-'));
  const dir = join(root, 'cgi bin #ü');
  await mkdir(join(dir, 'sub'), { recursive: true });
  await writeFile(join(root, 'outside.sh'), '#!/bin/sh\necho outside\n', { mode: 0o755 });
  for (const [name, [body, mode]] of Object.entries(files)) {
    await writeFile(join(dir, name), body);
    await chmod(join(dir, name), mode);
  }
  return dir;
}

test('normalizeCgi: accepted forms and defaults', (t) => {
  const defaults = { path: '/cgi-bin', dir: '/srv/site/cgi-bin', extensions: ['.cgi', '.pl', '.py', '.sh'] };
  t.deepEqual(normalizeCgi('scripts', 'cgi', ctx), [{ ...defaults, dir: '/srv/site/scripts', interpreters: {} }]);
  t.deepEqual(normalizeCgi({}, 'cgi', ctx), [{ ...defaults, interpreters: {} }]);
  t.deepEqual(
    normalizeCgi([{ path: '/run/', extensions: ['rb', '.PY'], interpreters: { py: 'python3 -u' } }], 'cgi', ctx),
    [{ ...defaults, path: '/run', extensions: ['.rb', '.py'], interpreters: { '.py': ['python3', '-u'] } }],
  );
});

const badConfigs: [unknown, string][] = [
  [42, 'cgi'],
  ['', 'cgi'],
  [[{}, 'x'], 'cgi[1]'],
  [[{}, { extensions: '.sh' }], 'cgi[1].extensions'],
  [{ extensions: [1] }, 'cgi.extensions'],
  [{ path: 'cgi' }, 'cgi.path'],
  [{ dir: 3 }, 'cgi.dir'],
  [{ interpreters: [] }, 'cgi.interpreters'],
  [{ interpreters: { '.py': '' } }, 'cgi.interpreters[".py"]'],
  [{ bogus: true }, 'cgi.bogus'],
];
for (const [value, key] of badConfigs) {
  test(`normalizeCgi: ${JSON.stringify(value)} is rejected naming ${key}`, (t) => {
    const error = t.throws(() => normalizeCgi(value, 'cgi', ctx), { instanceOf: ConfigError });
    t.is(error?.key, key);
  });
}

test('scanHeaderBlock: waits for the blank line, accepts LF and CRLF, rejects non-header output', (t) => {
  t.is(scanHeaderBlock(Buffer.from('Content-Ty')), 'incomplete');
  t.is(scanHeaderBlock(Buffer.from('Content-Type: text/html\r\n')), 'incomplete');
  const head = 'Status: 201 Created\nX-A:  b \r\n\r\n';
  t.deepEqual(scanHeaderBlock(Buffer.from(`${head}body`)), {
    headers: [
      ['Status', '201 Created'],
      ['X-A', 'b'],
    ],
    bodyStart: head.length,
  });
  t.is(scanHeaderBlock(Buffer.from('hello world\n')), 'none');
  t.is(scanHeaderBlock(Buffer.from('\nbody')), 'none');
});

test('cgi handler: env, stdin, headers, interpreter, fall-through and spawn failures', async (t) => {
  const dir = await scripts({
    'env.sh': ['#!/bin/sh\nprintf "Status: 201 Created\\r\\nX-Env: %s|%s|%s|%s\\r\\n\\r\\n" "$SCRIPT_NAME" "$PATH_INFO" "$QUERY_STRING" "$HTTP_X_TEST_NAME"\ncat\n', 0o755],
    'run.py': ['print("Content-Type: text/plain")\nprint()\nprint("from python")\n', 0o644],
    'plain.sh': ['echo not executable\n', 0o644],
    'nohead.sh': ['#!/bin/sh\necho just text\n', 0o755],
    'notes.txt': ['#!/bin/sh\necho never\n', 0o755],
  });
  const options = normalizeCgi({ dir, interpreters: { '.py': 'python3' } }, 'cgi', ctx);
  const server = await serve(createCgiHandler(options, ctx));
  t.teardown(async () => {
    await server.close();
    await rm(join(dir, '..'), { recursive: true, force: true });
  });

  const posted = await fetch(`${server.url}/cgi-bin/env.sh/a/b?x=1`, {
    method: 'POST',
    body: 'the body',
    headers: { 'X-Test-Name': 'yes' },
  });
  t.is(posted.status, 201);
  t.is(posted.headers.get('x-env'), '/cgi-bin/env.sh|/a/b|x=1|yes');
  t.is(await posted.text(), 'the body');

  const python = await fetch(`${server.url}/cgi-bin/run.py`);
  t.is(python.status, 200);
  t.is(await python.text(), 'from python\n');

  const plain = await fetch(`${server.url}/cgi-bin/nohead.sh`);
  t.is(plain.headers.get('content-type'), 'text/plain');
  t.is(await plain.text(), 'just text\n');

  const failed = await fetch(`${server.url}/cgi-bin/plain.sh`);
  t.is(failed.status, 500);
  t.notRegex(await failed.text(), /\bat \//);

  for (const path of ['/cgi-bin/missing.sh', '/cgi-bin/notes.txt', '/cgi-bin/%2e%2e/outside.sh', '/cgi-bin/env.sh%00']) {
    t.is((await fetch(`${server.url}${path}`)).status, 404, path);
  }
  t.is((await fetch(`${server.url}/cgi-bin/%E0%A4%A.sh`)).status, 400);
});

test('cgi handler: a header name with an underscore never reaches the environment (it would pose as the dashed one)', async (t) => {
  const dir = await scripts({ 'who.sh': ['#!/bin/sh\nprintf "Content-Type: text/plain\\n\\n[%s]" "$HTTP_X_USER"\n', 0o755] });
  const server = await serve(createCgiHandler(normalizeCgi({ dir }, 'cgi', ctx), ctx));
  t.teardown(async () => {
    await server.close();
    await rm(join(dir, '..'), { recursive: true, force: true });
  });
  const get = async (headers: Record<string, string>) => (await fetch(`${server.url}/cgi-bin/who.sh`, { headers })).text();
  t.is(await get({ 'X-User': 'alice', X_User: 'admin' }), '[alice]');
  t.is(await get({ X_User: 'admin' }), '[]');
  t.is(await get({ 'X-User': 'alice' }), '[alice]');
});

test('cgi handler: a missing interpreter is a 500', async (t) => {
  const dir = await scripts({ 'x.py': ['print(1)\n', 0o644] });
  const options = normalizeCgi({ dir, interpreters: { '.py': 'no-such-interpreter-here' } }, 'cgi', ctx);
  const server = await serve(createCgiHandler(options, ctx));
  t.teardown(async () => {
    await server.close();
    await rm(join(dir, '..'), { recursive: true, force: true });
  });
  t.is((await fetch(`${server.url}/cgi-bin/x.py`)).status, 500);
});

test('cgi handler: output is streamed before the script ends', async (t) => {
  const dir = await scripts({
    'slow.sh': ['#!/bin/sh\nprintf "Content-Type: text/plain\\n\\nfirst\\n"\nsleep 2\necho second\n', 0o755],
  });
  const server = await serve(createCgiHandler(normalizeCgi({ dir }, 'cgi', ctx), ctx));
  t.teardown(async () => {
    await server.close();
    await rm(join(dir, '..'), { recursive: true, force: true });
  });
  const started = Date.now();
  const res = await fetch(`${server.url}/cgi-bin/slow.sh`);
  const reader = res.body!.getReader();
  const first = await reader.read();
  t.is(Buffer.from(first.value ?? []).toString(), 'first\n');
  t.true(Date.now() - started < 1500);
  await reader.cancel();
});
