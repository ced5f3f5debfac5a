// A permitted-variant recipe manager, for proving that the recipes suite passes a different but right one: the
// reference recipe manager (reference/recipes) runs in this process on an internal Unix socket, behind a
// node:http front on PORT that speaks the variant's own design (variant-recipes-design.ts) where document 002
// leaves room, each difference switched by VARIANTS (comma-separated, variant-recipes-variants.ts). The
// deployment variables are the reference's: PORT (default 3000), JWT_SECRET, JWT_EXPIRES_IN, APP_URL,
// RECIPES_DB_FILE (default data/recipes.json), RECIPES_IMPORT_PRIVATE, RECIPES_UPLOADS_DIR.
//
//   VARIANTS=a,b JWT_SECRET=… node --import tsx tools/test/variant/variant-recipes.ts
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { Agent, createServer, type IncomingHttpHeaders, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Mailer, type MailLinks, type OutgoingMail, resolveAppUrl } from '../../../reference/recipes/mail/index.ts';
import { ensureUploadsDir, type RecipesServer, serverOptionsFromEnv, startRecipesServer, startupFailure } from '../../../reference/recipes/server/index.ts';
import { parsePort } from '../../../reference/recipes/server/server-options.ts';
import { openRecipesStore, type RecipesStore, recipesDbFile } from '../../../reference/recipes/store/index.ts';
import { DOCS_PAGE } from './variant-recipes-docs.ts';
import { RecipeNumbers } from './variant-recipes-ids.ts';
import { type Answer, errorAnswer, errorOf, mapParts, type On, queryToReference, recipeToReference, renamePart, type Route, routeOf, successAnswer, withoutMetadata } from './variant-recipes-design.ts';
import { RECIPES_VARIANTS, type RecipesVariant } from './variant-recipes-variants.ts';

const variants = new Set((process.env['VARIANTS'] ?? '').split(',').filter(Boolean));
for (const name of variants) {
  if (!(name in RECIPES_VARIANTS)) {
    process.stderr.write(`variant-recipes: unknown variant ${name}; known: ${Object.keys(RECIPES_VARIANTS).join(', ')}\n`);
    process.exit(2);
  }
}
const on: On = (v: RecipesVariant) => variants.has(v);
const log = (message: string): void => void process.stderr.write(`${message}\n`);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Bodies the front reads whole to translate: a JSON body, a photo upload. Larger ones are refused (413). */
const JSON_CAP = 1024 * 1024 + 64 * 1024;
const UPLOAD_CAP = 11 * 1024 * 1024;
/** Linux's abstract namespace: no file to remove, whatever ends the process. */
const BACKEND_SOCKET = `\0variant-recipes-${process.pid}-${randomBytes(6).toString('hex')}`;

// ---------------------------------------------------------------- start-up

let store: RecipesStore | undefined;
let backend: RecipesServer | undefined;
let appUrl = '';
let numbers: RecipeNumbers | undefined;

