// Config file forms, defaults, PORT, --config, and the startup errors of the document.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { check, freePorts, listenOnFreePort, releasePorts } from '../harness/index.ts';
import { PROJECT_ROOT } from '../harness/launch.ts';
import { runToExit, startSite } from './site.ts';

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
  const site = await startSite(c, { config: (p) => ({ port: p[0], healthCheck: true }), env: { PORT: undefined } });
  t.is((await site.http.get('/__health__')).status, 200);
});

// The only case on the fixed port 8000 (the documented default); it fails if something else holds 8000.
check('static/config/port-default-8000/no-port-no-env', launch, async (t, c) => {
  const site = await startSite(c, { config: () => ({ healthCheck: true }), env: { PORT: undefined }, listen: [8000] });
  t.is((await site.client(8000).get('/__health__')).status, 200);
});

check('static/config/port-env/port-from-environment', launch, async (t, c) => {
  const site = await startSite(c, { config: () => ({ healthCheck: true }) });
  t.is((await site.http.get('/__health__')).status, 200);
});

check('static/config/port-key-over-env/config-port-wins', launch, async (t, c) => {
  const [envPort] = await freePorts(1);
  const site = await startSite(c, { config: (p) => ({ port: p[0], healthCheck: true }), env: { PORT: String(envPort) } });
  t.is((await site.http.get('/__health__')).status, 200);
  const other = await site.client(envPort!).get('/__health__').catch((err: Error) => err);
  t.true(other instanceof Error, `PORT ${envPort} answered as well`);
});

check('static/config/no-file-defaults/serves-cwd-on-port', launch, async (t, c) => {
  const site = await startSite(c, { config: null, files: { 'hello.txt': 'FROM CWD' } });
  t.is((await site.http.get('/hello.txt')).text, 'FROM CWD');
});

check('static/config/no-file-warning/warns', launch, async (t, c) => {
  const site = await startSite(c, { config: null, files: { 'hello.txt': 'x' } });
  await new Promise((r) => setTimeout(r, 100));
  t.regex(`${site.launched.stderr()}\n${site.launched.stdout()}`, /warn|no config|default/i);
});

check('static/config/no-file-warning-stream/stderr-warning-line', launch, async (t, c) => {
  const site = await startSite(c, { config: null });
  await new Promise((r) => setTimeout(r, 100));
  t.regex(site.launched.stderr(), /^warning: .*server-config\.json/im);
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
  const site = await startSite(c, { config: { folders: 'p' }, files: { 'p/a.txt': 'A' }, env: { NODE_ENV: 'production' } });
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
  t.not(exit.code, 0);
  t.not(exit.code, null, exit.stderr);
});

check('static/startup/duplicate-host-port/same-host-other-port-fine', launch, async (t, c) => {
  const site = await startSite(c, {
    ports: 2,
    config: (p) => [
      { port: p[0], host: 'same.test', healthCheck: true },
      { port: p[1], host: 'same.test', healthCheck: true },
    ],
  });
  t.is((await site.client(site.launched.ports[1]!).get('/__health__', { host: 'same.test' })).status, 200);
});

check('static/startup/duplicate-catch-all/two-catch-alls-rejected', launch, async (t, c) => {
  const exit = await runToExit(c, { config: (p) => [{ port: p[0] }, { port: p[0], host: '*' }] });
  t.is(exit.code, 1);
});

check('static/startup/mixed-ssl-port/exits-with-error', launch, async (t, c) => {
  const exit = await runToExit(c, {
    config: (p) => [
      { port: p[0], host: 'secure.test', ssl: { key: 'tls/key.pem', cert: 'tls/cert.pem' } },
      { port: p[0], host: 'plain.test' },
    ],
    files: tlsFiles(),
  });
  t.not(exit.code, 0);
  t.not(exit.code, null, exit.stderr);
});

check('static/startup/config-file-missing/explicit-missing-file', launch, async (t, c) => {
  const exit = await runToExit(c, { config: null, args: ['--config', 'does-not-exist.json'], files: { 'index.html': 'x' } });
  t.not(exit.code, 0);
  t.not(exit.code, null, exit.stderr);
});

check('static/startup/config-file-missing-message/names-path-exit-1', launch, async (t, c) => {
  const exit = await runToExit(c, { config: null, args: ['--config', 'does-not-exist.json'] });
  t.is(exit.code, 1);
  t.regex(exit.stderr, /does-not-exist\.json/);
});

check('static/startup/error-format/one-error-line-no-stack', launch, async (t, c) => {
  const exit = await runToExit(c, { config: { redirects: [{ from: '/a', to: '/b', status: 200 }] } });
  t.is(exit.code, 1);
  t.regex(exit.stderr, /^error: \S+: .+$/m);
  t.notRegex(exit.stderr, /^\s+at /m);
});

check('static/startup/invalid-json/exit-1', launch, async (t, c) => {
  const exit = await runToExit(c, { config: null, files: { 'server-config.json': '{ "port": 80, ' } });
  t.is(exit.code, 1);
  t.regex(exit.stderr, /server-config\.json/);
});

check('static/startup/invalid-value/names-key', launch, async (t, c) => {
  const exit = await runToExit(c, { config: { port: 'eighty' } });
  t.is(exit.code, 1);
  t.regex(exit.stderr, /port/);
});

check('static/startup/port-in-use/exit-1', launch, async (t, c) => {
  const blocker = createServer();
  const port = await listenOnFreePort(blocker);
  c.defer(async () => {
    await new Promise<void>((r) => blocker.close(() => r()));
    releasePorts([port]);
  });
  const exit = await runToExit(c, { config: { port } });
  t.is(exit.code, 1);
});
