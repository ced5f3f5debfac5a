// The API docs over HTTP (catalog recipes/docs/*): /api/openapi.json is a valid OpenAPI 3.1 document that has
// every endpoint of the document's table with its method and access, /health and the extras, schemas that
// compile, and answers of the real server that match it; /api/docs is Swagger UI's page, its files come from
// swagger-ui-dist (only those, with their types and caching), and nothing is loaded from elsewhere.
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import test, { type ExecutionContext } from 'ava';
import { ASSET_CACHE_CONTROL, PACKAGE_ASSETS } from './docs-assets.ts';
import { DOCS_INIT_SCRIPT } from './docs-page.ts';
import { openApiDocument } from './openapi-document.ts';
import { IMAGES, postPhoto, startWithAccounts } from './recipes-test-support.ts';
import type { JsonObject } from './openapi-json-schema.ts';
import { ADMIN, type Answer, bearer, COOK, registerVerified, setupAdmin, withServer } from './test-server.ts';

type Access = 'public' | 'optional' | 'bearer' | 'admin';

/** The document's endpoint table B (paths under /api), with the access the reference gives each row. */
const DOCUMENT_TABLE: readonly [string, string, Access][] = [
  ['POST', '/auth/register', 'public'],
  ['GET', '/auth/verify-email', 'public'],
  ['POST', '/auth/login', 'public'],
  ['GET', '/auth/me', 'bearer'],
  ['POST', '/auth/forgot-password', 'public'],
  ['POST', '/auth/reset-password', 'public'],
  ['GET', '/admin/setup', 'public'],
  ['POST', '/admin/setup', 'public'],
  ['GET', '/admin/settings', 'admin'], // "not stated": admin in the reference (recipes/settings/get-access)
  ['PATCH', '/admin/settings', 'admin'],
  ['GET', '/admin/users', 'admin'],
  ['PATCH', '/admin/users/:id', 'admin'],
  ['DELETE', '/admin/users/:id', 'admin'],
  ['POST', '/admin/invites', 'admin'],
  ['GET', '/admin/invites', 'admin'],
  ['DELETE', '/admin/invites/:id', 'admin'],
  ['GET', '/recipes', 'bearer'],
  ['POST', '/recipes', 'bearer'],
  ['GET', '/recipes/:id', 'optional'],
  ['PATCH', '/recipes/:id', 'bearer'],
  ['DELETE', '/recipes/:id', 'bearer'],
  ['POST', '/recipes/:id/photo', 'bearer'],
  ['POST', '/recipes/:id/steps/:order/photo', 'bearer'],
  ['POST', '/recipes/import-url', 'bearer'],
  ['GET', '/recipes/public', 'public'],
  ['GET', '/recipes/tags', 'optional'],
  ['POST', '/recipes/:id/saved', 'bearer'],
  ['DELETE', '/recipes/:id/saved', 'bearer'],
  ['GET', '/categories', 'bearer'],
];
const EXTRAS = ['GET /health', 'GET /api/health', 'GET /api/openapi.json', 'GET /api/docs', 'GET /api/docs/{asset}', 'GET /uploads/{name}'];

const templated = (path: string) => path.replace(/:(\w+)/g, '{$1}');
const operations = (doc: JsonObject) =>
  Object.entries(doc['paths'] as Record<string, Record<string, JsonObject>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
  );

/** The document with every $ref replaced by what it names. */
async function resolved(doc: JsonObject): Promise<JsonObject> {
  const validator = new Validator();
  await validator.validate(doc);
  return validator.resolveRefs() as JsonObject;
}

/** Ajv for the document's schemas: JSON Schema 2020-12, strict, with the formats it uses. */
function schemaChecker(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  ajv.addFormat('date-time', (value: string) => /^\d{4}-\d\d-\d\dT/.test(value) && !Number.isNaN(Date.parse(value)));
  ajv.addFormat('email', /^[^\s@]+@[^\s@]+$/);
  ajv.addFormat('uri', (value: string) => URL.canParse(value));
  ajv.addFormat('binary', true);
  return ajv;
}

