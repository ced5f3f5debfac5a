// Importing over real HTTP from a local server: every fixture page, the awkward answers (endless, slow, not
// HTML, redirects), and URLs refused before any request.
import test from 'ava';
import { ImportError, type ImportErrorCode, type ImportOptions, importRecipe as importFrom } from './index.ts';
import { AWKWARD_PATH, fixture, type PageServer, startPageServer } from './test-page-server.ts';
import { extractRecipe } from './extract-recipe.ts';

/** The page server is on 127.0.0.1: these tests allow private addresses (address-check.test.ts: refused by default). */
const importRecipe = (url: string, options: Partial<ImportOptions> = {}) => importFrom(url, { allowPrivateAddresses: true, ...options });

let server: PageServer;
test.before(async () => {
  server = await startPageServer();
});
test.after.always(async () => {
  await server?.close();
});

/** The code of the ImportError `promise` rejects with, and its message; a resolved draft or another error
 * fails the test. */
async function importFailure(t: import('ava').ExecutionContext, promise: Promise<unknown>): Promise<ImportError> {
  const error = await t.throwsAsync(promise, { instanceOf: ImportError });
  return error ?? new ImportError('fetch-failed', 'no error');
}

const pages = [
  ['jsonld-plain.html', 'json-ld'],
  ['jsonld-graph.html', 'json-ld'],
  ['jsonld-array-type.html', 'json-ld'],
  ['jsonld-howto-section.html', 'json-ld'],
  ['microdata.html', 'microdata'],
  ['open-graph.html', 'social'],
  ['twitter-card.html', 'social'],
] as const;

for (const [page, source] of pages) {
  test(`imports ${page} over HTTP (${source})`, async (t) => {
    const url = `${server.origin}/pages/${page}`;
    const draft = await importRecipe(url);
    t.is(draft.source, source);
    t.deepEqual(draft, extractRecipe(fixture(page), url));
  });
}

test('a page at a percent-encoded path with non-ASCII, a space and a #; the fragment of the URL is not sent', async (t) => {
  const draft = await importRecipe(`${server.origin}${AWKWARD_PATH}#ingredients`);
  t.is(draft.title, 'Garlic Butter Noodles');
  t.is(draft.sourceUrl, `${server.origin}${AWKWARD_PATH}`);
  t.is(draft.imageUrl, `${server.origin}/images/noodles.jpg`);
  t.is(server.requests.at(-1), AWKWARD_PATH);
});

test('nothing to import: no-recipe', async (t) => {
  const error = await importFailure(t, importRecipe(`${server.origin}/pages/nothing.html`));
  t.is(error.code, 'no-recipe');
  t.regex(error.message, /no schema\.org Recipe .* and no Open Graph or Twitter title/);
});

test('application/xhtml+xml is HTML', async (t) => {
  t.is((await importRecipe(`${server.origin}/xhtml`)).title, 'Fluffy Pancakes');
});

test('a gzip-encoded page is decompressed', async (t) => {
  t.is((await importRecipe(`${server.origin}/gzip`)).title, 'Lemon Cake');
});

test('the charset of the Content-Type, or of a <meta>, decodes the page', async (t) => {
  t.is((await importRecipe(`${server.origin}/latin1`)).title, 'Crème brûlée');
  t.is((await importRecipe(`${server.origin}/meta-charset`)).title, 'Crème brûlée');
});

// [path, code, message]
const refusals: [string, ImportErrorCode, RegExp][] = [
  ['/image.png', 'not-html', /the page is image\/png, not HTML \(text\/html or application\/xhtml\+xml\)/],
  ['/no-type', 'not-html', /without a Content-Type/],
  ['/missing', 'fetch-failed', /answered 404 Not Found/],
  ['/declared-huge', 'too-large', /6291456 bytes; the limit is 5242880/],
  ['/redirect-to?location=ftp%3A%2F%2F127.0.0.1%2Frecipe.html', 'fetch-failed', /redirect refused: only http and https URLs are fetched, not ftp/],
  ['/redirect-to?location=file%3A%2F%2F%2Fetc%2Fpasswd', 'fetch-failed', /redirect refused: .* not file/],
  ['/redirect-nowhere', 'fetch-failed', /302 without a Location/],
];

for (const [path, code, message] of refusals) {
  test(`refused: ${path} → ${code}`, async (t) => {
    const error = await importFailure(t, importRecipe(`${server.origin}${path}`));
    t.is(error.code, code);
    t.regex(error.message, message);
  });
}

