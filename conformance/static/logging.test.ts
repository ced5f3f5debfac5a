import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { check } from '../harness/index.ts';
import { sleep, until } from './event-stream.ts';
import { refused, runToExit, type Site, startSite } from './site.ts';

const launch = { needs: ['launch'] };

// Every case requests this file (200 with a known length) with a query, so the logged URL, status and
// length all come from the request.
const FILE = { 'public/hello.txt': 'hello world' };
const URL_PATH = '/hello.txt?q=1';
const LENGTH = 11;
const AGENT = 'conform-agent/1.0 (log check)';
const REFERER = 'http://referer.test/from?page=2';
/** How long the request's log line may take to appear (a server may buffer its log output a little), and how
 * long silence must last to count as "no line" (longer than such a buffer). */
const LINE_MS = 5000;
const QUIET_MS = 1500;

// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colour codes (morgan's dev format) are stripped
const ANSI = /\x1b\[[0-9;]*m/g;

/** The non-blank lines of a log output, without colour codes. */
function lines(text: string): string[] {
  return text
    .replace(ANSI, '')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '');
}

/** The lines that log the request for `path`: those naming its method, path and status. Any other line
 * (a start-up banner, the ready line, a warning) is the server's own business. */
function requestLines(text: string, path = URL_PATH): string[] {
  return lines(text).filter((line) => line.includes('GET') && line.includes(path) && / 200\b/.test(line));
}

/** Lines that mention the file at all (no log line may, where logging is off or goes elsewhere). */
function mentioning(text: string): string[] {
  return lines(text).filter((line) => /hello\.txt|missing-page/.test(line));
}

/** Waits until `read()` holds a log line of the request for `path`, and returns those lines. */
async function awaitRequestLines(read: () => string, path = URL_PATH): Promise<string[]> {
  await until(() => requestLines(read(), path).length > 0, LINE_MS);
  return requestLines(read(), path);
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

/** Both output streams: where the log goes without a file is not stated (static/logging/default-output). */
const output = (site: Site) => () => `${site.launched.stdout()}\n${site.launched.stderr()}`;

/** Every log line of the request follows `format`, and there is one. */
function inFormat(t: ExecutionContext, found: string[], format: RegExp, where: string): void {
  if (!t.true(found.length > 0, `no log line for GET ${URL_PATH} (200) within ${LINE_MS} ms in ${where}`)) return;
  t.deepEqual(
    found.filter((line) => !format.test(line)),
    [],
    `log lines of the request not matching ${format}`,
  );
}

check('static/logging/default-dev/dev-line-on-request', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'public' }, files: FILE });
  await c.need(`GET ${URL_PATH}`, site.http.get(URL_PATH, HEADERS));
  inFormat(t, await awaitRequestLines(output(site)), FORMATS.dev, 'stdout or stderr');
});

check('static/logging/default-output/stdout', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'public' }, files: FILE });
  await site.http.get(URL_PATH);
  await awaitRequestLines(output(site));
  t.true(requestLines(site.launched.stdout()).length > 0, `stdout: ${site.launched.stdout()}`);
  t.deepEqual(mentioning(site.launched.stderr()), [], 'log lines on stderr');
});

check('static/logging/false-disables/no-log-lines', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'public', logging: false }, files: FILE });
  const answers = await c.need('the requests', async () => [(await site.http.get(URL_PATH, HEADERS)).status, (await site.http.get('/missing-page')).status]);
  t.log(`answered ${answers.join(', ')}`);
  await sleep(QUIET_MS);
  t.deepEqual(mentioning(site.launched.stdout()), [], 'stdout');
  t.deepEqual(mentioning(site.launched.stderr()), [], 'stderr');
});

check('static/logging/format-default-combined/apache-combined-line', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'public', logging: {} }, files: FILE });
  await c.need(`GET ${URL_PATH}`, site.http.get(URL_PATH, HEADERS));
  inFormat(t, await awaitRequestLines(output(site)), FORMATS.combined, 'stdout or stderr');
});

for (const [format, line] of Object.entries(FORMATS)) {
  check(`static/logging/format-values/${format}`, launch, async (t, c) => {
    const site = await startSite(c, { config: { folders: 'public', logging: { format } }, files: FILE });
    await c.need(`GET ${URL_PATH}`, site.http.get(URL_PATH, HEADERS));
    inFormat(t, await awaitRequestLines(output(site)), line, 'stdout or stderr');
  });
}

check('static/logging/format-invalid/startup-error', launch, async (t, c) => {
  const exit = await runToExit(c, { config: { folders: 'public', logging: { format: 'fancy' } }, files: FILE });
  if (!refused(t, exit, 'logging.format "fancy"')) return;
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
  await c.need(`GET ${URL_PATH}`, site.http.get(URL_PATH));
  await awaitRequestLines(log);
  await c.need('GET /hello.txt?q=2', site.http.get('/hello.txt?q=2'));
  await awaitRequestLines(log, '/hello.txt?q=2');
  const text = log();
  t.true(text.startsWith(EXISTING), `the file no longer starts with its earlier content:\n${text}`);
  const added = lines(text.slice(EXISTING.length));
  const first = added.findIndex((l) => requestLines(l).length > 0);
  const second = added.findIndex((l) => requestLines(l, '/hello.txt?q=2').length > 0);
  t.true(first >= 0 && second > first, `the two requests not logged in order after the earlier content:\n${text}`);
});

check('static/logging/file-only/nothing-on-stdout', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { folders: 'public', logging: { format: 'combined', file: 'access.log' } },
    files: { ...FILE, 'access.log': '' },
  });
  const log = (): string => readFileSync(join(site.dir, 'access.log'), 'utf8');
  await c.need(`GET ${URL_PATH}`, site.http.get(URL_PATH, HEADERS));
  t.true((await awaitRequestLines(log)).length > 0, `no line for the request in the file within ${LINE_MS} ms:\n${log()}`);
  await sleep(QUIET_MS);
  t.deepEqual(mentioning(site.launched.stdout()), [], 'request lines on stdout');
  t.deepEqual(mentioning(site.launched.stderr()), [], 'request lines on stderr');
});
