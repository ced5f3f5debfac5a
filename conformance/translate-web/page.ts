// The browser client as the suite drives it: one headless Chromium per test file (a context per case), the
// page at the gateway, and the forms named by the target description's `page` (CSS selectors: where the
// reference's page has them, see reference-target/description.json). Every request the page makes to
// /api/ is recorded with its status and time.
import test from 'ava';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { CaseContext } from '../harness/case-context.ts';
import type { CaseOptions } from '../harness/check.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../harness/environment.ts';
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
  return page;
}

let browser: Promise<Browser> | undefined;

test.after.always(async () => {
  await (await browser?.catch(() => undefined))?.close();
});

export interface ApiRequest {
  path: string;
  /** 0 until (or unless) a response came. */
  status: number;
  /** When the page sent it. */
  at: number;
}

export interface OpenedPage {
  page: Page;
  /** The page's requests to /api/…, in order, with their statuses (0: no response). */
  requests: ApiRequest[];
  form: PageDescription;
}

/** The page of the gateway at `url` in a fresh browser context, closed when the case ends. */
export async function openPage(c: CaseContext, url: string): Promise<OpenedPage> {
  const form = pageDescription();
  browser ??= chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, '--autoplay-policy=no-user-gesture-required'] });
  const context = await (await browser).newContext();
  c.defer(() => context.close());
  const page = await context.newPage();
  const requests: ApiRequest[] = [];
  const sent = new Map<object, ApiRequest>();
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (!path.startsWith('/api/')) return;
    const entry = { path, status: 0, at: Date.now() };
    requests.push(entry);
    sent.set(request, entry);
  });
  page.on('response', (response) => {
    const entry = sent.get(response.request());
    if (entry) entry.status = response.status();
  });
  const address = new URL(form.path, url).href;
  c.note(`# page: ${address} in Chromium (${CHROMIUM_PATH})`);
  await page.goto(address);
  return { page, requests, form };
}

/** Fills the form's fields (by role) and submits it. */
export async function submit(page: Page, form: PageForm, values: Record<string, string>): Promise<void> {
  for (const [role, value] of Object.entries(values)) {
    const selector = form[role];
    if (!selector) throw new Error(`the page description has no ${role} field for this form`);
    await page.fill(selector, value);
  }
  await page.click(form.submit);
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
