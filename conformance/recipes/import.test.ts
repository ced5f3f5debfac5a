// POST /api/recipes/import-url over pages the suite serves (import-pages.ts): structured recipe data, or
// failing that social metadata, comes back in the answer (read through shapes.at.draft); informationally the
// reference's other choices (@graph with an array @type, microdata, nothing saved) and its failures: a clear
// refusal, in bounded time, for a page with nothing to import, a huge page, a page that never answers, an
// image, and a URL that is not http(s).
import { check } from '../harness/index.ts';
import type { CaseContext } from '../harness/case-context.ts';
import type { HttpResponse } from '../harness/http-client.ts';
import type { Account } from './api.ts';
import { is2xx, shown } from './api.ts';
import { once, refused } from './case-helpers.ts';
import { importPages, type PageName } from './import-pages.ts';
import { walkPages } from './list-pages.ts';
import { IMPORT, type Instance, sharedInstance } from './target.ts';

const PATH = '/api/recipes/import-url';
/** Longer than a target's own fetch deadline is expected to be (the reference's: 10 s). */
const ANSWER_WAIT_MS = 20_000;
/** A failure case's limit: the answer's wait plus its setup (the file's shared instance, a user), which on a
 * busy machine (the whole run on two cores) took over 5 s once. */
const FAILURE_CASE_MS = ANSWER_WAIT_MS + 15_000;

async function importer(c: CaseContext): Promise<{ inst: Instance; user: Account }> {
  const inst = await sharedInstance(c, 'import');
  const user = await once(inst, 'importer', () => inst.api.user('importer'));
  return { inst, user };
}

function importUrl(inst: Instance, token: string | undefined, url: string): Promise<HttpResponse> {
  return inst.api.call('POST', PATH, { token, json: { url }, timeoutMs: ANSWER_WAIT_MS });
}

/** The draft of an import answer as text, so a page's word is found wherever the target's shape puts it. */
async function draftText(c: CaseContext, inst: Instance, res: HttpResponse): Promise<string> {
  return JSON.stringify(await c.need('the draft in the import answer (shapes.at.draft)', () => inst.api.read('draft', res)));
}

async function importsWord(t: { true(v: boolean, m: string): boolean }, c: CaseContext, inst: Instance, token: string, page: PageName, word: string): Promise<void> {
  const pages = await importPages();
  const res = await importUrl(inst, token, pages.url(page));
  if (!t.true(is2xx(res), `importing the ${page} page ${pages.url(page)}: ${shown(res)}`)) return;
  const text = await draftText(c, inst, res);
  t.true(text.includes(word), `the import of the ${page} page does not hold its title word ${word}: ${text.slice(0, 400)}`);
}

check('recipes/import/import-url/json-ld-recipe-imported', IMPORT, async (t, c) => {
  const { inst, user } = await importer(c);
  const { words } = await importPages();
  await importsWord(t, c, inst, user.token, 'jsonld', words.jsonLdTitle);
  // Structured data first: its ingredients come along (the Open Graph title beside it is not what is used).
  await importsWord(t, c, inst, user.token, 'jsonld', words.jsonLdIngredient);
});

check('recipes/import/import-url/open-graph-only-page-imported', IMPORT, async (t, c) => {
  const { inst, user } = await importer(c);
  await importsWord(t, c, inst, user.token, 'social', (await importPages()).words.socialTitle);
});

check('recipes/import/import-url/needs-bearer-token', IMPORT, async (t, c) => {
  const { inst } = await importer(c);
  const pages = await importPages();
  const res = await importUrl(inst, undefined, pages.url('jsonld'));
  t.true(refused(res), `importing without a token: ${shown(res)}`);
  t.false(res.text.includes(pages.words.jsonLdTitle), `the answer without a token holds the page's data: ${shown(res)}`);
});

check('recipes/recipes/literal-routes/import-url-not-an-id', IMPORT, async (t, c) => {
  const { inst, user } = await importer(c);
  await importsWord(t, c, inst, user.token, 'jsonld', (await importPages()).words.jsonLdTitle);
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('recipes/import/extraction-precedence/json-ld-graph-array-type', IMPORT, async (t, c) => {
  const { inst, user } = await importer(c);
  await importsWord(t, c, inst, user.token, 'graph', (await importPages()).words.graphTitle);
});

check('recipes/import/extraction-precedence/microdata', IMPORT, async (t, c) => {
  const { inst, user } = await importer(c);
  await importsWord(t, c, inst, user.token, 'microdata', (await importPages()).words.microdataTitle);
});

check('recipes/import/extraction-precedence/structured-data-over-social-title', IMPORT, async (t, c) => {
  const { inst, user } = await importer(c);
  const pages = await importPages();
  const res = await importUrl(inst, user.token, pages.url('jsonld'));
  const text = await draftText(c, inst, res);
  t.false(text.includes(pages.words.jsonLdSocialTitle), `the draft holds the Open Graph title beside the JSON-LD recipe: ${text.slice(0, 400)}`);
});

check('recipes/import/request-and-result/draft-not-saved', IMPORT, async (t, c) => {
  const { inst, user } = await importer(c);
  const pages = await importPages();
  const res = await importUrl(inst, user.token, pages.url('jsonld'));
  t.is(res.status, 200, shown(res));
  const mine = await walkPages(inst.api, '/api/recipes', user.token, { mine: true }, { maxPages: 5 });
  t.false(JSON.stringify(mine.items).includes(pages.words.jsonLdTitle), `the import made a recipe: ${JSON.stringify(mine.items).slice(0, 300)}`);
});

/** A failed import: refused with a 4xx in bounded time (the reference: 400 for the URL, 422 for the page). */
function failure(behaviour: string, page: { page: PageName } | { url: string }, status: number): void {
  check(`recipes/import/failures/${behaviour}`, { ...IMPORT, timeoutMs: FAILURE_CASE_MS }, async (t, c) => {
    const { inst, user } = await importer(c);
    const url = 'url' in page ? page.url : (await importPages()).url(page.page);
    const started = Date.now();
    const res = await importUrl(inst, user.token, url).catch((err: Error) => err);
    if (res instanceof Error) return void t.fail(`importing ${url}: no answer (${res.message}) after ${Date.now() - started} ms`);
    t.true(refused(res), `importing ${url}: ${shown(res)}`);
    t.is(res.status, status, `importing ${url}: ${shown(res)}`);
  });
}

failure('page-without-recipe-refused', { page: 'nothing' }, 422);
failure('huge-page-refused', { page: 'huge' }, 422);
failure('silent-page-refused-in-time', { page: 'slow' }, 422);
failure('non-html-refused', { page: 'image' }, 422);
failure('non-http-url-refused', { url: 'ftp://127.0.0.1/recipe.html' }, 400);
failure('not-a-url-refused', { url: 'a lemon tart' }, 400);
