import assert from 'node:assert/strict';
import { realpathSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import fc from 'fast-check';
import type { ExecutionContext } from 'ava';
import { check, type HttpResponse } from '../harness/index.ts';
import { shellScript } from './fixtures.ts';
import { startSite } from './site.ts';

const launch = { needs: ['launch'] };
/** A computed marker: a script's source never contains its output, so a served-as-text script is told apart. */
const RAN = 6 * 7;
const FELL_THROUGH = { '*': { status: 418, send: 'FELL THROUGH' } };

/** A shell script that prints a header block and then its whole environment, one NAME=value per line. */
const ENV_SCRIPT = shellScript('exec /usr/bin/env');

/** A shell script that prints `<label> 42`, the 42 computed by the shell. */
const marker = (label: string): { content: string; mode: number } => shellScript(`echo "${label} $((6*7))"`);

function parseEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return env;
}

/** A script ran and its output came back: a 2xx answer whose body holds `output` (how script output becomes
 * status and headers is static/cgi/output-headers). */
function ran(t: ExecutionContext, res: HttpResponse, output: string): boolean {
  return t.true(ranOk(res) && res.text.includes(output), `want a 2xx answer holding ${JSON.stringify(output)}; got ${res.status} ${JSON.stringify(res.text.slice(0, 300))}`);
}

const ranOk = (res: HttpResponse): boolean => res.status >= 200 && res.status < 300;

function same(path: string, expected: string): boolean {
  try {
    return realpathSync(path) === realpathSync(expected);
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- configuration forms

check('static/cgi/string-form/names-script-dir-with-defaults', launch, async (t, c) => {
  const site = await startSite(c, { config: { cgi: 'my scripts' }, files: { 'my scripts/hello.sh': marker('string') } });
  const res = await site.http.get('/cgi-bin/hello.sh');
  ran(t, res, `string ${RAN}`);
});

check('static/cgi/object-form/all-keys-used', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { cgi: { path: '/run', dir: 'jobs', extensions: ['.job'], interpreters: { '.job': '/bin/sh' } } },
    // Not executable: only the configured interpreter can run it.
    files: { 'jobs/task.job': { content: `printf 'Content-Type: text/plain\\r\\n\\r\\n'\necho "job $((6*7))"\n`, mode: 0o644 } },
  });
  const res = await site.http.get('/run/task.job');
  ran(t, res, `job ${RAN}`);
});

check('static/cgi/object-form/missing-keys-take-defaults', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { cgi: { dir: 'scripts' } },
    files: { 'scripts/a.sh': marker('sh'), 'scripts/b.pl': { content: `#!/usr/bin/perl\nprint "Content-Type: text/plain\\r\\n\\r\\n";\nprint "pl ", 6*7, "\\n";\n`, mode: 0o755 } },
  });
  const sh = await site.http.get('/cgi-bin/a.sh');
  const pl = await site.http.get('/cgi-bin/b.pl');
  ran(t, sh, `sh ${RAN}`);
  ran(t, pl, `pl ${RAN}`);
});

check('static/cgi/array-form/every-entry-active', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { cgi: [{ path: '/first', dir: 'one' }, { path: '/second', dir: 'two' }] },
    files: { 'one/a.sh': marker('one'), 'two/b.sh': marker('two') },
  });
  ran(t, await site.http.get('/first/a.sh'), `one ${RAN}`);
  ran(t, await site.http.get('/second/b.sh'), `two ${RAN}`);
  const crossed = await site.http.get('/first/b.sh');
  t.false(crossed.text.includes(`two ${RAN}`), 'a script of the second entry ran under the first entry path');
});

check('static/cgi/default-path/under-cgi-bin', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { cgi: { dir: 'scripts' } },
    files: { 'scripts/hello.sh': marker('default-path') },
  });
  ran(t, await site.http.get('/cgi-bin/hello.sh'), `default-path ${RAN}`);
  t.false((await site.http.get('/scripts/hello.sh')).text.includes(`default-path ${RAN}`), 'the script ran under its directory name');
});

