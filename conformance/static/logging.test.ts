import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { check } from '../harness/index.ts';
import { sleep, until } from './event-stream.ts';
import { runToExit, startSite } from './site.ts';

const launch = { needs: ['launch'] };

// Every case requests this file (200 with a known length) with a query, so the logged URL, status and
// length all come from the request.
const FILE = { 'public/hello.txt': 'hello world' };
const URL_PATH = '/hello.txt?q=1';
const LENGTH = 11;
const AGENT = 'conform-agent/1.0 (log check)';
const REFERER = 'http://referer.test/from?page=2';
/** How long a log line may take to appear, and how long silence must last to count as "no line". */
const LINE_MS = 3000;
const QUIET_MS = 700;

// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colour codes (morgan's dev format) are stripped
const ANSI = /\x1b\[[0-9;]*m/g;

/** The lines of a log output without colour codes, the ready line (`listening on ...`) and blank lines. */
function logLines(text: string): string[] {
  return text
    .replace(ANSI, '')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '' && !/^listening on /.test(line));
}

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const ADDR = String.raw`(?:::ffff:)?127\.0\.0\.1`;
const CLF_DATE = String.raw`\[\d{2}/[A-Z][a-z]{2}/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4}\]`;
const MS = String.raw`\d+(?:\.\d+)?`;
const REQUEST = `"GET ${esc(URL_PATH)} HTTP/1\\.1"`;

/** One line per format, as the formats are defined (Apache combined/common and morgan's dev, short, tiny). */
const FORMATS = {
  combined: new RegExp(`^${ADDR} - - ${CLF_DATE} ${REQUEST} 200 ${LENGTH} "${esc(REFERER)}" "${esc(AGENT)}"$`),
  common: new RegExp(`^${ADDR} - - ${CLF_DATE} ${REQUEST} 200 ${LENGTH}$`),
  dev: new RegExp(`^GET ${esc(URL_PATH)} 200 ${MS} ms - ${LENGTH}$`),
  short: new RegExp(`^${ADDR} - GET ${esc(URL_PATH)} HTTP/1\\.1 200 ${LENGTH} - ${MS} ms$`),
  tiny: new RegExp(`^GET ${esc(URL_PATH)} 200 ${LENGTH} - ${MS} ms$`),
} as const;

const HEADERS = { 'user-agent': AGENT, referer: REFERER };

check('static/logging/default-dev/dev-line-on-request', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'public' }, files: FILE });
  t.is((await site.http.get(URL_PATH, HEADERS)).status, 200);
  await until(() => logLines(site.launched.stdout()).length > 0, LINE_MS);
  t.deepEqual(
    logLines(site.launched.stdout()).filter((line) => !FORMATS.dev.test(line)),
    [],
    'lines not in the dev format',
  );
  t.is(logLines(site.launched.stdout()).length, 1, site.launched.stdout());
});

check('static/logging/default-output/stdout', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'public' }, files: FILE });
  await site.http.get(URL_PATH);
  await until(() => site.launched.stdout().includes('/hello.txt'), LINE_MS);
  t.true(site.launched.stdout().includes('/hello.txt'), `stdout: ${site.launched.stdout()}`);
  t.false(site.launched.stderr().includes('/hello.txt'), `stderr: ${site.launched.stderr()}`);
});

check('static/logging/false-disables/no-log-lines', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'public', logging: false }, files: FILE });
  t.is((await site.http.get(URL_PATH, HEADERS)).status, 200);
  t.is((await site.http.get('/missing-page')).status, 404);
  await sleep(QUIET_MS);
  t.deepEqual(logLines(site.launched.stdout()), []);
  t.false(/hello\.txt|missing-page/.test(site.launched.stderr()), `stderr: ${site.launched.stderr()}`);
});

check('static/logging/format-default-combined/apache-combined-line', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'public', logging: {} }, files: FILE });
  await site.http.get(URL_PATH, HEADERS);
  await until(() => logLines(site.launched.stdout()).length > 0, LINE_MS);
  t.deepEqual(logLines(site.launched.stdout()).map((line) => FORMATS.combined.test(line) || line), [true]);
});

for (const [format, line] of Object.entries(FORMATS)) {
  check(`static/logging/format-values/${format}`, launch, async (t, c) => {
    const site = await startSite(c, { config: { folders: 'public', logging: { format } }, files: FILE });
    await site.http.get(URL_PATH, HEADERS);
    await until(() => logLines(site.launched.stdout()).length > 0, LINE_MS);
    t.deepEqual(
      logLines(site.launched.stdout()).map((l) => line.test(l) || l),
      [true],
      `want one line matching ${line}`,
    );
  });
}

check('static/logging/format-invalid/startup-error', launch, async (t, c) => {
  const exit = await runToExit(c, { config: { folders: 'public', logging: { format: 'fancy' } }, files: FILE });
  t.not(exit.code, 0, `process ended with ${exit.code}; stderr: ${exit.stderr}`);
  t.not(exit.code, null, exit.stderr);
  t.regex(exit.stderr, /logging\.format/);
});

// The config file sits in the working directory, so the log path means the same thing whether it is
// resolved against the config file or the working directory (the document does not say which).
const EXISTING = 'existing line 1\nexisting line 2\n';

check('static/logging/file-append/existing-content-kept', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { folders: 'public', logging: { format: 'tiny', file: 'logs/access.log' } },
    files: { ...FILE, 'logs/access.log': EXISTING },
  });
  const log = (): string => readFileSync(join(site.dir, 'logs', 'access.log'), 'utf8');
  await site.http.get(URL_PATH);
  await until(() => logLines(log()).length >= 3, LINE_MS);
  await site.http.get('/hello.txt?q=2');
  await until(() => logLines(log()).length >= 4, LINE_MS);
  t.true(log().startsWith(EXISTING), log());
  const added = logLines(log()).slice(2);
  t.deepEqual(
    added.map((l) => l.replace(/ - [\d.]+ ms$/, '')),
    ['GET /hello.txt?q=1 200 11', 'GET /hello.txt?q=2 200 11'],
  );
});

check('static/logging/file-only/nothing-on-stdout', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { folders: 'public', logging: { format: 'combined', file: 'access.log' } },
    files: { ...FILE, 'access.log': '' },
  });
  const log = (): string => readFileSync(join(site.dir, 'access.log'), 'utf8');
  await site.http.get(URL_PATH, HEADERS);
  await until(() => logLines(log()).length > 0, LINE_MS);
  await sleep(QUIET_MS / 2);
  t.deepEqual(logLines(log()).map((line) => FORMATS.combined.test(line) || line), [true]);
  t.deepEqual(logLines(site.launched.stdout()), []);
  t.false(site.launched.stderr().includes('/hello.txt'), `stderr: ${site.launched.stderr()}`);
});