test('openapi.json: a valid OpenAPI 3.1 document, served as JSON without a token', (t) =>
  withServer(async (s) => {
    const answer = await s.api('GET', '/api/openapi.json');
    t.is(answer.status, 200);
    t.is(answer.headers.get('content-type'), 'application/json; charset=utf-8');
    t.regex(answer.body.openapi, /^3\.1\./);
    const validator = new Validator();
    const result = await validator.validate(answer.body);
    t.deepEqual(result.errors, undefined);
    t.true(result.valid);
    t.is(validator.version, '3.1');
    t.deepEqual(answer.body.servers, [{ url: '/', description: 'The server that serves this document' }], 'relative: Try it out calls this server');
    t.deepEqual(answer.body.components.securitySchemes.bearerAuth, {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'The token of POST /api/auth/login or /api/admin/setup.',
    });
    t.deepEqual(answer.body, openApiDocument(), 'the module and the endpoint agree');
  }));

test("every endpoint of the document's table, with its method and access, /health and the extras; no others", (t) => {
  const doc = openApiDocument();
  const byKey = new Map(operations(doc).map(({ key, op }) => [key, op]));
  const expected = [...DOCUMENT_TABLE.map(([method, path]) => `${method} /api${templated(path)}`), ...EXTRAS];
  t.deepEqual([...byKey.keys()].sort(), [...expected].sort());
  const securityOf: Record<Access, unknown> = { public: [], optional: [{}, { bearerAuth: [] }], bearer: [{ bearerAuth: [] }], admin: [{ bearerAuth: [] }] };
  for (const [method, path, access] of DOCUMENT_TABLE) {
    const op = byKey.get(`${method} /api${templated(path)}`)!;
    t.deepEqual(op['security'], securityOf[access], `${method} ${path}`);
    const responses = op['responses'] as JsonObject;
    if (access === 'bearer' || access === 'admin') t.truthy(responses['401'], `${method} ${path}: 401`);
    if (access === 'admin') t.truthy(responses['403'], `${method} ${path}: 403`);
    for (const param of path.match(/:\w+/g) ?? []) {
      t.true(JSON.stringify(op['parameters'] ?? []).length > 2, `${method} ${path}: ${param} described`);
    }
  }
  const ids = operations(doc).map(({ op }) => op['operationId']);
  t.is(new Set(ids).size, ids.length, 'operationIds are unique');
});

test('every $ref resolves and every schema compiles as JSON Schema 2020-12', async (t) => {
  const doc = await resolved(openApiDocument());
  const ajv = schemaChecker();
  const schemas = (doc['components'] as { schemas: Record<string, object> }).schemas;
  for (const [name, schema] of Object.entries(schemas)) t.notThrows(() => ajv.compile(schema), name);
  t.false(JSON.stringify(doc).includes('"$ref"'));
});

/** Checks `answer` against the schema the document gives for it. */
function matchesDocument(t: ExecutionContext, doc: JsonObject, key: string, answer: Answer): void {
  const [method, path] = key.split(' ') as [string, string];
  const op = (doc['paths'] as Record<string, Record<string, JsonObject>>)[path]?.[method.toLowerCase()];
  const response = (op?.['responses'] as Record<string, JsonObject> | undefined)?.[String(answer.status)];
  if (response === undefined) {
    t.fail(`${key}: status ${answer.status} is not documented`);
    return;
  }
  const content = response['content'] as Record<string, { schema: object }> | undefined;
  if (content === undefined) {
    t.is(answer.body, '', `${key} ${answer.status}: no body`);
    return;
  }
  const validate = schemaChecker().compile(content['application/json']!.schema);
  t.true(validate(answer.body), `${key} ${answer.status}: ${JSON.stringify(validate.errors)} in ${JSON.stringify(answer.body)}`);
}