check('static/cgi/default-dir/looked-up-in-cgi-bin', launch, async (t, c) => {
  const site = await startSite(c, { config: { cgi: { path: '/run' } }, files: { 'cgi-bin/hello.sh': marker('default-dir') } });
  const res = await site.http.get('/run/hello.sh');
  ran(t, res, `default-dir ${RAN}`);
});

check('static/cgi/default-dir/empty-object-uses-both-defaults', launch, async (t, c) => {
  const site = await startSite(c, { config: { cgi: {} }, files: { 'cgi-bin/hello.sh': marker('defaults') } });
  ran(t, await site.http.get('/cgi-bin/hello.sh'), `defaults ${RAN}`);
});

// ---------------------------------------------------------------- extensions and interpreters

const HEADER_LINE = 'Content-Type: text/plain\\r\\n\\r\\n';
const DEFAULT_EXTENSION_SCRIPTS: { ext: string; content: string }[] = [
  { ext: '.cgi', content: `#!/bin/sh\nprintf '${HEADER_LINE}'\necho "cgi $((6*7))"\n` },
  { ext: '.pl', content: `#!/usr/bin/perl\nprint "${HEADER_LINE}";\nprint "pl ", 6*7, "\\n";\n` },
  { ext: '.py', content: `#!/usr/bin/python3\nimport sys\nsys.stdout.write("${HEADER_LINE}")\nsys.stdout.write("py %d\\n" % (6*7))\n` },
  { ext: '.sh', content: `#!/bin/sh\nprintf '${HEADER_LINE}'\necho "sh $((6*7))"\n` },
];

for (const { ext, content } of DEFAULT_EXTENSION_SCRIPTS) {
  check(`static/cgi/default-extensions/runs-${ext.slice(1)}`, launch, async (t, c) => {
    const site = await startSite(c, { config: { cgi: 'scripts' }, files: { [`scripts/run${ext}`]: { content, mode: 0o755 } } });
    const res = await site.http.get(`/cgi-bin/run${ext}`);
    ran(t, res, `${ext.slice(1)} ${RAN}`);
  });
}

check('static/cgi/custom-extensions/only-listed-extensions-run', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { cgi: { dir: 'scripts', extensions: ['.run'] } },
    files: { 'scripts/a.run': marker('listed'), 'scripts/b.sh': marker('default-ext'), 'scripts/c.cgi': marker('cgi-ext') },
  });
  ran(t, await site.http.get('/cgi-bin/a.run'), `listed ${RAN}`);
  const sh = await site.http.get('/cgi-bin/b.sh');
  const cgi = await site.http.get('/cgi-bin/c.cgi');
  t.false(sh.text.includes(`default-ext ${RAN}`), '.sh ran although extensions does not list it');
  t.false(cgi.text.includes(`cgi-ext ${RAN}`), '.cgi ran although extensions does not list it');
});

check('static/cgi/interpreters/non-executable-script-run-by-command', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { cgi: { dir: 'scripts', interpreters: { '.py': '/usr/bin/python3', '.pl': '/usr/bin/perl' } } },
    files: {
      'scripts/a.py': { content: `import sys\nsys.stdout.write("${HEADER_LINE}py %d\\n" % (6*7))\n`, mode: 0o644 },
      'scripts/b.pl': { content: `print "${HEADER_LINE}pl ", 6*7, "\\n";\n`, mode: 0o644 },
    },
  });
  const py = await site.http.get('/cgi-bin/a.py');
  const pl = await site.http.get('/cgi-bin/b.pl');
  ran(t, py, `py ${RAN}`);
  ran(t, pl, `pl ${RAN}`);
});

