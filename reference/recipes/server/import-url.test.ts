// POST /api/recipes/import-url over HTTP against pages served on 127.0.0.1 (import/test-page-server.ts): with
// RECIPES_IMPORT_PRIVATE=allow a draft in the create shape that saves nothing and can be posted as it is; the
// failures and their statuses; and, by default, a loopback address refused before any request (catalog
// recipes/import/*).
import test from 'ava';
import { type PageServer, startPageServer } from '../import/test-page-server.ts';
import { createShapeOf } from './import-handler.ts';
import { type RecipesFixture, startWithAccounts } from './recipes-test-support.ts';
import { bearer, COOK, registerVerified, setupAdmin, withServer } from './test-server.ts';

let pages: PageServer;
let f: RecipesFixture;
test.before(async () => {
  pages = await startPageServer();
  f = await startWithAccounts({ RECIPES_IMPORT_PRIVATE: 'allow' });
});
test.after.always(async () => {
  await f?.s.close();
  await pages?.close();
});

const importUrl = (url: unknown, headers = f.cook.headers) => f.s.api('POST', '/api/recipes/import-url', { json: { url }, headers });

test('a JSON-LD page: 200 with a draft in the create shape, nothing saved; posting it creates the recipe', async (t) => {
  const before = Object.keys(f.s.store.data.recipes).length;
  const url = `${pages.origin}/pages/jsonld-plain.html`;
  const { status, body } = await importUrl(url);
  t.is(status, 200);
  t.deepEqual(body, {
    title: 'Garlic Butter Noodles',
    description: 'Quick noodles with garlic & butter.',
    servings: 4,
    prepMinutes: 10,
    cookMinutes: 15,
    ingredients: [
      { name: 'flour', quantity: 1.5, unit: 'cups' },
      { name: 'salt', quantity: 0.5, unit: 'tsp' },
      { name: '2-3 cloves garlic, minced' },
      { name: 'butter & a splash of oil', quantity: 4, unit: 'tbsp' },
    ],
    steps: [
      { order: 1, text: 'Boil the noodles.' },
      { order: 2, text: 'Melt the butter, add the garlic.' },
      { order: 3, text: 'Toss & serve.' },
    ],
    tags: ['easy', 'weeknight', 'noodles'],
    category: 'dinner',
    sourceUrl: url,
    imageUrl: `${pages.origin}/images/noodles.jpg`,
  });
  t.is(Object.keys(f.s.store.data.recipes).length, before, 'nothing saved');
  const created = await f.s.api('POST', '/api/recipes', { json: body, headers: f.cook.headers });
  t.is(created.status, 201);
  t.like(created.body, { title: body.title, servings: 4, category: 'dinner', sourceUrl: url, isPublic: false });
  t.is(created.body.steps.length, 3);
});

test('an Open Graph page: title, description and image, no ingredients or steps', async (t) => {
  const { status, body } = await importUrl(`${pages.origin}/pages/open-graph.html`);
  t.is(status, 200);
  t.true(body.title.length > 0);
  t.deepEqual(body.ingredients, []);
  t.deepEqual(body.steps, []);
  t.is((await f.s.api('POST', '/api/recipes', { json: body, headers: f.cook.headers })).status, 201);
});

// [url, status, message]
const FAILURES: [(origin: string) => unknown, number, RegExp][] = [
  [(o) => `${o}/pages/nothing.html`, 422, /no schema\.org Recipe/],
  [(o) => `${o}/image.png`, 422, /not HTML/],
  [(o) => `${o}/missing`, 422, /answered 404/],
  [(o) => `${o}/declared-huge`, 422, /the limit is 5242880/],
  [(o) => `${o}/redirect-to?location=file%3A%2F%2F%2Fetc%2Fpasswd`, 422, /redirect refused/],
  [() => 'ftp://127.0.0.1/recipe.html', 400, /only http and https/],
  [() => 'not a url', 400, /not an absolute URL/],
  [() => undefined, 400, /non-empty string/],
  [() => 42, 400, /non-empty string/],
];

test('failures: 422 for a page that cannot be used, 400 naming url for a URL refused', async (t) => {
  for (const [url, status, message] of FAILURES) {
    const given = url(pages.origin);
    const answer = await importUrl(given);
    t.is(answer.status, status, String(given));
    t.regex(answer.body.error, message, String(given));
    if (status === 400) t.is(answer.body.details[0].field, 'url');
  }
});

test.serial('401 without a token, before any fetch', async (t) => {
  const before = pages.requests.length;
  const answer = await f.s.api('POST', '/api/recipes/import-url', { json: { url: `${pages.origin}/pages/jsonld-plain.html` } });
  t.is(answer.status, 401);
  t.is(pages.requests.length, before);
});

test.serial('by default (RECIPES_IMPORT_PRIVATE unset) a page on a loopback address is refused with 400, never fetched', (t) =>
  withServer(async (s) => {
    await setupAdmin(s);
    const { token } = (await registerVerified(s, COOK)).body;
    const before = pages.requests.length;
    for (const url of [`${pages.origin}/pages/jsonld-plain.html`, `${pages.origin.replace('127.0.0.1', 'localhost')}/pages/jsonld-plain.html`]) {
      const answer = await s.api('POST', '/api/recipes/import-url', { json: { url }, headers: bearer(token) });
      t.is(answer.status, 400, url);
      t.regex(answer.body.error, /url refused: .*loopback address; the import does not fetch from loopback, private, link-local or unspecified addresses/);
    }
    t.is(pages.requests.length, before);
  }));

test('the draft keeps to the create limits: long quantities and units stay in the name, tags cut to 20', (t) => {
  const shape = createShapeOf({
    title: 'T\u0007itle',
    description: 'a\u0000b\nc',
    imageUrl: null,
    servings: null,
    prepMinutes: null,
    cookMinutes: null,
    totalMinutes: null,
    ingredients: ['5000000 g flour', '2 cups sugar'],
    steps: ['one\u0001'],
    tags: Array.from({ length: 30 }, (_, i) => `Tag ${i}`),
    category: 'Brunch',
    sourceUrl: 'https://cook.example/r',
    source: 'json-ld',
  });
  t.is(shape.title, 'T itle');
  t.is(shape.description, 'a b\nc');
  t.deepEqual(shape.ingredients, [{ name: '5000000 g flour' }, { name: 'sugar', quantity: 2, unit: 'cups' }]);
  t.deepEqual(shape.steps, [{ order: 1, text: 'one ' }]);
  t.is(shape.tags.length, 20);
  t.is(shape.tags[0], 'tag 0');
  t.is(shape.category, null);
});