test("the server's answers match the document's schemas", (t) =>
  withServer(async (s) => {
    const doc = await resolved(openApiDocument());
    const check = (key: string, answer: Answer) => matchesDocument(t, doc, key, answer);
    check('GET /health', await s.api('GET', '/health'));
    check('GET /api/admin/setup', await s.api('GET', '/api/admin/setup'));
    check('POST /api/auth/register', await s.api('POST', '/api/auth/register', { json: COOK }));
    const admin = await setupAdmin(s);
    check('POST /api/admin/setup', admin);
    check('POST /api/admin/setup', await setupAdmin(s));
    const token = admin.body.token as string;
    check('POST /api/auth/register', await s.api('POST', '/api/auth/register', { json: { ...COOK, email: 'x' } }));
    const cook = await registerVerified(s, COOK);
    check('POST /api/auth/login', cook);
    check('POST /api/auth/login', await s.api('POST', '/api/auth/login', { json: { email: ADMIN.email, password: 'wrong password' } }));
    check('GET /api/auth/me', await s.api('GET', '/api/auth/me', { headers: bearer(cook.body.token) }));
    check('GET /api/auth/me', await s.api('GET', '/api/auth/me'));
    check('POST /api/auth/forgot-password', await s.api('POST', '/api/auth/forgot-password', { json: { email: COOK.email } }));
    check('POST /api/auth/reset-password', await s.api('POST', '/api/auth/reset-password', { json: { token: 'x', password: 'long enough password' } }));
    check('GET /api/admin/settings', await s.api('GET', '/api/admin/settings', { headers: bearer(token) }));
    check('GET /api/admin/settings', await s.api('GET', '/api/admin/settings', { headers: bearer(cook.body.token) }));
    check('PATCH /api/admin/settings', await s.api('PATCH', '/api/admin/settings', { json: { smtpPort: 2525 }, headers: bearer(token) }));
    check('GET /api/admin/users', await s.api('GET', '/api/admin/users', { headers: bearer(token) }));
    const users = `/api/admin/users/${cook.body.user.id}`;
    check('PATCH /api/admin/users/{id}', await s.api('PATCH', users, { json: { role: 'admin' }, headers: bearer(token) }));
    check('PATCH /api/admin/users/{id}', await s.api('PATCH', users, { json: { role: 'chef' }, headers: bearer(token) }));
    check('PATCH /api/admin/users/{id}', await s.api('PATCH', '/api/admin/users/nobody', { json: {}, headers: bearer(token) }));
    const invite = await s.api('POST', '/api/admin/invites', { headers: bearer(token) });
    check('POST /api/admin/invites', invite);
    check('GET /api/admin/invites', await s.api('GET', '/api/admin/invites', { headers: bearer(token) }));
    check('DELETE /api/admin/invites/{id}', await s.api('DELETE', `/api/admin/invites/${invite.body.id}`, { headers: bearer(token) }));
    check('DELETE /api/admin/invites/{id}', await s.api('DELETE', `/api/admin/invites/${invite.body.id}`, { headers: bearer(token) }));
    check('DELETE /api/admin/users/{id}', await s.api('DELETE', users, { headers: bearer(token) }));
  }));