check('static/cgi/interpreters/command-wins-over-file-type', launch, async (t, c) => {
  // Python source under a shell extension: only the configured interpreter can make sense of it.
  const site = await startSite(c, {
    config: { cgi: { dir: 'scripts', interpreters: { '.sh': '/usr/bin/python3' } } },
    files: { 'scripts/odd.sh': { content: `import sys\nsys.stdout.write("${HEADER_LINE}python %d\\n" % (6*7))\n`, mode: 0o644 } },
  });
  const res = await site.http.get('/cgi-bin/odd.sh');
  ran(t, res, `python ${RAN}`);
});

check('static/cgi/interpreters-default/shebang-honoured', launch, async (t, c) => {
  // Perl code in a .sh file: it runs only if the file itself is executed (its shebang), not fed to sh.
  const site = await startSite(c, {
    config: { cgi: 'scripts' },
    files: { 'scripts/perl.sh': { content: `#!/usr/bin/perl\nprint "${HEADER_LINE}";\nprint "perl ", 6*7, "\\n";\n`, mode: 0o755 } },
  });
  const res = await site.http.get('/cgi-bin/perl.sh');
  ran(t, res, `perl ${RAN}`);
});

// ---------------------------------------------------------------- environment

check('static/cgi/environment/request-variables', launch, async (t, c) => {
  const site = await startSite(c, { config: { cgi: 'scripts' }, files: { 'scripts/env.sh': ENV_SCRIPT } });
  const body = 'name=value&x=%C3%BC';
  const query = 'a=1&b=two%20words&c=%C3%BC';
  const res = await site.http.request({
    method: 'POST',
    path: `/cgi-bin/env.sh?${query}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  if (!t.true(ranOk(res), `the script did not run: ${res.status} ${res.text.slice(0, 200)}`)) return;
  const env = parseEnv(res.text);
  t.is(env.REQUEST_METHOD, 'POST');
  t.is(env.QUERY_STRING, query);
  t.is(env.CONTENT_TYPE, 'application/x-www-form-urlencoded');
  t.is(env.CONTENT_LENGTH, String(Buffer.byteLength(body)));
  // Relative or absolute (static/cgi/environment-values), it names the script's file.
  const filename = env.SCRIPT_FILENAME ?? '';
  t.true(same(isAbsolute(filename) ? filename : join(site.dir, filename), join(site.dir, 'scripts', 'env.sh')), `SCRIPT_FILENAME ${env.SCRIPT_FILENAME}`);
  t.is(env.SCRIPT_NAME, '/cgi-bin/env.sh');
  // The server's name: the request's host or the server's own (static/cgi/environment-values).
  t.true((env.SERVER_NAME ?? '') !== '', `SERVER_NAME ${JSON.stringify(env.SERVER_NAME)}`);
  t.is(env.SERVER_PORT, String(site.port));
  t.true(['127.0.0.1', '::ffff:127.0.0.1'].includes(env.REMOTE_ADDR ?? ''), `REMOTE_ADDR ${env.REMOTE_ADDR}`);
});

check('static/cgi/environment/method-and-query-follow-request', launch, async (t, c) => {
  const site = await startSite(c, { config: { cgi: 'scripts' }, files: { 'scripts/env.sh': ENV_SCRIPT } });
  const get = parseEnv((await site.http.get('/cgi-bin/env.sh?only=get')).text);
  const put = parseEnv((await site.http.request({ method: 'PUT', path: '/cgi-bin/env.sh', headers: { 'content-type': 'text/x-conform' }, body: '12345' })).text);
  t.deepEqual([get.REQUEST_METHOD, get.QUERY_STRING], ['GET', 'only=get']);
  t.deepEqual([put.REQUEST_METHOD, put.QUERY_STRING ?? ''], ['PUT', '']);
  t.deepEqual([put.CONTENT_TYPE, put.CONTENT_LENGTH], ['text/x-conform', '5']);
});

check('static/cgi/http-header-variables/one-per-request-header', launch, async (t, c) => {
  const site = await startSite(c, { config: { cgi: 'scripts' }, files: { 'scripts/env.sh': ENV_SCRIPT } });
  const headers = { 'X-Test': 'hello', 'X-Another-Header': 'with spaces, and commas', Accept: 'text/x-conform' };
  const env = parseEnv((await site.http.get('/cgi-bin/env.sh', headers)).text);
  for (const [name, value] of Object.entries(headers)) {
    t.is(env[`HTTP_${name.toUpperCase().replace(/-/g, '_')}`], value, name);
  }
  t.is(env.HTTP_HOST, `127.0.0.1:${site.port}`);
});

check('static/cgi/environment-values/reference-values', launch, async (t, c) => {
  const site = await startSite(c, { config: { cgi: 'scripts' }, files: { 'scripts/env.sh': ENV_SCRIPT } });
  const env = parseEnv((await site.http.get('/cgi-bin/env.sh/extra/path.txt?q=1', { Host: 'Conform.Example:8123', 'X-Multi-Dash-Name': 'v' })).text);
  t.is(env.SERVER_NAME, 'Conform.Example');
  t.is(env.SERVER_PORT, String(site.port));
  t.true(isAbsolute(env.SCRIPT_FILENAME ?? ''), `SCRIPT_FILENAME ${env.SCRIPT_FILENAME} is not absolute`);
  t.is(env.SCRIPT_NAME, '/cgi-bin/env.sh');
  t.is(env.PATH_INFO, '/extra/path.txt');
  t.is(env.GATEWAY_INTERFACE, 'CGI/1.1');
  t.is(env.SERVER_PROTOCOL, 'HTTP/1.1');
  t.is(env.HTTP_X_MULTI_DASH_NAME, 'v');
  t.truthy(env.PATH, 'PATH is missing');
});

// ---------------------------------------------------------------- input and output

/** The script's output ends with the bytes sent (before them, only what a server makes of its header block). */
const echoed = (output: Buffer, sent: Buffer): boolean => output.length >= sent.length && output.subarray(output.length - sent.length).equals(sent);

const ECHO_BODY = shellScript('exec /usr/bin/head -c "$CONTENT_LENGTH"', 'Content-Type: application/octet-stream');

check('static/cgi/body-on-stdin/binary-body-unchanged', launch, async (t, c) => {
  const site = await startSite(c, { config: { cgi: 'scripts' }, files: { 'scripts/echo.sh': ECHO_BODY } });
  // Every byte value, often enough to overflow a pipe buffer.
  const body = Buffer.from(Buffer.alloc(256 * 400, 0).map((_, i) => i % 256));
  const res = await site.http.request({ method: 'POST', path: '/cgi-bin/echo.sh', headers: { 'content-type': 'application/octet-stream' }, body });
  if (!t.true(ranOk(res), `the script did not run: ${res.status}`)) return;
  t.is(res.body.length, body.length);
  t.true(echoed(res.body, body), 'the script saw other bytes than were sent');
});

check('static/cgi/body-on-stdin/any-bytes', { ...launch, timeoutMs: 90_000 }, async (_t, c) => {
  const site = await startSite(c, { config: { cgi: 'scripts' }, files: { 'scripts/echo.sh': ECHO_BODY } });
  await c.property(
    fc.uint8Array({ minLength: 1, maxLength: 20_000 }),
    async (bytes) => {
      const body = Buffer.from(bytes);
      const res = await site.http.request({ method: 'POST', path: '/cgi-bin/echo.sh', headers: { 'content-type': 'application/octet-stream' }, body });
      assert.ok(ranOk(res), `status ${res.status}`);
      assert.ok(echoed(res.body, body), `${body.length} bytes sent, ${res.body.length} other bytes came back`);
    },
    { numRuns: 15 },
  );
});

/**
 * Prints `first`, then waits (at most ~10 s) for a `release` file next to it that the client creates only
 * once `first` has arrived, then says whether it was released. A server that holds the output until the
 * script ends can never deliver `first` in time, so the script times out: no timing guess involved.
 */
const WAITING_SCRIPT = shellScript(
  [
    'echo first',
    'flag="$(/usr/bin/dirname "$0")/release"',
    'i=0',
    'while [ ! -e "$flag" ] && [ "$i" -lt 200 ]; do /bin/sleep 0.05; i=$((i+1)); done',
    'if [ -e "$flag" ]; then echo released; else echo timed-out; fi',
  ].join('\n'),
);

check('static/cgi/output-streamed/early-output-before-script-ends', launch, async (t, c) => {
  const site = await startSite(c, { config: { cgi: 'scripts' }, files: { 'scripts/slow.sh': WAITING_SCRIPT } });
  const res = await site.http.open({ path: '/cgi-bin/slow.sh' });
  c.defer(() => void res.destroy());
  const chunks: string[] = [];
  for await (const chunk of res) {
    chunks.push(String(chunk));
    // Released on the first output only: the script can end early only if that output came while it ran.
    if (chunks.length === 1) writeFileSync(join(site.dir, 'scripts', 'release'), '');
  }
  const all = chunks.join('');
  t.true((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300, `status ${res.statusCode}`);
  t.true(all.includes('first') && !(chunks[0] ?? '').includes('released'), `the first output came together with later output: ${JSON.stringify(chunks)}`);
  t.true(all.includes('released') && !all.includes('timed-out'), `the first output reached the client only after the script ended: ${JSON.stringify(all)}`);
});

check('static/cgi/output-headers/header-block-sets-status-and-headers', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { cgi: 'scripts' },
    files: {
      'scripts/made.sh': {
        content: `#!/bin/sh\nprintf 'Status: 201 Created\\r\\nContent-Type: application/x-conform\\r\\nLocation: /made/1\\r\\nX-Conform: yes\\r\\n\\r\\n'\necho made\n`,
        mode: 0o755,
      },
    },
  });
  const res = await site.http.get('/cgi-bin/made.sh');
  t.is(res.status, 201);
  t.is(res.headers['content-type'], 'application/x-conform');
  t.is(res.headers.location, '/made/1');
  t.is(res.headers['x-conform'], 'yes');
  t.is(res.text, 'made\n');
});

