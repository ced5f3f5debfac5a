// Recipes over HTTP: create (defaults, normalisation, every field at fault named), read (the representation,
// servings scaling), update (partial, arrays replaced, a new updatedAt), delete (204, then 404), the literal
// paths that are never an id, and the categories (catalog recipes/recipes/*, recipes/tags/normalization,
// recipes/categories/*, recipes/limits/recipe-size).
import test from 'ava';
import { CATEGORIES } from './categories.ts';
import { RECIPE_LIMITS } from './recipe-fields.ts';
import { createRecipe, type RecipesFixture, startWithAccounts } from './recipes-test-support.ts';

let f: RecipesFixture;
test.before(async () => {
  f = await startWithAccounts();
});
test.after.always(async () => {
  await f?.s.close();
});

const FULL = {
  title: '  Crème brûlée #1 ',
  description: 'Custard\nwith a burnt top.',
  servings: 4,
  prepMinutes: 20,
  cookMinutes: 45,
  ingredients: [
    { name: 'cream', quantity: 500, unit: 'ml' },
    { name: 'egg yolks', quantity: 6 },
    { name: 'salt' },
  ],
  steps: [
    { order: 3, text: 'Bake.' },
    { order: 1, text: 'Whisk.' },
  ],
  tags: [' French ', 'dessert', 'FRENCH', '  '],
  category: 'dessert',
  isPublic: true,
  sourceUrl: 'https://cook.example/creme',
};

test('create: 201 with the whole recipe, normalised (trimmed title, tags lower-cased once, steps by order)', async (t) => {
  const { status, body } = await f.s.api('POST', '/api/recipes', { json: FULL, headers: f.cook.headers });
  t.is(status, 201);
  t.regex(body.id, /^[0-9a-f-]{36}$/);
  t.like(body, {
    ownerId: f.cook.id,
    title: 'Crème brûlée #1',
    description: 'Custard\nwith a burnt top.',
    servings: 4,
    prepMinutes: 20,
    cookMinutes: 45,
    tags: ['french', 'dessert'],
    category: 'dessert',
    isPublic: true,
    sourceUrl: 'https://cook.example/creme',
    photoUrl: null,
    saved: false,
  });
  t.deepEqual(body.ingredients, [
    { name: 'cream', quantity: 500, unit: 'ml' },
    { name: 'egg yolks', quantity: 6, unit: null },
    { name: 'salt', quantity: null, unit: null },
  ]);
  t.deepEqual(body.steps, [
    { order: 1, text: 'Whisk.', photoUrl: null },
    { order: 3, text: 'Bake.', photoUrl: null },
  ]);
  t.is(body.createdAt, body.updatedAt);
  t.true(Date.parse(body.createdAt) > Date.now() - 60_000);
  t.deepEqual((await f.s.api('GET', `/api/recipes/${body.id}`, { headers: f.cook.headers })).body, body);
});

test('create: defaults (private, 1 serving, nothing else), steps without order numbered by position', async (t) => {
  const { body } = await createRecipe(f.s, f.cook, { steps: [{ text: 'One' }, { text: 'Two' }] });
  t.like(body, { title: 'Pancakes', description: '', servings: 1, prepMinutes: null, cookMinutes: null, category: null, isPublic: false, sourceUrl: null });
  t.deepEqual(body.ingredients, []);
  t.deepEqual(body.tags, []);
  t.deepEqual(
    body.steps.map((step: { order: number }) => step.order),
    [1, 2],
  );
});

test('create: the representation and an import draft can be sent back (read-only and unknown keys ignored, nulls are "not set")', async (t) => {
  const { body: first } = await createRecipe(f.s, f.cook, FULL);
  const again = await f.s.api('POST', '/api/recipes', { json: { ...first, imageUrl: 'https://cook.example/x.jpg', description: null }, headers: f.cook.headers });
  t.is(again.status, 201);
  t.not(again.body.id, first.id);
  t.is(again.body.description, '');
  t.deepEqual(again.body.ingredients, first.ingredients);
});

