// The browser client as the suite drives it: one headless Chromium per test file (a context per case), the
// page at the gateway, and the forms named by the target description's `page` (CSS selectors: where the
// reference's page has them, see reference-target/description.json). Every request the page makes to
// /api/ is recorded with its status and time.
import pLimit from 'p-limit';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { CaseContext } from '../harness/case-context.ts';
import type { CaseOptions } from '../harness/check.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../harness/environment.ts';
import { perFile } from '../harness/per-file.ts';
import { target } from './target.ts';

/** Cases driving the page: a `cmd:` gateway, a Chromium here, and a description of the page's forms. */
export const PAGE: CaseOptions = { needs: ['launch', 'browser', 'client-page'], timeoutMs: 90_000 };

/** A form of the page: fields (by role), the submit button, where the answer and the error appear. */
export interface PageForm {
  submit: string;
  result?: string;
  error?: string;
  player?: string;
  [field: string]: string | undefined;
}

export interface PageDescription {
  /** Path of the page on the gateway. */
  path: string;
  translate: PageForm;
  detect: PageForm;
  synthesize: PageForm;
  localize?: PageForm;
  transcribe?: PageForm;
}

/** The page description (capability `client-page`). */
export function pageDescription(): PageDescription {
  const page = target?.description?.page as PageDescription | undefined;
  if (!page) throw new Error('translate-web: the target description has no "page" (capability client-page)');
  for (const name of ['translate', 'detect', 'synthesize'] as const) {
    if (typeof page[name]?.submit !== 'string') throw new Error(`translate-web: the target description's page has no ${name} form with a submit selector`);
  }
  return page;
}

/** How long a step on the page (a click, a fill) may wait for its element. */
const STEP_TIMEOUT_MS = 10_000;

/** How long loading the page may take, once its turn has come. */
const LOAD_TIMEOUT_MS = 30_000;

/** Pages being opened at once. Each costs a renderer process and about half a second of CPU when the machine
 * is idle: the file's cases all opening theirs together took over 10 s each on a loaded CI machine. One at a
 * time, a page's load is timed on its own, not behind its neighbours'. */
const opening = pLimit(1);

/** The file's one Chromium, started by its first page. */
const browsers = perFile<Browser>((browser) => browser.close());

export interface ApiRequest {
  path: string;
  /** 0 until (or unless) a response came. */
  status: number;
  /** When the page sent it. */
  at: number;
  /** When its answer came (0: not yet). */
  answeredAt: number;
  method: string;
  /** The request body as text ('' for none). */
  body: string;
}

export interface OpenedPage {
  page: Page;
  /** The page's requests to /api/…, in order, with their statuses (0: no response). */
  requests: ApiRequest[];
  form: PageDescription;
}

/** The page of the gateway at `url` in a fresh browser context, closed when the case ends. */
export async function openPage(c: CaseContext, url: string): Promise<OpenedPage> {
  const form = await c.need('the page description', () => pageDescription());
  const browser = await browsers('chromium', () =>
    chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, '--autoplay-policy=no-user-gesture-required'] }),
  );
  const context = await browser.newContext();
  c.defer(() => context.close());
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  const requests: ApiRequest[] = [];
  const sent = new Map<object, ApiRequest>();
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (!path.startsWith('/api/')) return;
    const entry = { path, status: 0, at: Date.now(), answeredAt: 0, method: request.method(), body: request.postDataBuffer()?.toString('latin1') ?? '' };
    requests.push(entry);
    sent.set(request, entry);
  });
  page.on('response', (response) => {
    const entry = sent.get(response.request());
    if (entry) {
      entry.status = response.status();
      entry.answeredAt = Date.now();
    }
  });
  const address = new URL(form.path, url).href;
  c.note(`# page: ${address} in Chromium (${CHROMIUM_PATH})`);
  await c.need(`loading the page ${address}`, opening(() => page.goto(address, { timeout: LOAD_TIMEOUT_MS })));
  return { page, requests, form };
}

/** Fills the form's fields (by role: a text field, or a select by option value) and submits it. A role the
 * description leaves out is not filled (the page's own value stands), except `text`. */
export async function submit(c: CaseContext, page: Page, form: PageForm, values: Record<string, string>): Promise<void> {
  await c.need(`filling and submitting the form with submit button ${form.submit}`, async () => {
    for (const [role, value] of Object.entries(values)) {
      const selector = form[role];
      if (!selector) {
        if (role === 'text') throw new Error('the page description has no text field for this form');
        continue;
      }
      const tag = await page.$eval(selector, (element) => element.tagName);
      if (tag !== 'SELECT') await page.fill(selector, value);
      else if (await offers(page, selector, value)) await page.selectOption(selector, value);
      // Which languages a page offers, and by which option values, is its own: one it lacks leaves its choice.
      else c.note(`# ${selector} offers no option ${value}: the page's own choice stands`);
    }
    await page.click(form.submit);
  });
}

/** Whether the <select> at `selector` has an option whose value or label is `value`. */
function offers(page: Page, selector: string, value: string): Promise<boolean> {
  return page.$eval(selector, (element, wanted) => [...(element as HTMLSelectElement).options].some((o) => o.value === wanted || o.label === wanted), value);
}

/** How long the page may stay quiet (no request to its route under way or sent) before a case stops
 * waiting for an answer it shows; and the longest wait in all. */
const QUIET_MS = 15_000;
const ANSWER_LIMIT_MS = 70_000;

/** The text of `selector` once it includes `expected`; or, when the page has gone quiet on `path` (its
 * last request answered QUIET_MS ago) or ANSWER_LIMIT_MS passed, what it shows then. */
export async function answerShown(page: Page, selector: string, expected: string, requests: ApiRequest[], path: string): Promise<string> {
  const read = async () => (await page.evaluate((s) => document.querySelector(s)?.textContent ?? '', selector).catch(() => '')).trim();
  const started = Date.now();
  for (const until = started + ANSWER_LIMIT_MS; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
    const text = await read();
    if (text.includes(expected)) return text;
    const mine = requests.filter((r) => r.path === path);
    if (mine.some((r) => r.answeredAt === 0)) continue; // one is under way
    if (Date.now() - Math.max(started, ...mine.map((r) => r.answeredAt)) > QUIET_MS) return text;
  }
  return read();
}

/** The text of `selector` once it is not empty (or '' after `timeoutMs`). */
export async function textOf(page: Page, selector: string, timeoutMs = 15_000): Promise<string> {
  try {
    await page.waitForFunction((s) => (document.querySelector(s)?.textContent ?? '').trim() !== '', selector, { timeout: timeoutMs });
  } catch {
    return '';
  }
  return (await page.textContent(selector))?.trim() ?? '';
}