check('static/cgi/output-headers/no-header-block-is-plain-text', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { cgi: 'scripts' },
    files: { 'scripts/bare.sh': { content: `#!/bin/sh\necho "just output"\necho "line two"\n`, mode: 0o755 } },
  });
  const res = await site.http.get('/cgi-bin/bare.sh');
  t.is(res.status, 200);
  t.regex(String(res.headers['content-type']), /^text\/plain\b/);
  t.is(res.text, 'just output\nline two\n');
});

check('static/cgi/url-form/extra-path-is-path-info', launch, async (t, c) => {
  const site = await startSite(c, { config: { cgi: 'scripts' }, files: { 'scripts/env.sh': ENV_SCRIPT } });
  const env = parseEnv((await site.http.get('/cgi-bin/env.sh/a/b?x=1')).text);
  t.deepEqual([env.SCRIPT_NAME, env.PATH_INFO, env.QUERY_STRING], ['/cgi-bin/env.sh', '/a/b', 'x=1']);
});

check('static/cgi/url-form/non-ascii-script-in-folder-with-space', launch, async (t, c) => {
  const site = await startSite(c, { config: { cgi: 'cgi dir' }, files: { 'cgi dir/fünke.sh': ENV_SCRIPT } });
  const env = parseEnv((await site.http.get('/cgi-bin/f%C3%BCnke.sh?q=1')).text);
  t.is(env.QUERY_STRING, 'q=1');
  t.true(same(env.SCRIPT_FILENAME ?? '', join(site.dir, 'cgi dir', 'fünke.sh')), `SCRIPT_FILENAME ${env.SCRIPT_FILENAME}`);
  t.true(['/cgi-bin/fünke.sh', '/cgi-bin/f%C3%BCnke.sh'].includes(env.SCRIPT_NAME ?? ''), `SCRIPT_NAME ${env.SCRIPT_NAME}`);
});