// [body, the fields named]
const INVALID: [Record<string, unknown>, string[]][] = [
  [{}, ['title']],
  [{ title: '' }, ['title']],
  [{ title: '   ' }, ['title']],
  [{ title: 'x'.repeat(RECIPE_LIMITS.titleChars + 1) }, ['title']],
  [{ title: 42 }, ['title']],
  [{ title: 'a\u0000b' }, ['title']],
  [{ title: 'T', description: 'd'.repeat(RECIPE_LIMITS.descriptionChars + 1) }, ['description']],
  [{ title: 'T', servings: 0 }, ['servings']],
  [{ title: 'T', servings: 2.5 }, ['servings']],
  [{ title: 'T', servings: RECIPE_LIMITS.maxServings + 1 }, ['servings']],
  [{ title: 'T', prepMinutes: -1, cookMinutes: '5' }, ['prepMinutes', 'cookMinutes']],
  [{ title: 'T', ingredients: 'flour' }, ['ingredients']],
  [{ title: 'T', ingredients: Array.from({ length: RECIPE_LIMITS.ingredients + 1 }, () => ({ name: 'x' })) }, ['ingredients']],
  [{ title: 'T', ingredients: [{ name: '' }, 'flour', { name: 'x', quantity: -1, unit: 5 }] }, ['ingredients[0].name', 'ingredients[1]', 'ingredients[2].quantity', 'ingredients[2].unit']],
  [{ title: 'T', steps: [{ order: 1, text: 'a' }, { order: 1, text: 'b' }] }, ['steps[1].order']],
  [{ title: 'T', steps: [{ text: 'a' }, { order: 1, text: 'b' }] }, ['steps[1].order']],
  [{ title: 'T', steps: [{ order: 0, text: 'a' }, { order: 2, text: '' }] }, ['steps[0].order', 'steps[1].text']],
  [{ title: 'T', steps: Array.from({ length: RECIPE_LIMITS.steps + 1 }, (_, i) => ({ text: `s${i}` })) }, ['steps']],
  [{ title: 'T', steps: [{ text: 's'.repeat(RECIPE_LIMITS.stepChars + 1) }] }, ['steps[0].text']],
  [{ title: 'T', tags: ['ok', 7, 't'.repeat(RECIPE_LIMITS.tagChars + 1)] }, ['tags[1]', 'tags[2]']],
  [{ title: 'T', tags: Array.from({ length: RECIPE_LIMITS.tags + 1 }, (_, i) => `tag ${i}`) }, ['tags']],
  [{ title: 'T', category: 'brunch' }, ['category']],
  [{ title: 'T', isPublic: 'yes' }, ['isPublic']],
  [{ title: 'T', sourceUrl: 'ftp://cook.example/r' }, ['sourceUrl']],
];

test.serial('create: 400 naming every field at fault, nothing stored', async (t) => {
  const before = Object.keys(f.s.store.data.recipes).length;
  for (const [json, fields] of INVALID) {
    const { status, body } = await f.s.api('POST', '/api/recipes', { json, headers: f.cook.headers });
    t.is(status, 400, JSON.stringify(json).slice(0, 80));
    t.deepEqual(
      body.details.map((problem: { field: string }) => problem.field),
      fields,
      JSON.stringify(json).slice(0, 80),
    );
    t.is(typeof body.error, 'string');
  }
  t.is(Object.keys(f.s.store.data.recipes).length, before);
});

test('the limits themselves are accepted: 200-character title, 100 steps, 20 tags of 50 characters', async (t) => {
  const { body } = await createRecipe(f.s, f.cook, {
    title: 'é'.repeat(RECIPE_LIMITS.titleChars),
    steps: Array.from({ length: RECIPE_LIMITS.steps }, (_, i) => ({ text: `step ${i}` })),
    tags: Array.from({ length: RECIPE_LIMITS.tags }, (_, i) => `${i}`.padEnd(RECIPE_LIMITS.tagChars, 'x')),
  });
  t.is(body.steps.length, RECIPE_LIMITS.steps);
  t.is(body.tags.length, RECIPE_LIMITS.tags);
});

test('servings scaling: quantities scaled in the answer only, 400 for a value that is not a positive integer', async (t) => {
  const { body } = await createRecipe(f.s, f.cook, FULL);
  const scaled = await f.s.api('GET', `/api/recipes/${body.id}?servings=6`, { headers: f.cook.headers });
  t.is(scaled.status, 200);
  t.is(scaled.body.servings, 6);
  t.deepEqual(
    scaled.body.ingredients.map((ingredient: { quantity: number | null }) => ingredient.quantity),
    [750, 9, null],
  );
  t.deepEqual(scaled.body.steps, body.steps);
  const down = await f.s.api('GET', `/api/recipes/${body.id}?servings=1`, { headers: f.cook.headers });
  t.deepEqual(
    down.body.ingredients.map((ingredient: { quantity: number | null }) => ingredient.quantity),
    [125, 1.5, null],
  );
  t.deepEqual((await f.s.api('GET', `/api/recipes/${body.id}`, { headers: f.cook.headers })).body, body, 'stored data unchanged');
  for (const value of ['0', '-2', '1.5', 'two', '', '1001', '99999999999']) {
    const refused = await f.s.api('GET', `/api/recipes/${body.id}?servings=${value}`, { headers: f.cook.headers });
    t.is(refused.status, 400, value);
    t.is(refused.body.details[0].field, 'servings');
  }
});

