// GET /api/docs: interactive documentation of the API. The document names no technology, so the must-case
// renders the page in a headless Chromium (whatever draws it: server-side HTML or a script reading a
// machine-readable description) and looks for the API's endpoints in what a reader sees. Swagger UI, its
// "Try it out" and the OpenAPI document behind it are the reference's choices (informational).
import { perFile } from '../harness/per-file.ts';
import { type Browser, chromium, type Page, type Response } from 'playwright-core';
import type { CaseContext } from '../harness/case-context.ts';
import type { CaseOptions } from '../harness/check.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH, check } from '../harness/index.ts';
import { isObject, jsonOf } from './accounts.ts';
import { shown } from './api.ts';
import { sharedInstance } from './target.ts';

const BROWSER: CaseOptions = { needs: ['launch', 'browser'], timeoutMs: 90_000 };
/** Generous: Swagger UI's page renders slowly on a busy 2-core machine. */
const STEP_TIMEOUT_MS = 20_000;

/** Endpoints of the table a reader of the docs must find (as text: with or without the /api prefix). */
const SEEN = ['/auth/login', '/auth/register', '/recipes', '/admin/setup', '/admin/users', '/categories'];

/** The file's one Chromium, started by its first case. */
const browsers = perFile<Browser>((browser) => browser.close());

interface DocsPage {
  page: Page;
  /** The answer to loading /api/docs (after redirects), or why it failed. */
  loaded: Response | null | Error;
}

let docs: Promise<DocsPage> | undefined;

/** /api/docs of the file's recipe manager, loaded once in the file's Chromium for the cases that read it. */
async function docsPage(c: CaseContext, url: string): Promise<DocsPage> {
  docs ??= (async () => {
    const browser = await browsers('chromium', () => chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS }));
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    const loaded = await page.goto(`${url}/api/docs`).catch((err: Error) => err);
    return { page, loaded };
  })();
  c.note(`# ${url}/api/docs in Chromium (${CHROMIUM_PATH})`);
  return c.need(`starting Chromium (${CHROMIUM_PATH}) on ${url}/api/docs`, docs);
}

/** The endpoints of SEEN the page's visible text lacks, once it has them all or after STEP_TIMEOUT_MS. */
async function missingEndpoints(page: Page): Promise<string[]> {
  await page
    .waitForFunction((seen) => seen.every((s) => document.body?.innerText.includes(s)), SEEN, { timeout: STEP_TIMEOUT_MS, polling: 250 })
    .catch(() => undefined);
  const text = await page.evaluate(() => document.body?.innerText ?? '');
  return SEEN.filter((s) => !text.includes(s));
}

check('recipes/docs/interactive-docs/page-lists-endpoints', BROWSER, async (t, c) => {
  const { url } = await sharedInstance(c);
  const { page, loaded } = await docsPage(c, url);
  const status = loaded instanceof Error ? loaded.message : loaded?.status();
  if (!t.true(typeof status === 'number' && status >= 200 && status < 300, `GET /api/docs in a browser: ${status}`)) return;
  t.regex((loaded as Response).headers()['content-type'] ?? '', /^text\/html/, 'GET /api/docs: an HTML page for a browser');
  const missing = await missingEndpoints(page);
  t.deepEqual(missing, [], `the rendered /api/docs page does not show ${missing.join(', ')}`);
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('recipes/docs/format-and-access/swagger-ui-try-it-out', BROWSER, async (t, c) => {
  const { url } = await sharedInstance(c);
  const { page } = await docsPage(c, url);
  c.note('# in the page: GET /api/admin/setup, Try it out, Execute');
  const operation = page.locator('.opblock.opblock-get', { has: page.locator('.opblock-summary-path[data-path$="/admin/setup"]') }).first();
  const opened = await operation
    .locator('.opblock-summary')
    .first()
    .click()
    .then(() => undefined, (err: Error) => err.message);
  if (!t.is(opened, undefined, 'a Swagger UI operation block for GET /api/admin/setup')) return;
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/admin/setup') && r.request().method() === 'GET', { timeout: STEP_TIMEOUT_MS });
  answered.catch(() => undefined);
  const ran = await (async () => {
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();
  })().then(() => undefined, (err: Error) => err.message);
  if (!t.is(ran, undefined, '"Try it out" then "Execute" on GET /api/admin/setup')) return;
  const response = await answered.catch((err: Error) => err);
  t.true(!(response instanceof Error) && response.status() === 200, `the page's call: ${response instanceof Error ? response.message : response.status()}`);
  const shownStatus = await operation
    .locator('.live-responses-table tr.response .response-col_status')
    .first()
    .innerText()
    .catch((err: Error) => err.message);
  t.regex(shownStatus, /200/, 'the status shown under "Server response"');
});

/** Every endpoint of the document's table, as OpenAPI paths. */
const TABLE: [string, string][] = [
  ['post', '/api/auth/register'],
  ['get', '/api/auth/verify-email'],
  ['post', '/api/auth/login'],
  ['get', '/api/auth/me'],
  ['post', '/api/auth/forgot-password'],
  ['post', '/api/auth/reset-password'],
  ['get', '/api/admin/setup'],
  ['post', '/api/admin/setup'],
  ['get', '/api/admin/settings'],
  ['patch', '/api/admin/settings'],
  ['get', '/api/admin/users'],
  ['patch', '/api/admin/users/{id}'],
  ['delete', '/api/admin/users/{id}'],
  ['post', '/api/admin/invites'],
  ['get', '/api/admin/invites'],
  ['delete', '/api/admin/invites/{id}'],
  ['get', '/api/recipes'],
  ['post', '/api/recipes'],
  ['get', '/api/recipes/{id}'],
  ['patch', '/api/recipes/{id}'],
  ['delete', '/api/recipes/{id}'],
  ['post', '/api/recipes/{id}/photo'],
  ['post', '/api/recipes/{id}/steps/{order}/photo'],
  ['post', '/api/recipes/import-url'],
  ['get', '/api/recipes/public'],
  ['get', '/api/recipes/tags'],
  ['post', '/api/recipes/{id}/saved'],
  ['delete', '/api/recipes/{id}/saved'],
  ['get', '/api/categories'],
];

check('recipes/docs/format-and-access/openapi-json-lists-every-endpoint', { needs: ['launch'] }, async (t, c) => {
  const { http } = await sharedInstance(c);
  const page = await http.request({ path: '/api/docs' });
  t.is(page.status, 200, `GET /api/docs without a token: ${shown(page)}`);
  t.regex(String(page.headers['content-type']), /^text\/html/);
  const res = await http.request({ path: '/api/openapi.json' });
  if (!t.is(res.status, 200, `GET /api/openapi.json without a token: ${shown(res)}`)) return;
  const doc = jsonOf(res);
  if (!t.true(isObject(doc) && typeof doc['openapi'] === 'string' && doc['openapi'].startsWith('3.') && isObject(doc['paths']), `an OpenAPI 3 document: ${shown(res)}`)) return;
  const paths = (doc as { paths: Record<string, unknown> }).paths;
  // Path parameters may be named otherwise: compare with every {name} as {}.
  const normal = (p: string) => p.replace(/\{[^}]*\}/g, '{}');
  const have = new Map(Object.entries(paths).map(([p, ops]) => [normal(p), isObject(ops) ? Object.keys(ops) : []]));
  const missing = TABLE.filter(([method, path]) => !have.get(normal(path))?.includes(method)).map(([m, p]) => `${m.toUpperCase()} ${p}`);
  t.deepEqual(missing, [], 'operations of the endpoint table missing from the OpenAPI document');
});
