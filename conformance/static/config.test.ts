// Config file forms, defaults, PORT, --config, and the startup errors of the document.
import { readFileSync, realpathSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fixedPort } from '../harness/fixed-port.ts';
import { type CaseContext, check, freePorts, listenOnFreePort, releasePorts } from '../harness/index.ts';
import { PROJECT_ROOT, portOpen } from '../harness/launch.ts';
import { sleep, until } from './event-stream.ts';
import { DEFAULT_PORT, holdDefaultPort, modeEnv, refused, runToExit, type Site, startSite } from './site.ts';

const launch = { needs: ['launch'] };
const TLS_DIR = join(PROJECT_ROOT, 'fixtures', 'static', 'tls');
const tlsFiles = () => ({
  'tls/key.pem': readFileSync(join(TLS_DIR, 'self-signed.key')),
  'tls/cert.pem': readFileSync(join(TLS_DIR, 'self-signed.crt')),
});

check('static/config/default-file-name/server-config-json-in-cwd', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'from-default-file' }, files: { 'from-default-file/x.txt': 'DEFAULT FILE' } });
  t.is((await site.http.get('/x.txt')).text, 'DEFAULT FILE');
});

check('static/config/default-file-location/current-directory', launch, async (t, c) => {
  const site = await startSite(c, { config: { healthCheck: true } });
  t.is((await site.http.get('/__health__')).status, 200);
});

check('static/config/single-site-object/one-site', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'p', headers: { 'X-One': '1' } }, files: { 'p/a.txt': 'A' } });
  const res = await site.http.get('/a.txt');
  t.is(res.text, 'A');
  t.is(res.headers['x-one'], '1');
});

check('static/config/array-of-sites/every-site-served', launch, async (t, c) => {
  const site = await startSite(c, {
    ports: 3,
    config: (p) => [
      { port: p[0], folders: 'a' },
      { port: p[1], folders: 'b' },
      { port: p[2], folders: 'c' },
    ],
    files: { 'a/w.txt': 'A', 'b/w.txt': 'B', 'c/w.txt': 'C' },
  });
  const texts = await Promise.all(site.launched.ports.map(async (p) => (await site.client(p).get('/w.txt')).text));
  t.deepEqual(texts, ['A', 'B', 'C']);
});

check('static/config/port-key/site-listens-on-port', launch, async (t, c) => {
  const site = await startSite(c, { config: (p) => ({ port: p[0], folders: 'p' }), files: { 'p/x.txt': 'ON PORT' }, env: { PORT: undefined } });
  t.is((await site.http.get('/x.txt')).text, 'ON PORT');
});

// Cases on the documented default port 8000 claim it in the port registry (one at a time across workers),
// and need it free on the machine.
const ON_8000 = { ...launch, applicable: (c: CaseContext) => fixedPort(c, DEFAULT_PORT) };

check('static/config/port-default-8000/no-port-no-env', ON_8000, async (t, c) => {
  const site = await startSite(c, { config: () => ({ folders: 'p' }), files: { 'p/x.txt': 'ON 8000' }, env: { PORT: undefined }, listen: [DEFAULT_PORT] });
  t.is((await site.client(DEFAULT_PORT).get('/x.txt')).text, 'ON 8000');
});

check('static/config/port-env/port-from-environment', launch, async (t, c) => {
  const site = await startSite(c, { config: () => ({ folders: 'p' }), files: { 'p/x.txt': 'ON PORT' } });
  t.is((await site.http.get('/x.txt')).text, 'ON PORT');
});

check('static/config/port-key-over-env/config-port-wins', launch, async (t, c) => {
  const [envPort] = await freePorts(1);
  c.defer(() => releasePorts([envPort!]));
  const site = await startSite(c, { config: (p) => ({ port: p[0], folders: 'p' }), files: { 'p/x.txt': 'ON PORT' }, env: { PORT: String(envPort) } });
  t.is((await site.http.get('/x.txt')).text, 'ON PORT');
  const other = await site.client(envPort!).get('/__health__').catch((err: Error) => err);
  t.true(other instanceof Error, `PORT ${envPort} answered as well`);
});

// Without a config file the defaults are "port 8000" while PORT applies "when the file sets no port": these
// cases leave PORT unset, so both readings mean port 8000 (whether PORT applies without a file is
// static/config/no-file-port-env).
check('static/config/no-file-defaults/serves-cwd-on-port', ON_8000, async (t, c) => {
  const site = await startSite(c, { config: null, files: { 'hello.txt': 'FROM CWD' }, env: { PORT: undefined }, listen: [DEFAULT_PORT] });
  t.is((await site.client(DEFAULT_PORT).get('/hello.txt')).text, 'FROM CWD');
});

/** Output lines with the start's folder and digits blanked (times, process ids, ports), for comparing two
 * starts made in different folders. */