test('a redirect to a URL with credentials is refused', async (t) => {
  const target = encodeURIComponent(`http://user:secret@127.0.0.1:1/pages/jsonld-plain.html`);
  const error = await importFailure(t, importRecipe(`${server.origin}/redirect-to?location=${target}`));
  t.is(error.code, 'fetch-failed');
  t.regex(error.message, /redirect refused: a URL with credentials/);
});

test('five redirects are followed (relative and absolute Locations), a sixth is refused', async (t) => {
  const draft = await importRecipe(`${server.origin}/redirect/5`);
  t.is(draft.title, 'Garlic Butter Noodles');
  t.is(draft.sourceUrl, `${server.origin}/redirect/0`);
  const before = server.requests.length;
  const error = await importFailure(t, importRecipe(`${server.origin}/redirect/6`));
  t.is(error.code, 'fetch-failed');
  t.regex(error.message, /more than 5 redirects/);
  t.is(server.requests.length - before, 6); // the sixth redirect's target is never requested
});

test('maxRedirects is configurable', async (t) => {
  const error = await importFailure(t, importRecipe(`${server.origin}/redirect/2`, { maxRedirects: 1 }));
  t.regex(error.message, /more than 1 redirects/);
});

test('an endless page: reading stops at the cap, the connection is dropped, in bounded time', async (t) => {
  const started = Date.now();
  const error = await importFailure(t, importRecipe(`${server.origin}/endless`));
  const elapsed = Date.now() - started;
  t.is(error.code, 'too-large');
  t.regex(error.message, /larger than 5242880 bytes; reading stopped there/);
  t.true(elapsed < 10_000, `took ${elapsed} ms`);
  await waitFor(() => server.endless.closedAt !== null);
  // What the server wrote before it saw the close: the cap plus what the sockets' buffers held.
  t.true(server.endless.written < 5 * 1024 * 1024 + 16 * 1024 * 1024, `${server.endless.written} bytes written`);
});

test('maxBytes is configurable', async (t) => {
  const error = await importFailure(t, importRecipe(`${server.origin}/pages/jsonld-plain.html`, { maxBytes: 100 }));
  t.is(error.code, 'too-large');
  t.regex(error.message, /larger than 100 bytes/);
});

test('a server that never answers: timeout after timeoutMs', async (t) => {
  const started = Date.now();
  const error = await importFailure(t, importRecipe(`${server.origin}/silent`, { timeoutMs: 300 }));
  const elapsed = Date.now() - started;
  t.is(error.code, 'timeout');
  t.regex(error.message, /did not arrive within 0\.3 s/);
  t.true(elapsed >= 290 && elapsed < 3000, `took ${elapsed} ms`);
});

test('a body that trickles forever: the deadline covers the body too', async (t) => {
  const started = Date.now();
  const error = await importFailure(t, importRecipe(`${server.origin}/trickle`, { timeoutMs: 400 }));
  t.is(error.code, 'timeout');
  t.true(Date.now() - started < 3000);
});

test('a refused connection: fetch-failed', async (t) => {
  const error = await importFailure(t, importRecipe('http://127.0.0.1:1/recipe.html'));
  t.is(error.code, 'fetch-failed');
  t.regex(error.message, /the connection was refused/);
});

// [url, message]: refused before any request.
const invalid: [unknown, RegExp][] = [
  ['ftp://127.0.0.1/recipe.html', /only http and https URLs are fetched, not ftp/],
  ['file:///etc/passwd', /not file/],
  ['http://user:pass@127.0.0.1/recipe.html', /credentials/],
  ['javascript:alert(1)', /not javascript/],
  ['/relative/path', /not an absolute URL/],
  ['', /non-empty string/],
  [42, /non-empty string/],
  [`http://127.0.0.1/${'a'.repeat(2100)}`, /longer than 2048 characters/],
];

for (const [url, message] of invalid) {
  test(`invalid-url: ${JSON.stringify(url).slice(0, 40)}`, async (t) => {
    const before = server.requests.length;
    const error = await importFailure(t, importRecipe(url as string));
    t.is(error.code, 'invalid-url');
    t.regex(error.message, message);
    t.is(server.requests.length, before);
  });
}

test('options out of range are refused at once, naming the field and the bound', async (t) => {
  await t.throwsAsync(importRecipe(`${server.origin}/pages/jsonld-plain.html`, { timeoutMs: 0 }), {
    instanceOf: RangeError,
    message: 'import option timeoutMs must be an integer from 1 to 600000, got 0',
  });
  await t.throwsAsync(importRecipe(`${server.origin}/pages/jsonld-plain.html`, { maxRedirects: -1 }), {
    message: /maxRedirects must be an integer from 0 to 20, got -1/,
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
}
