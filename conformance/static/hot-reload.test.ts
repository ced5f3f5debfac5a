import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, type CaseContext, check, listenOnFreePort, releasePorts } from '../harness/index.ts';
import { EventStreamReader, sleep, until } from './event-stream.ts';
import { fallThroughStatus, type Mode, modeEnv, type Site, type SiteConfig, startSite } from './site.ts';
import { startUpstream } from './upstream.ts';

const launch = { needs: ['launch'] };
const browser = { needs: ['launch', 'browser'] };

const EVENTS = '/__hot-reload__';
const CLIENT = '/__hot-reload__/client.js';
const TAG = `<script src="${CLIENT}"></script>`;
const PAGE = '<!doctype html>\n<html><head><title>hot</title></head><body><h1>hot reload</h1></body></html>\n';
/** A page that loads the documented client script itself: whether the server adds it to pages is its own
 * choice (static/hot-reload/script-injection), and a page loading it twice is still one page. */
const OWN_PAGE = `<!doctype html>\n<html><head><title>hot</title></head><body><h1>hot reload</h1>${TAG}</body></html>\n`;
/** How long a change may take to reach a connected client. */
const NOTIFY_MS = 5000;

/** A site with hotReload on, watching `public/`, in development mode unless `mode` says otherwise (how a
 * mode is selected: the description's `modeEnv`). */
function hotSite(c: CaseContext, extra: SiteConfig = {}, files: Record<string, string> = {}, mode: Mode = 'development'): Promise<Site> {
  return startSite(c, {
    config: { folders: 'public', hotReload: true, ...extra },
    files: { 'public/index.html': PAGE, 'public/sub/keep.txt': 'keep', ...files },
    env: modeEnv(c, mode),
  });
}

async function openEvents(c: CaseContext, site: Site): Promise<EventStreamReader> {
  const reader = new EventStreamReader(await site.http.open({ path: EVENTS, headers: { accept: 'text/event-stream' } }));
  c.defer(() => reader.close());
  return reader;
}

/**
 * Writes `file` (new content each time) until `arrived` holds: the watcher may still be starting when the
 * first write happens, and any event after a real change counts.
 */
async function changeUntil(file: string, arrived: () => boolean, ms = NOTIFY_MS): Promise<boolean> {
  const deadline = Date.now() + ms;
  let n = 0;
  while (Date.now() < deadline) {
    writeFileSync(file, `change ${++n} at ${Date.now()}\n`);
    if (await until(arrived, Math.min(700, deadline - Date.now()))) return true;
  }
  return arrived();
}

// ---------------------------------------------------------------- endpoints over HTTP

check('static/hot-reload/event-stream/text-event-stream-stays-open', launch, async (t, c) => {
  const site = await hotSite(c);
  const reader = await openEvents(c, site);
  t.is(reader.response.statusCode, 200);
  t.regex(String(reader.response.headers['content-type']), /^text\/event-stream\b/i);
  await sleep(1500);
  t.false(reader.ended, 'the event stream ended on its own');
});

check('static/hot-reload/client-script/served-as-javascript', launch, async (t, c) => {
  const site = await hotSite(c);
  const res = await site.http.get(CLIENT);
  const served = t.is(res.status, 200);
  // Any JavaScript MIME type a browser runs (a page may send nosniff).
  const script = t.regex(String(res.headers['content-type']), /^(application|text)\/(javascript|ecmascript|x-javascript|x-ecmascript|jscript|livescript)\b/i);
  // A script may build the stream's address instead of writing it out: that it connects is then seen only
  // in a browser (static/hot-reload/client-reloads/page-reloads-on-change, capability browser).
  if (served && script && !res.text.includes(EVENTS)) {
    c.inconclusive(`the script does not write out ${EVENTS}; whether it connects is seen by the browser case of static/hot-reload/client-reloads:\n${res.text.slice(0, 600)}`);
  }
});

// "Fall through like other paths": the answer of a path nothing handles, whichever status that is
// (static/unhandled/default-404 judges it).
check('static/hot-reload/off-when-unset/absent-key-404', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'public' }, files: { 'public/index.html': PAGE }, env: modeEnv(c, 'development') });
  const events = await site.http.request({ path: EVENTS, timeoutMs: 5000 });
  const client = await site.http.request({ path: CLIENT, timeoutMs: 5000 });
  const other = await fallThroughStatus(c, site);
  t.is(events.status, other);
  t.is(client.status, other);
});

check('static/hot-reload/off-when-unset/false-falls-through', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { folders: 'public', hotReload: false, unhandled: { '*': { status: 404, send: 'FELL THROUGH' } } },
    files: { 'public/index.html': PAGE },
    env: modeEnv(c, 'development'),
  });
  const events = await site.http.request({ path: EVENTS, timeoutMs: 5000 });
  const client = await site.http.request({ path: CLIENT, timeoutMs: 5000 });
  t.deepEqual([events.status, events.text], [404, 'FELL THROUGH']);
  t.deepEqual([client.status, client.text], [404, 'FELL THROUGH']);
});