async function start(): Promise<{ front: ReturnType<typeof createServer>; backend: RecipesServer; store: RecipesStore }> {
  const env = process.env;
  const port = parsePort(env['PORT']);
  const options = serverOptionsFromEnv({ ...env, PORT: '0' });
  const dbFile = recipesDbFile(env);
  store = await openRecipesStore({ file: dbFile, log });
  if (on('numeric-ids')) numbers = new RecipeNumbers(`${dbFile}.recipe-numbers.json`);
  if (on('registration-closed-by-default') && Object.keys(store.data.users).length === 0) {
    // A fresh install: nobody registers until an admin opens registration.
    await store.update((draft) => {
      draft.settings.allowRegistration = false;
    });
  }
  const front = createServer((req, res) => void handle(req, res));
  front.listen(port);
  await Promise.race([once(front, 'listening'), once(front, 'error').then(([err]) => Promise.reject(err))]);
  const frontPort = (front.address() as AddressInfo).port;
  appUrl = resolveAppUrl(env['APP_URL'], frontPort);
  await ensureUploadsDir(options.uploadsDir);
  // The reference listens on an abstract Unix socket, not a loopback port: a port the kernel picks could be one
  // the suite has reserved for another target that has not bound it yet.
  backend = await startRecipesServer({ ...options, port: BACKEND_SOCKET as unknown as number, host: undefined, appUrl, store, log });
  if (on('code-param') || on('link-params')) {
    const link = (path: string, param: string) => (token: string) => `${appUrl}${path}?${param}=${encodeURIComponent(token)}`;
    const code = on('code-param');
    const links: MailLinks = {
      verification: link('/api/auth/verify-email', code ? 'code' : 'token'),
      reset: link('/reset-password', on('link-params') ? 'key' : code ? 'code' : 'token'),
      invite: link(code ? '/join' : '/register', on('link-params') ? 'invite' : code ? 'code' : 'inviteToken'),
    };
    Object.defineProperty(backend.context, 'links', { value: links });
  }
  if (on('html-mail')) {
    const mailerOf = backend.context.mailer.bind(backend.context);
    const htmlOnly = (mailer: Mailer): Mailer => ({ configured: mailer.configured, from: mailer.from, send: (mail) => mailer.send({ ...mail, text: '', html: mailHtml(mail) }) });
    Object.defineProperty(backend.context, 'mailer', { value: () => htmlOnly(mailerOf()) });
  }
  if (on('banner')) {
    process.stdout.write('+-----------------------------------------+\n');
    process.stdout.write('|  Variant Recipes - your recipe manager  |\n');
    process.stdout.write(`|  http://localhost:${frontPort}`.padEnd(42) + '|\n');
    process.stdout.write('+-----------------------------------------+\n');
  }
  log(`variant-recipes: serving on port ${frontPort} (data ${dbFile}; variants ${[...variants].join(',') || 'none'})`);
  return { front, backend, store };
}

const ready = start();

ready.then(
  ({ front, backend, store }) => {
    if (on('no-sigterm')) return;
    const stop = () => {
      front.close();
      front.closeIdleConnections();
      backend
        .close()
        .finally(() => store.close())
        .then(
          () => process.exit(0),
          () => process.exit(1),
        );
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  },
  (err: unknown) => {
    log(`variant-recipes: cannot start: ${startupFailure(err)}`);
    void (store?.close() ?? Promise.resolve()).finally(() => process.exit(1));
  },
);

// ---------------------------------------------------------------- forwarding

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

interface Backend {
  status: number;
  headers: IncomingHttpHeaders;
  res: IncomingMessage;
}

function forward(method: string, path: string, headers: IncomingHttpHeaders, body: Buffer | IncomingMessage | undefined): Promise<Backend> {
  return new Promise((resolve, reject) => {
    const out = request({ socketPath: BACKEND_SOCKET, method, path, headers, agent }, (res) => resolve({ status: res.statusCode ?? 502, headers: res.headers, res }));
    out.once('error', reject);
    if (body === undefined) out.end();
    else if (Buffer.isBuffer(body)) out.end(body);
    else body.pipe(out);
  });
}

async function readAll(stream: IncomingMessage, cap = Number.POSITIVE_INFINITY): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > cap) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const isJson = (type: string | undefined): boolean => /^application\/(?:[\w.+-]+\+)?json\b/i.test(type ?? '');