check('static/cgi/url-form/missing-script-falls-through', launch, async (t, c) => {
  const site = await startSite(c, { config: { cgi: 'scripts', unhandled: FELL_THROUGH }, files: { 'scripts/env.sh': ENV_SCRIPT } });
  const res = await site.http.get('/cgi-bin/missing.sh');
  t.deepEqual([res.status, res.text], [418, 'FELL THROUGH']);
});

check('static/cgi/url-form/outside-dir-not-run', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { cgi: 'scripts', unhandled: FELL_THROUGH },
    files: { 'scripts/env.sh': ENV_SCRIPT, 'outside.sh': marker('outside') },
  });
  for (const path of ['/cgi-bin/../outside.sh', '/cgi-bin/%2e%2e/outside.sh', '/cgi-bin/..%2foutside.sh', '/cgi-bin/..%5coutside.sh']) {
    const res = await site.http.get(path);
    t.false(res.text.includes(`outside ${RAN}`), `${path} ran a script outside the cgi dir`);
  }
});

// ---------------------------------------------------------------- failures

check('static/cgi/spawn-failure-500/not-executable-without-interpreter', launch, async (t, c) => {
  const site = await startSite(c, { config: { cgi: 'scripts' }, files: { 'scripts/plain.sh': { ...marker('plain'), mode: 0o644 } } });
  const res = await site.http.get('/cgi-bin/plain.sh');
  t.is(res.status, 500);
});