function shape(text: string, dir: string): string[] {
  const folders = [...new Set([dir, realpathSync(dir)])].sort((a, b) => b.length - a.length);
  return text
    .split(/\r?\n/)
    .map((line) => folders.reduce((l, f) => l.split(f).join('<folder>'), line).replace(/\d+/g, '#').trim())
    .filter((line) => line !== '');
}

/** What a start writes on stdout and stderr until it has been quiet for a moment (at most 3 s). */
async function startupOutput(site: Site): Promise<string> {
  const out = () => `${site.launched.stdout()}\n${site.launched.stderr()}`;
  for (let seen = out(), quietSince = Date.now(), start = Date.now(); Date.now() - start < 3000 && Date.now() - quietSince < 700; ) {
    await sleep(100);
    if (out() !== seen) {
      seen = out();
      quietSince = Date.now();
    }
  }
  return out();
}

// A warning in any words, on either stream: a line the server writes without a config file that it does not
// write when started the same way with one.
check('static/config/no-file-warning/warns', ON_8000, async (t, c) => {
  const files = { 'hello.txt': 'x' };
  const withFile = await startSite(c, { config: () => ({ folders: '.' }), files, env: { PORT: undefined }, listen: [DEFAULT_PORT] });
  const usual = new Set(shape(await startupOutput(withFile), withFile.dir));
  await withFile.launched.stop();
  const without = await startSite(c, { config: null, files, env: { PORT: undefined }, listen: [DEFAULT_PORT] });
  const output = await startupOutput(without);
  t.true(
    shape(output, without.dir).some((line) => !usual.has(line)),
    `nothing written without a config file that is not written with one:\n--- without ---\n${output}\n--- with {"folders": "."} ---\n${[...usual].join('\n')}`,
  );
});

check('static/config/no-file-warning-stream/stderr-warning-line', ON_8000, async (t, c) => {
  const site = await startSite(c, { config: null, env: { PORT: undefined }, listen: [DEFAULT_PORT] });
  await until(() => /warning/i.test(site.launched.stderr()), 2000);
  t.regex(site.launched.stderr(), /^warning: .*server-config\.json/im);
});

check('static/config/no-file-port-env/port-env-used', ON_8000, async (t, c) => {
  // Not waiting for a port: a target that serves on 8000 instead is this case's answer, not a failed start.
  const site = await startSite(c, { config: null, files: { 'hello.txt': 'FROM CWD' }, listen: [] });
  let on = false;
  for (const start = Date.now(); !on && Date.now() - start < 30_000; ) {
    on = (await portOpen(site.port)) || (await portOpen(DEFAULT_PORT));
    if (!on) await sleep(100);
  }
  t.true(on, 'the target listened on neither PORT nor 8000 within 30 s');
  t.true(await portOpen(site.port), `not listening on PORT=${site.port}${(await portOpen(DEFAULT_PORT)) ? ' (on 8000 instead)' : ''}`);
});

check('static/config/config-flag-file/named-file-used', launch, async (t, c) => {
  const site = await startSite(c, {
    configName: 'conf/custom name.json',
    args: ['--config', 'conf/custom name.json'],
    config: { folders: 'chosen' },
    files: { 'server-config.json': '{"folders": "decoy"}', 'conf/chosen/x.txt': 'CHOSEN', 'chosen/x.txt': 'CWD COPY', 'decoy/x.txt': 'DECOY' },
  });
  // Relative folders may resolve against the config's folder or the working directory (left open).
  const text = (await site.http.get('/x.txt')).text;
  t.not(text, 'DECOY');
  t.true(['CHOSEN', 'CWD COPY'].includes(text), text);
});

check('static/config/config-flag-directory/server-config-inside', launch, async (t, c) => {
  const site = await startSite(c, {
    configName: 'conf dir/server-config.json',
    args: ['--config', 'conf dir'],
    config: { folders: 'chosen' },
    files: { 'server-config.json': '{"folders": "decoy"}', 'conf dir/chosen/x.txt': 'CHOSEN', 'chosen/x.txt': 'CWD COPY', 'decoy/x.txt': 'DECOY' },
  });
  const text = (await site.http.get('/x.txt')).text;
  t.not(text, 'DECOY');
  t.true(['CHOSEN', 'CWD COPY'].includes(text), text);
});

check('static/config/paths-relative-to-config-dir/folders-resolve-from-config', launch, async (t, c) => {
  const site = await startSite(c, {
    configName: 'conf/server-config.json',
    args: ['--config', 'conf/server-config.json'],
    config: { folders: 'public' },
    files: { 'conf/public/x.txt': 'CONFIG DIR', 'public/x.txt': 'CWD' },
  });
  t.is((await site.http.get('/x.txt')).text, 'CONFIG DIR');
});