test("the recipe endpoints' answers match the document's schemas", async (t) => {
  const { s, admin, cook, other } = await startWithAccounts();
  try {
    const doc = await resolved(openApiDocument());
    const check = (key: string, answer: Answer) => matchesDocument(t, doc, key, answer);
    const full = {
      title: 'Pancakes for 4',
      description: 'Fluffy.',
      servings: 4,
      prepMinutes: 10,
      cookMinutes: null,
      ingredients: [{ name: 'flour', quantity: 1.5, unit: 'cup' }, { name: 'salt' }],
      steps: [{ text: 'Mix.' }, { order: 5, text: 'Fry.' }],
      tags: [' Breakfast ', 'sweet'],
      category: 'breakfast',
      isPublic: true,
      sourceUrl: 'https://example.org/pancakes',
    };
    const created = await s.api('POST', '/api/recipes', { json: full, headers: cook.headers });
    check('POST /api/recipes', created);
    check('POST /api/recipes', await s.api('POST', '/api/recipes', { json: { title: '' }, headers: cook.headers }));
    check('POST /api/recipes', await s.api('POST', '/api/recipes', { json: { title: 'Bare' }, headers: cook.headers }));
    const id = created.body.id as string;
    check('GET /api/recipes/{id}', await s.api('GET', `/api/recipes/${id}?servings=2`));
    check('GET /api/recipes/{id}', await s.api('GET', `/api/recipes/${id}?servings=0`));
    check('GET /api/recipes/{id}', await s.api('GET', '/api/recipes/nothing-here', { headers: other.headers }));
    check('GET /api/recipes', await s.api('GET', '/api/recipes?q=pan&tag=sweet&category=breakfast&mine=1&page=1&limit=5', { headers: cook.headers }));
    check('GET /api/recipes', await s.api('GET', '/api/recipes?limit=0', { headers: cook.headers }));
    check('GET /api/recipes', await s.api('GET', '/api/recipes'));
    check('GET /api/recipes/public', await s.api('GET', '/api/recipes/public?page=3'));
    check('GET /api/recipes/tags', await s.api('GET', '/api/recipes/tags', { headers: cook.headers }));
    check('GET /api/categories', await s.api('GET', '/api/categories', { headers: cook.headers }));
    check('PATCH /api/recipes/{id}', await s.api('PATCH', `/api/recipes/${id}`, { json: { isPublic: false, category: null }, headers: cook.headers }));
    check('PATCH /api/recipes/{id}', await s.api('PATCH', `/api/recipes/${id}`, { json: { isPublic: true }, headers: cook.headers }));
    check('PATCH /api/recipes/{id}', await s.api('PATCH', `/api/recipes/${id}`, { json: { title: 'Mine now' }, headers: other.headers }));
    check('POST /api/recipes/{id}/photo', await postPhoto(s, cook, `/api/recipes/${id}/photo`, { bytes: IMAGES.png }));
    check('POST /api/recipes/{id}/photo', await postPhoto(s, cook, `/api/recipes/${id}/photo`, { bytes: Buffer.from('not an image') }));
    const stepPhoto = await postPhoto(s, admin, `/api/recipes/${id}/steps/5/photo`, { bytes: IMAGES.jpg });
    check('POST /api/recipes/{id}/steps/{order}/photo', stepPhoto);
    check('POST /api/recipes/{id}/steps/{order}/photo', await postPhoto(s, cook, `/api/recipes/${id}/steps/2/photo`, { bytes: IMAGES.gif }));
    const photo = await fetch(s.url + stepPhoto.body.steps[1].photoUrl);
    t.is(photo.status, 200);
    t.is(photo.headers.get('content-type'), 'image/jpeg');
    await photo.arrayBuffer();
    check('POST /api/recipes/{id}/saved', await s.api('POST', `/api/recipes/${id}/saved`, { headers: other.headers }));
    check('GET /api/recipes', await s.api('GET', '/api/recipes?saved=true', { headers: other.headers }));
    check('DELETE /api/recipes/{id}/saved', await s.api('DELETE', `/api/recipes/${id}/saved`, { headers: other.headers }));
    check('POST /api/recipes/import-url', await s.api('POST', '/api/recipes/import-url', { json: { url: 'ftp://example.org/' }, headers: cook.headers }));
    check('DELETE /api/recipes/{id}', await s.api('DELETE', `/api/recipes/${id}`, { headers: other.headers }));
    check('DELETE /api/recipes/{id}', await s.api('DELETE', `/api/recipes/${id}`, { headers: cook.headers }));
    check('DELETE /api/recipes/{id}', await s.api('DELETE', `/api/recipes/${id}`, { headers: cook.headers }));
  } finally {
    await s.close();
  }
});