check('static/hot-reload/off-when-unset/false-paths-forwarded-by-proxy', launch, async (t, c) => {
  const up = await startUpstream(c, 'up');
  const site = await startSite(c, { config: { hotReload: false, proxy: up.url }, env: modeEnv(c, 'development') });
  const events = await site.http.request({ path: EVENTS, timeoutMs: 5000 });
  const client = await site.http.request({ path: CLIENT, timeoutMs: 5000 });
  t.deepEqual([events.headers['x-upstream'], client.headers['x-upstream']], ['up', 'up']);
  t.deepEqual(up.received.map((r) => r.url), [EVENTS, CLIENT]);
});

check('static/hot-reload/development-only/production-has-no-endpoints', launch, async (t, c) => {
  const site = await hotSite(c, {}, {}, 'production');
  const events = await site.http.request({ path: EVENTS, timeoutMs: 5000 });
  const client = await site.http.request({ path: CLIENT, timeoutMs: 5000 });
  const other = await fallThroughStatus(c, site);
  t.is(events.status, other);
  t.not(String(events.headers['content-type']).split(';')[0], 'text/event-stream');
  t.is(client.status, other);
});

check('static/hot-reload/production-warning/warns-on-stderr', launch, async (t, c) => {
  const site = await hotSite(c, {}, {}, 'production');
  await until(() => /hot-?reload/i.test(site.launched.stderr()), 2000);
  t.regex(site.launched.stderr(), /hot-?reload/i);
});

check('static/hot-reload/notifies-on-change/event-after-file-write', launch, async (t, c) => {
  const site = await hotSite(c);
  const reader = await openEvents(c, site);
  await sleep(300); // whatever the server sends on connect is not the change event
  const before = reader.messages.length;
  const arrived = await changeUntil(join(site.dir, 'public', 'changed.txt'), () => reader.messages.length > before);
  t.true(arrived, `no event within ${NOTIFY_MS} ms of writing public/changed.txt`);
  t.false(reader.ended);
});

check('static/hot-reload/event-names/connected-then-reload', launch, async (t, c) => {
  const site = await hotSite(c);
  const reader = await openEvents(c, site);
  await until(() => reader.messages.length > 0, 2000);
  t.is(reader.messages[0]?.event, 'connected');
  const arrived = await changeUntil(join(site.dir, 'public', 'changed.txt'), () => reader.messages.some((m) => m.event === 'reload'));
  t.true(arrived, `no "reload" event within ${NOTIFY_MS} ms; got ${JSON.stringify(reader.messages)}`);
});

check('static/hot-reload/event-payload/json-path-relative-to-folder', launch, async (t, c) => {
  const site = await hotSite(c);
  const reader = await openEvents(c, site);
  const reloads = () => reader.messages.filter((m) => m.event === 'reload');
  await changeUntil(join(site.dir, 'public', 'sub', 'fünke page.txt'), () => reloads().length > 0);
  t.deepEqual(JSON.parse(reloads()[0]?.data ?? 'null'), { path: 'sub/fünke page.txt' });
});

check('static/hot-reload/event-payload/quick-changes-one-reload', launch, async (t, c) => {
  const site = await hotSite(c);
  const reader = await openEvents(c, site);
  const reloads = () => reader.messages.filter((m) => m.event === 'reload');
  // Make sure the watcher runs, then let it settle.
  await changeUntil(join(site.dir, 'public', 'warm-up.txt'), () => reloads().length > 0);
  await sleep(400);
  const before = reloads().length;
  const burst = ['a.txt', 'b.txt', 'c.txt'];
  for (const name of burst) writeFileSync(join(site.dir, 'public', name), name);
  // Wait for the first reload (a loaded machine may be slow), then give any extra one time to show up.
  await until(() => reloads().length > before, 5000);
  await sleep(600);
  const after = reloads().slice(before);
  t.is(after.length, 1, `a burst of ${burst.length} writes gave ${JSON.stringify(after)}`);
  t.true(burst.includes((JSON.parse(after[0]?.data ?? '{}') as { path?: string }).path ?? ''), JSON.stringify(after));
});

check('static/hot-reload/keep-alive/comment-line-within-35s', { ...launch, timeoutMs: 50_000 }, async (t, c) => {
  const site = await hotSite(c);
  const reader = await openEvents(c, site);
  const arrived = await until(() => reader.comments.length > 0, 35_000);
  t.true(arrived, 'no SSE comment line on an idle stream within 35 s');
  t.false(reader.ended);
});

check('static/hot-reload/script-injection/inserted-before-body-end', launch, async (t, c) => {
  const site = await hotSite(c, {}, { 'public/plain.txt': 'text</body>' });
  const page = await site.http.get('/index.html');
  t.is(page.text, PAGE.replace('</body>', `${TAG}</body>`));
  t.is(Number(page.headers['content-length'] ?? page.body.length), page.body.length);
  t.is((await site.http.get('/')).text, page.text);
  t.is((await site.http.get('/plain.txt')).text, 'text</body>');
});

check('static/hot-reload/script-injection/appended-without-body', launch, async (t, c) => {
  const site = await hotSite(c, {}, { 'public/bare.html': '<p>no body element</p>' });
  const page = await site.http.get('/bare.html');
  t.is(page.text, `<p>no body element</p>${TAG}`);
});