check('static/config/node-env-mode/production-indexes-at-start', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'p' }, files: { 'p/a.txt': 'A' }, env: modeEnv(c, 'production') });
  t.is((await site.http.get('/a.txt')).text, 'A');
});

check('static/config/ready-line/listening-on-stdout', launch, async (t, c) => {
  const site = await startSite(c, { config: {} });
  const line = new RegExp(`listening on http://[^\\s]+:${site.port}`);
  // The line may follow the port opening by a moment (longer on a busy machine).
  for (let i = 0; i < 100 && !line.test(site.launched.stdout()); i++) await new Promise((r) => setTimeout(r, 20));
  t.regex(site.launched.stdout(), line);
});

check('static/config/signal-shutdown/sigterm-exits-0', launch, async (t, c) => {
  const site = await startSite(c, { config: {} });
  site.launched.kill('SIGTERM');
  const ended = await site.launched.exited;
  t.is(ended.code, 0);
});

check('static/startup/duplicate-host-port/exits-with-error', launch, async (t, c) => {
  const exit = await runToExit(c, {
    config: (p) => [
      { port: p[0], host: 'same.test', folders: 'a' },
      { port: p[0], host: 'same.test', folders: 'b' },
    ],
  });
  refused(t, exit, 'two sites with host same.test on one port');
});

check('static/startup/duplicate-host-port/same-host-other-port-fine', launch, async (t, c) => {
  const site = await startSite(c, {
    ports: 2,
    config: (p) => [
      { port: p[0], host: 'same.test', folders: 'a' },
      { port: p[1], host: 'same.test', folders: 'b' },
    ],
    files: { 'a/x.txt': 'A', 'b/x.txt': 'B' },
  });
  t.is((await site.client(site.launched.ports[1]!).get('/x.txt', { host: 'same.test' })).text, 'B');
});

check('static/startup/duplicate-catch-all/two-catch-alls-rejected', launch, async (t, c) => {
  const exit = await runToExit(c, { config: (p) => [{ port: p[0] }, { port: p[0], host: '*' }] });
  t.is(exit.code, 1, exit.stderr);
});

check('static/startup/mixed-ssl-port/exits-with-error', launch, async (t, c) => {
  const exit = await runToExit(c, {
    config: (p) => [
      { port: p[0], host: 'secure.test', ssl: { key: 'tls/key.pem', cert: 'tls/cert.pem' } },
      { port: p[0], host: 'plain.test' },
    ],
    files: tlsFiles(),
  });
  refused(t, exit, 'an ssl site and a plain site on one port');
});

// A target falling back to its defaults would serve on PORT or on 8000: both count as not refusing.
check('static/startup/config-file-missing/explicit-missing-file', launch, async (t, c) => {
  const fallback = await holdDefaultPort(c);
  const exit = await runToExit(c, { config: null, args: ['--config', 'does-not-exist.json'], files: { 'index.html': 'x' } }, { alsoServing: [fallback] });
  refused(t, exit, '--config naming a missing file');
});

check('static/startup/config-file-missing-message/names-path-exit-1', launch, async (t, c) => {
  const fallback = await holdDefaultPort(c);
  const exit = await runToExit(c, { config: null, args: ['--config', 'does-not-exist.json'] }, { alsoServing: [fallback] });
  t.is(exit.code, 1, exit.stderr);
  t.regex(exit.stderr, /does-not-exist\.json/);
});

check('static/startup/error-format/one-error-line-no-stack', launch, async (t, c) => {
  const exit = await runToExit(c, { config: { redirects: [{ from: '/a', to: '/b', status: 200 }] } });
  t.is(exit.code, 1, exit.stderr);
  t.regex(exit.stderr, /^error: \S+: .+$/m);
  t.notRegex(exit.stderr, /^\s+at /m);
});

check('static/startup/invalid-json/exit-1', launch, async (t, c) => {
  const fallback = await holdDefaultPort(c);
  const exit = await runToExit(c, { config: null, files: { 'server-config.json': '{ "port": 80, ' } }, { alsoServing: [fallback] });
  t.is(exit.code, 1, exit.stderr);
  t.regex(exit.stderr, /server-config\.json/);
});

check('static/startup/invalid-value/names-key', launch, async (t, c) => {
  const exit = await runToExit(c, { config: { port: 'eighty' } });
  t.is(exit.code, 1, exit.stderr);
  t.regex(exit.stderr, /port/);
});

check('static/startup/port-in-use/exit-1', launch, async (t, c) => {
  const blocker = createServer();
  const port = await listenOnFreePort(blocker);
  c.defer(async () => {
    await new Promise<void>((r) => blocker.close(() => r()));
    releasePorts([port]);
  });
  // The case's own server holds the port: its being open says nothing.
  const exit = await runToExit(c, { config: { port } }, { servingCheck: false });
  t.is(exit.code, 1, exit.stderr);
});