/** A page server for the import: /recipe holds a schema.org Recipe in JSON-LD, anything else no recipe. */
async function startPageServer(): Promise<{ url: string; close(): Promise<void> }> {
  const recipe = {
    '@context': 'https://schema.org',
    '@type': 'Recipe',
    name: 'Fünke pancakes',
    recipeYield: '4 servings',
    prepTime: 'PT10M',
    recipeIngredient: ['1 1/2 cups flour', 'a pinch of salt'],
    recipeInstructions: [{ '@type': 'HowToStep', text: 'Mix.' }, { '@type': 'HowToStep', text: 'Fry.' }],
    keywords: 'breakfast, sweet',
    recipeCategory: 'Breakfast',
    image: 'https://example.org/pancakes.jpg',
  };
  const server = createServer((req, res) => {
    const body = req.url === '/recipe' ? `<script type="application/ld+json">${JSON.stringify(recipe)}</script>` : '<p>No recipe here.</p>';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head></head><body>${body}</body></html>`);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test('an import draft matches the document and can be posted back as it is', async (t) => {
  const page = await startPageServer();
  const { s, cook } = await startWithAccounts({ RECIPES_IMPORT_PRIVATE: 'allow' });
  try {
    const doc = await resolved(openApiDocument());
    const draft = await s.api('POST', '/api/recipes/import-url', { json: { url: `${page.url}/recipe` }, headers: cook.headers });
    matchesDocument(t, doc, 'POST /api/recipes/import-url', draft);
    t.is(draft.body.title, 'Fünke pancakes');
    matchesDocument(t, doc, 'POST /api/recipes', await s.api('POST', '/api/recipes', { json: draft.body, headers: cook.headers }));
    matchesDocument(t, doc, 'POST /api/recipes/import-url', await s.api('POST', '/api/recipes/import-url', { json: { url: `${page.url}/nothing` }, headers: cook.headers }));
  } finally {
    await s.close();
    await page.close();
  }
});

const packageFolder = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const TYPES: Partial<Record<string, string>> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', png: 'image/png' };

test("/api/docs: Swagger UI's page loading its files from this server only, pointed at /api/openapi.json", (t) =>
  withServer(async (s) => {
    const page = await s.api('GET', '/api/docs');
    t.is(page.status, 200);
    t.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
    t.regex(page.headers.get('content-security-policy') ?? '', /script-src 'self'(;|$)/);
    const urls = [...(page.body as string).matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    t.false(
      urls.some((url) => /^(?:[a-z]+:)?\/\//i.test(url)),
      'no CDN',
    );
    const loaded = urls.map((url) => new URL(url, `${s.url}/api/docs`).pathname).sort();
    t.deepEqual(loaded, [...PACKAGE_ASSETS, DOCS_INIT_SCRIPT].map((name) => `/api/docs/${name}`).sort());

    const script = await s.api('GET', `/api/docs/${DOCS_INIT_SCRIPT}`);
    t.is(script.status, 200);
    t.is(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
    t.is(new URL(/url: new URL\('([^']+)'/.exec(script.body)![1]!, `${s.url}/api/docs`).pathname, '/api/openapi.json');
    t.regex(script.body, /validatorUrl: null/, 'no call to the online validator');

    const slash = await fetch(`${s.url}/api/docs/?x=1`, { redirect: 'manual' });
    t.is(slash.status, 301);
    t.is(new URL(slash.headers.get('location')!, `${s.url}/api/docs/`).href, `${s.url}/api/docs?x=1`);
  }));

test("the page's files: swagger-ui-dist's bytes, their types, caching headers, 304 and gzip; nothing else", (t) =>
  withServer(async (s) => {
    for (const name of PACKAGE_ASSETS) {
      const res = await fetch(`${s.url}/api/docs/${name}`);
      const body = Buffer.from(await res.arrayBuffer());
      t.is(res.status, 200, name);
      t.is(res.headers.get('content-type'), TYPES[name.split('.').pop()!] ?? 'unknown type');
      t.is(res.headers.get('cache-control'), ASSET_CACHE_CONTROL);
      t.is(res.headers.get('x-content-type-options'), 'nosniff');
      t.true(body.equals(await readFile(join(packageFolder, name))), `${name}: the package's bytes`);
      const etag = res.headers.get('etag')!;
      t.truthy(etag);
      const again = await fetch(`${s.url}/api/docs/${name}`, { headers: { 'if-none-match': etag } });
      t.is(again.status, 304, name);
    }
    const zipped = await fetch(`${s.url}/api/docs/swagger-ui-bundle.js`, { headers: { 'accept-encoding': 'gzip' } });
    t.is(zipped.headers.get('content-encoding'), 'gzip');
    t.is(zipped.headers.get('vary'), 'Accept-Encoding');
    const plain = await fetch(`${s.url}/api/docs/swagger-ui-bundle.js`, { headers: { 'accept-encoding': 'identity' } });
    t.is(plain.headers.get('content-encoding'), null);
    await plain.arrayBuffer();
    await zipped.arrayBuffer();

    for (const name of ['package.json', 'index.html', 'swagger-ui.js', 'swagger-ui-bundle.js.map', '..%2Fpackage.json', '%2e%2e', 'swagger-ui.css%00']) {
      const refused = await s.api('GET', `/api/docs/${name}`);
      t.is(refused.status, 404, name);
      t.is(typeof refused.body.error, 'string', `${name}: the JSON error body`);
    }
    t.is((await s.api('POST', '/api/docs')).status, 404);
  }));