check('static/cgi/spawn-failure-500/interpreter-missing', launch, async (t, c) => {
  const site = await startSite(c, {
    config: {
      cgi: { dir: 'scripts', interpreters: { '.sh': '/nonexistent/conform-interpreter', '.pl': 'conform-no-such-interpreter' } },
    },
    files: { 'scripts/a.sh': marker('a'), 'scripts/b.pl': marker('b') },
  });
  t.is((await site.http.get('/cgi-bin/a.sh')).status, 500, 'absolute interpreter path that does not exist');
  t.is((await site.http.get('/cgi-bin/b.pl')).status, 500, 'interpreter name not found on PATH');
});

check('static/cgi/spawn-failure-body/short-text-and-server-keeps-running', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { cgi: 'scripts' },
    files: { 'scripts/plain.sh': { ...marker('plain'), mode: 0o644 }, 'scripts/ok.sh': marker('ok') },
  });
  const failed = await site.http.get('/cgi-bin/plain.sh');
  t.is(failed.status, 500);
  t.regex(String(failed.headers['content-type']), /^text\/plain\b/);
  t.true(failed.text.length > 0 && failed.text.length < 200, `body of ${failed.text.length} characters`);
  t.notRegex(failed.text, /\n\s+at |EACCES|ENOENT|node:/, 'the body leaks internals');
  ran(t, await site.http.get('/cgi-bin/ok.sh'), `ok ${RAN}`);
});

check('static/cgi/client-disconnect/script-killed', launch, async (t, c) => {
  const site = await startSite(c, { config: { cgi: 'scripts' }, files: { 'scripts/wait.sh': shellScript('echo "$$"\nexec /bin/sleep 30') } });
  const res = await site.http.open({ path: '/cgi-bin/wait.sh' });
  const first: Buffer = await new Promise((resolve, reject) => {
    res.once('data', resolve);
    res.once('error', reject);
  });
  const pid = Number(String(first).trim());
  res.destroy();
  const alive = (): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const deadline = Date.now() + 5000;
  while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  t.true(Number.isInteger(pid) && pid > 1, `no pid in ${JSON.stringify(String(first))}`);
  t.false(alive(), `script ${pid} still runs 5 s after the client went away`);
  c.defer(() => {
    if (alive()) process.kill(pid, 'SIGKILL');
  });
});