test('update: partial, arrays replaced whole, absent keys kept, a new updatedAt; 400 changes nothing', async (t) => {
  const { body: created } = await createRecipe(f.s, f.cook, FULL);
  const path = `/api/recipes/${created.id}`;
  const patched = await f.s.api('PATCH', path, { json: { title: 'Crema catalana', tags: ['Spanish'], prepMinutes: null }, headers: f.cook.headers });
  t.is(patched.status, 200);
  t.is(patched.body.title, 'Crema catalana');
  t.deepEqual(patched.body.tags, ['spanish']);
  t.is(patched.body.prepMinutes, null);
  t.is(patched.body.cookMinutes, 45);
  t.deepEqual(patched.body.steps, created.steps);
  t.deepEqual(patched.body.ingredients, created.ingredients);
  t.is(patched.body.createdAt, created.createdAt);
  t.true(patched.body.updatedAt > created.updatedAt);

  const refused = await f.s.api('PATCH', path, { json: { title: '', servings: 0 }, headers: f.cook.headers });
  t.is(refused.status, 400);
  t.deepEqual(
    refused.body.details.map((problem: { field: string }) => problem.field),
    ['title', 'servings'],
  );
  t.deepEqual((await f.s.api('GET', path, { headers: f.cook.headers })).body, patched.body);
  const empty = await f.s.api('PATCH', path, { json: {}, headers: f.cook.headers });
  t.is(empty.status, 200);
  t.true(empty.body.updatedAt > patched.body.updatedAt);
});

test('delete: 204 without a body, then 404 for GET, PATCH and a second DELETE', async (t) => {
  const { body } = await createRecipe(f.s, f.cook, { isPublic: true });
  const path = `/api/recipes/${body.id}`;
  const deleted = await f.s.api('DELETE', path, { headers: f.cook.headers });
  t.is(deleted.status, 204);
  t.is(deleted.body, '');
  for (const method of ['GET', 'PATCH', 'DELETE']) {
    const answer = await f.s.api(method, path, { headers: f.cook.headers, ...(method === 'PATCH' ? { json: { title: 'x' } } : {}) });
    t.is(answer.status, 404, method);
    t.deepEqual(answer.body, { error: 'Recipe not found' }, method);
  }
});

test('unknown and odd ids answer 404 (never a prototype property)', async (t) => {
  for (const id of ['00000000-0000-4000-8000-000000000000', 'constructor', '__proto__', 'toString', '%E2%82%AC']) {
    t.is((await f.s.api('GET', `/api/recipes/${id}`, { headers: f.cook.headers })).status, 404, id);
    t.is((await f.s.api('PATCH', `/api/recipes/${id}`, { json: { title: 'x' }, headers: f.cook.headers })).status, 404, id);
    t.is((await f.s.api('POST', `/api/recipes/${id}/saved`, { headers: f.cook.headers })).status, 404, id);
  }
});

test('the literal paths reach their own endpoints, never a recipe id', async (t) => {
  const publicList = await f.s.api('GET', '/api/recipes/public');
  t.is(publicList.status, 200);
  t.true(Array.isArray(publicList.body.items));
  const tags = await f.s.api('GET', '/api/recipes/tags');
  t.is(tags.status, 200);
  t.true(Array.isArray(tags.body));
  const imported = await f.s.api('POST', '/api/recipes/import-url', { json: { url: 'not a url' }, headers: f.cook.headers });
  t.is(imported.status, 400);
  t.is(imported.body.details[0].field, 'url');
  // Other methods on them, and the paths below them: no route, never the :id handlers.
  for (const [method, path] of [
    ['GET', '/api/recipes/import-url'],
    ['DELETE', '/api/recipes/public'],
    ['PATCH', '/api/recipes/tags'],
    ['POST', '/api/recipes/public/saved'],
    ['POST', '/api/recipes/tags/photo'],
  ] as const) {
    const answer = await f.s.api(method, path, { headers: f.cook.headers, ...(method === 'PATCH' ? { json: {} } : {}) });
    t.is(answer.status, 404, `${method} ${path}`);
    t.regex(answer.body.error, /^No route for /, `${method} ${path}`);
  }
});

test('categories: bearer, the fixed set sorted by name; a recipe names one by slug', async (t) => {
  t.is((await f.s.api('GET', '/api/categories')).status, 401);
  const { status, body } = await f.s.api('GET', '/api/categories', { headers: f.other.headers });
  t.is(status, 200);
  t.deepEqual(body, CATEGORIES);
  t.deepEqual(
    body.map((category: { slug: string }) => category.slug),
    ['breakfast', 'dessert', 'dinner', 'drink', 'lunch', 'other', 'side', 'snack'],
  );
  for (const { slug } of body) t.is((await createRecipe(f.s, f.other, { category: slug })).body.category, slug);
});

test('bearer routes answer 401 without a token', async (t) => {
  const routes: [string, string][] = [
    ['GET', '/api/recipes'],
    ['POST', '/api/recipes'],
    ['PATCH', '/api/recipes/x'],
    ['DELETE', '/api/recipes/x'],
    ['POST', '/api/recipes/import-url'],
    ['POST', '/api/recipes/x/saved'],
    ['DELETE', '/api/recipes/x/saved'],
    ['POST', '/api/recipes/x/photo'],
    ['POST', '/api/recipes/x/steps/1/photo'],
  ];
  for (const [method, path] of routes) {
    const answer = await f.s.api(method, path);
    t.is(answer.status, 401, `${method} ${path}`);
    t.is(answer.headers.get('www-authenticate'), 'Bearer');
  }
});