/** Sends a JSON answer, with the reference's headers but those of its body and connection. */
async function send(res: ServerResponse, answer: Answer, backHeaders: IncomingHttpHeaders = {}, headers: Record<string, string> = {}): Promise<void> {
  if (on('slow')) await sleep(30 + Math.floor(Math.random() * 51));
  const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
  const kept = Object.fromEntries(Object.entries(backHeaders).filter(([k, v]) => v !== undefined && !['content-length', 'content-type', 'transfer-encoding', 'connection', 'keep-alive'].includes(k)));
  res.writeHead(answer.status, { ...kept, ...headers, ...(text === '' ? {} : { 'Content-Type': 'application/json; charset=utf-8' }), 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** The category a recipe change names (categories-from-recipes): kept by the front, not the reference. */
interface Pending {
  category?: string | null;
  /** Not a category name: the change is refused. */
  badCategory?: boolean;
}

/** A JSON request body read whole: the text and its value; the text alone when it is no JSON (the reference
 * answers it), 'too-large' past JSON_CAP. */
async function readJson(req: IncomingMessage): Promise<{ raw: Buffer; parsed: unknown } | Buffer | 'too-large'> {
  const raw = await readAll(req, JSON_CAP);
  if (raw === undefined) return 'too-large';
  try {
    return { raw, parsed: JSON.parse(raw.toString('utf8')) as unknown };
  } catch {
    return raw;
  }
}

/** The request's body for the reference: translated when the variant's design differs, else streamed. */
async function requestBody(req: IncomingMessage, route: Route, headers: IncomingHttpHeaders, pending: Pending): Promise<Buffer | IncomingMessage | 'too-large' | 'no-invitee'> {
  const type = req.headers['content-type'];
  if ((on('own-shapes') || on('categories-from-recipes')) && route.kind === 'recipe-change' && isJson(type)) {
    const read = await readJson(req);
    if (read === 'too-large' || Buffer.isBuffer(read)) return read;
    const { parsed } = read;
    const recipe = (on('own-shapes') ? recipeToReference(parsed) : parsed) as Record<string, unknown>;
    if (on('categories-from-recipes') && typeof recipe === 'object' && recipe !== null && 'category' in recipe) {
      const category = recipe['category'];
      const name = typeof category === 'string' ? category.trim() : category;
      if (name === null || name === '') pending.category = null;
      else if (typeof name === 'string' && name.length <= 50) pending.category = name;
      else pending.badCategory = true;
      delete recipe['category'];
    }
    const body = Buffer.from(JSON.stringify(recipe));
    headers['content-length'] = String(body.length);
    return body;
  }
  if (on('invite-for-email') && route.kind === 'invite' && isJson(type)) {
    const read = await readJson(req);
    if (read === 'too-large' || Buffer.isBuffer(read)) return read;
    const { raw, parsed } = read;
    // An invite is made for someone: without their address there is nothing to make.
    const email = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)['email'] : undefined;
    if (typeof email !== 'string' || email === '') return 'no-invitee';
    return raw;
  }
  if (on('import-field-link') && route.kind === 'draft' && isJson(type)) {
    const read = await readJson(req);
    if (read === 'too-large' || Buffer.isBuffer(read)) return read;
    const { parsed } = read;
    // The page to import is `link`; a `url` field is not what this design reads.
    const { link, ...rest } = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
    const body = Buffer.from(JSON.stringify({ ...rest, url: link }));
    headers['content-length'] = String(body.length);
    return body;
  }
  const boundary = /^multipart\/form-data;.*boundary="?([^";]+)"?/i.exec(type ?? '')?.[1];
  if ((on('photo-field-image') || on('strip-metadata')) && route.kind === 'photo' && boundary !== undefined) {
    const raw = await readAll(req, UPLOAD_CAP);
    if (raw === undefined) return 'too-large';
    const body = mapParts(raw, boundary, (part) => {
      // The reference's field is `photo`: a part named so is not the variant's photo.
      const named = on('photo-field-image') ? renamePart(part, { image: 'photo', photo: 'not-the-photo' }) : part;
      return on('strip-metadata') ? { ...named, content: withoutMetadata(named.content) } : named;
    });
    headers['content-length'] = String(body.length);
    return body;
  }
  return req;
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    await ready;
    const url = new URL(req.url ?? '/', 'http://variant');
    if (numbers) url.pathname = numbers.referencePath(url.pathname);
    const method = req.method ?? 'GET';
    if (await ownEndpoint(method, url, res)) return;
    if (on('extra-endpoints') && (await extraEndpoint(method, url, req, res))) return;
    const route = routeOf(method, url.pathname);
    const query = queryToReference(on, route, url.searchParams);
    if ('refused' in query) {
      req.resume();
      await send(res, errorOf(on, 400, query.refused));
      return;
    }
    if (on('strict-tokens') && method === 'GET' && (route.kind === 'recipe' || route.kind === 'list' || route.kind === 'tags') && req.headers.authorization !== undefined) {
      // A token that comes along is checked, public reads included.
      const me = await forward('GET', '/api/auth/me', { authorization: req.headers.authorization }, undefined);
      const raw = (await readAll(me.res)) ?? Buffer.alloc(0);
      if (me.status === 401) {
        req.resume();
        await send(res, errorAnswer(on, { route, recipeExists: false, tokenSent: true }, { status: 401, body: JSON.parse(raw.toString('utf8') || '{}') }), me.headers);
        return;
      }
    }
    const headers: IncomingHttpHeaders = { ...req.headers };
    // tags-public-only: the tags do not depend on who asks.
    if (on('tags-public-only') && route.kind === 'tags') delete headers.authorization;
    const pending: Pending = {};
    const body = await requestBody(req, route, headers, pending);
    if (body === 'too-large') {
      await send(res, errorOf(on, 413, 'The request body is too large.'), {}, { Connection: 'close' });
      return;
    }
    if (body === 'no-invitee') {
      await send(res, errorOf(on, 400, 'email: an invite is made for an email address.'));
      return;
    }
    if (pending.badCategory) {
      await send(res, errorOf(on, 400, 'category: a category is a name of 1 to 50 characters, or null.'));
      return;
    }
    const search = query.toString();
    const back = await forward(method, `${url.pathname}${search === '' ? '' : `?${search}`}`, headers, body);
    const type = back.headers['content-type'];
    // The API's description is a document of its own, not an answer of the API's design.
    const described = url.pathname === '/api/openapi.json' || url.pathname.startsWith('/api/docs');
    if ((!isJson(type) || described) && back.status !== 204) {
      // Files, the docs page, anything not JSON: as the reference sends it.
      if (on('slow')) await sleep(30 + Math.floor(Math.random() * 51));
      const status = on('own-success-codes') && back.status === 201 ? 200 : back.status;
      res.writeHead(status, back.headers);
      back.res.pipe(res);
      return;
    }
    const raw = (await readAll(back.res)) ?? Buffer.alloc(0);
    let parsed: unknown;
    try {
      parsed = raw.length === 0 ? undefined : JSON.parse(raw.toString('utf8'));
    } catch {
      res.writeHead(back.status, back.headers);
      res.end(raw);
      return;
    }
    if (on('verify-redirect') && route.kind === 'verify' && back.status === 200) {
      // A link clicked in a mail lands on the front end's sign-in page.
      if (on('slow')) await sleep(30 + Math.floor(Math.random() * 51));
      res.writeHead(303, { Location: `${appUrl}/login?verified=1`, 'Content-Length': 0 });
      res.end();
      return;
    }
    if (back.status >= 200 && back.status < 300) parsed = await ownParts(route, parsed, pending);
    const answer = await translate(method, route, req, { status: back.status, body: parsed });
    await send(res, answer, back.headers);
  } catch (err) {
    log(`variant-recipes: ${req.method} ${req.url}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    if (!res.headersSent) await send(res, errorOf(on, 500, 'Something went wrong on our side.'));
    else res.destroy();
  }
}

async function translate(method: string, route: Route, req: IncomingMessage, answer: Answer): Promise<Answer> {
  if (answer.status >= 400) {
    const recipeExists = route.recipeId !== undefined && store!.data.recipes[route.recipeId] !== undefined;
    return errorAnswer(on, { route, recipeExists, tokenSent: /^bearer\s/i.test(req.headers.authorization ?? '') }, answer);
  }
  if (route.kind === 'setup' && method === 'POST' && on('setup-admin-unverified')) return successAnswer(on, { kind: 'register' }, await unverifiedAdmin(answer));
  return successAnswer(on, route, numbers ? { ...answer, body: numbers.numbered(route.kind, answer.body) } : answer);
}

/** What the variant keeps or counts itself, in a successful answer of the reference: the category of a recipe
 * change and the categories in use (categories-from-recipes), the tags with their counts (tags-counted). */
async function ownParts(route: Route, body: unknown, pending: Pending): Promise<unknown> {
  const data = store!.data;
  if (route.kind === 'recipe-change' && 'category' in pending && typeof body === 'object' && body !== null) {
    const recipe = body as Record<string, unknown>;
    const id = route.recipeId ?? String(recipe['id']);
    await store!.update((draft) => {
      const stored = draft.recipes[id];
      if (stored && pending.category === null) delete stored.category;
      else if (stored) stored.category = pending.category!;
    });
    return { ...recipe, category: pending.category };
  }
  if (route.kind === 'categories' && on('categories-from-recipes')) {
    const names = [...new Set(Object.values(data.recipes).flatMap((r) => (r.category === undefined ? [] : [r.category])))].sort();
    return names.map((name) => ({ slug: name, name }));
  }
  if (route.kind === 'tags' && on('tags-counted') && Array.isArray(body)) {
    const count = (tag: unknown) => Object.values(data.recipes).filter((r) => r.tags.includes(String(tag))).length;
    return body.map((tag: unknown) => ({ tag, count: count(tag) }));
  }
  return body;
}

/** The setup admin made unverified, and the setup answer a registration's: the user and its verification link. */
async function unverifiedAdmin(answer: Answer): Promise<Answer> {
  const user = (answer.body as { user?: { id?: string } } | undefined)?.user;
  const id = user?.id;
  if (typeof id !== 'string') return answer;
  await store!.update((draft) => {
    const record = draft.users[id];
    if (record) record.emailVerified = false;
  });
  const { token } = await backend!.context.oneTime.issue('verify-email', id);
  const verificationUrl = backend!.context.links.verification(token);
  return { status: answer.status, body: { user: { ...user, emailVerified: false }, message: 'Administrator created; confirm the email address to sign in.', verificationUrl } };
}

/** A mail as HTML alone, its link behind a button (html-mail). */
function mailHtml(mail: OutgoingMail): string {
  const link = /https?:\/\/\S+/.exec(mail.text)?.[0] ?? '';
  const lines = mail.text.split('\n').filter((l) => l.trim() !== '' && !l.includes(link) && !l.trim().endsWith(':'));
  const text = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<!doctype html><html><body>${lines.map((l) => `<p>${text(l)}</p>`).join('')}<p><a href="${link.replace(/&/g, '&amp;')}" style="padding:8px;background:#2a7">Open</a></p></body></html>`;
}

// ---------------------------------------------------------------- endpoints of its own

/** What the variant serves otherwise than the reference: its docs page, its health path. */
async function ownEndpoint(method: string, url: URL, res: ServerResponse): Promise<boolean> {
  const path = url.pathname;
  if (on('health-under-api') && path === '/health') {
    await send(res, errorOf(on, 404, `Nothing at ${path}; the health check is GET /api/health.`));
    return true;
  }
  if (!on('own-docs')) return false;
  if (method === 'GET' && (path === '/api/docs' || path === '/api/docs/')) {
    if (on('slow')) await sleep(30 + Math.floor(Math.random() * 51));
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(DOCS_PAGE) });
    res.end(DOCS_PAGE);
    return true;
  }
  if (path.startsWith('/api/docs/') || path === '/api/openapi.json') {
    await send(res, errorOf(on, 404, `Nothing at ${path}.`));
    return true;
  }
  return false;
}