check('static/hot-reload/script-injection/not-in-production', launch, async (t, c) => {
  const site = await hotSite(c, {}, {}, 'production');
  t.is((await site.http.get('/index.html')).text, PAGE);
});

check('static/hot-reload/order-position/before-basic-auth', launch, async (t, c) => {
  const site = await hotSite(c, { basicAuth: { users: { user: 'secret' } } });
  t.is((await site.http.get('/index.html')).status, 401);
  t.is((await site.http.get(CLIENT)).status, 200);
  const reader = await openEvents(c, site);
  t.is(reader.response.statusCode, 200);
});

check('static/hot-reload/order-position/before-rate-limit', launch, async (t, c) => {
  const site = await hotSite(c, { rateLimit: { limit: 1 } });
  const scripts = [];
  for (let i = 0; i < 3; i++) scripts.push((await site.http.get(CLIENT)).status);
  t.deepEqual(scripts, [200, 200, 200]);
  // The limit is live, and the script requests did not count against it.
  t.is((await site.http.get('/index.html')).status, 200);
  t.is((await site.http.get('/index.html')).status, 429);
});

// ---------------------------------------------------------------- the client script in a browser

async function openBrowser(c: CaseContext) {
  const instance = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  c.defer(() => instance.close());
  return instance;
}

/** `fn`'s value in the page once it stays put. The case writes a change every 700 ms until the page reloads,
 * so on a slow machine a later change can reload it once more: that navigation destroys the context an
 * evaluation runs in, and the value is asked again of the page it brought. */
async function settledEvaluate<T>(page: Page, fn: () => T): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    await page.waitForLoadState('load');
    try {
      return await page.evaluate(fn);
    } catch (error) {
      if (attempt >= 5 || !/Execution context was destroyed/.test(String(error))) throw error;
    }
  }
}

check('static/hot-reload/client-reloads/page-reloads-on-change', browser, async (t, c) => {
  const site = await hotSite(c, {}, { 'public/own.html': OWN_PAGE });
  const page = await (await openBrowser(c)).newPage();
  let loads = 0;
  page.on('load', () => {
    loads += 1;
  });
  const connected = page.waitForResponse((r) => new URL(r.url()).pathname === EVENTS, { timeout: 10_000 });
  const url = `http://127.0.0.1:${site.port}/own.html`;
  await c.need(`loading ${url}`, page.goto(url));
  await c.need('the page connecting to the event stream', connected);
  await page.evaluate(() => {
    (globalThis as { beforeChange?: boolean }).beforeChange = true;
  });
  const reloaded = await changeUntil(join(site.dir, 'public', 'changed.txt'), () => loads >= 2, 8000);
  t.true(reloaded, `the page loaded ${loads} time(s); no reload within 8 s of the change`);
  t.is(await settledEvaluate(page, () => (globalThis as { beforeChange?: boolean }).beforeChange), undefined);
  t.is(page.url(), url);
});

interface StreamRequest {
  at: number;
  req: IncomingMessage;
  res: ServerResponse;
  open: boolean;
}

/** A pass-through HTTP proxy to the target that records the event-stream requests going through it. */
async function streamProxy(c: CaseContext, targetPort: number): Promise<{ port: number; streams: StreamRequest[] }> {
  const streams: StreamRequest[] = [];
  const server = createServer((req, res) => {
    const entry = req.url?.split('?')[0] === EVENTS ? { at: Date.now(), req, res, open: false } : undefined;
    if (entry) streams.push(entry);
    const upstream = httpRequest(
      { host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers, agent: false },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        res.flushHeaders();
        if (entry) entry.open = true;
        upRes.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  const port = await listenOnFreePort(server);
  c.defer(async () => {
    await new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    });
    releasePorts([port]);
  });
  return { port, streams };
}

check('static/hot-reload/client-reconnects-3s/reconnects-3s-after-drop', { ...browser, timeoutMs: 60_000 }, async (t, c) => {
  const site = await hotSite(c, {}, { 'public/own.html': OWN_PAGE });
  const proxy = await streamProxy(c, site.port);
  const page = await (await openBrowser(c)).newPage();
  await c.need('loading the page', page.goto(`http://127.0.0.1:${proxy.port}/own.html`));
  const opened = await until(() => proxy.streams[0]?.open === true, 10_000);
  if (!t.true(opened, 'the page never opened the event stream')) return;
  // The page may hold more than one client (its own script tag and one the server adds): drop them all.
  await sleep(500);
  const before = proxy.streams.length;
  const droppedAt = Date.now();
  for (const stream of proxy.streams) stream.req.socket.destroy();
  const again = await until(() => proxy.streams.length > before, 8000);
  if (!t.true(again, 'no new event-stream request within 8 s of the drop')) return;
  const gap = proxy.streams[before]!.at - droppedAt;
  t.log(`gap ${gap}`);
  t.true(gap >= 2500 && gap <= 5000, `reconnected ${gap} ms after the drop (want 2500..5000)`);
});