// ---------------------------------------------------------------- extra endpoints

async function extraEndpoint(method: string, url: URL, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  if (method !== 'GET') return false;
  if (url.pathname === '/api/version') {
    await send(res, { status: 200, body: { name: 'variant-recipes', version: '2.4.1' } });
    return true;
  }
  if (url.pathname === '/api/stats') {
    const recipes = Object.values(store!.data.recipes).filter((r) => r.isPublic).length;
    await send(res, { status: 200, body: { publicRecipes: recipes } });
    return true;
  }
  const print = /^\/api\/recipes\/([^/]+)\/print$/.exec(url.pathname);
  if (!print) return false;
  const headers: IncomingHttpHeaders = req.headers.authorization === undefined ? {} : { authorization: req.headers.authorization };
  const back = await forward('GET', `/api/recipes/${print[1]}`, headers, undefined);
  const raw = (await readAll(back.res)) ?? Buffer.alloc(0);
  const recipe = JSON.parse(raw.toString('utf8') || '{}') as { title?: string; ingredients?: { name?: string; quantity?: number; unit?: string }[]; steps?: { order?: number; text?: string }[] };
  if (back.status !== 200) {
    await send(res, errorAnswer(on, { route: { kind: 'recipe', recipeId: print[1]! }, recipeExists: store!.data.recipes[print[1]!] !== undefined, tokenSent: headers.authorization !== undefined }, { status: back.status, body: recipe }));
    return true;
  }
  const lines = [
    recipe.title ?? '',
    '',
    ...(recipe.ingredients ?? []).map((i) => `- ${[i.quantity, i.unit, i.name].filter((x) => x !== undefined && x !== '').join(' ')}`),
    '',
    ...(recipe.steps ?? []).map((s) => `${s.order}. ${s.text}`),
  ];
  const text = `${lines.join('\n')}\n`;
  res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
  return true;
}
