// The permitted-variant recipe manager's own API design, as translations between it and the reference it runs
// behind (variant-recipes.ts): which endpoint a request is, the request bodies and queries of the variant's
// design in the reference's, and the reference's answers in the variant's. Pure functions of the variants on.
import { randomUUID } from 'node:crypto';
import type { RecipesVariant } from './variant-recipes-variants.ts';

export type On = (v: RecipesVariant) => boolean;

export type Kind =
  | 'setup-status'
  | 'setup'
  | 'login'
  | 'me'
  | 'register'
  | 'verify'
  | 'forgot'
  | 'settings'
  | 'users'
  | 'user'
  | 'invite'
  | 'invites'
  | 'list'
  | 'tags'
  | 'draft'
  | 'recipe'
  | 'recipe-change'
  | 'photo'
  | 'categories'
  | 'admin'
  | 'other';

export interface Route {
  kind: Kind;
  /** GET /api/recipes/public (a list without a caller). */
  public?: boolean;
  /** The recipe id of /api/recipes/:id and the paths under it. */
  recipeId?: string;
  /** The step order of a step photo upload. */
  stepOrder?: number;
}

const ID = '([^/]+)';
const TABLE: [string, RegExp, Kind][] = [
  ['GET', /^\/api\/admin\/setup$/, 'setup-status'],
  ['POST', /^\/api\/admin\/setup$/, 'setup'],
  ['POST', /^\/api\/auth\/login$/, 'login'],
  ['GET', /^\/api\/auth\/me$/, 'me'],
  ['POST', /^\/api\/auth\/register$/, 'register'],
  ['GET', /^\/api\/auth\/verify-email$/, 'verify'],
  ['POST', /^\/api\/auth\/forgot-password$/, 'forgot'],
  ['GET', /^\/api\/admin\/settings$/, 'settings'],
  ['PATCH', /^\/api\/admin\/settings$/, 'settings'],
  ['GET', /^\/api\/admin\/users$/, 'users'],
  ['PATCH', /^\/api\/admin\/users\/[^/]+$/, 'user'],
  ['POST', /^\/api\/admin\/invites$/, 'invite'],
  ['GET', /^\/api\/admin\/invites$/, 'invites'],
  ['GET', /^\/api\/recipes$/, 'list'],
  ['GET', /^\/api\/recipes\/tags$/, 'tags'],
  ['POST', /^\/api\/recipes\/import-url$/, 'draft'],
  ['POST', /^\/api\/recipes$/, 'recipe-change'],
  ['GET', new RegExp(`^/api/recipes/${ID}$`), 'recipe'],
  ['PATCH', new RegExp(`^/api/recipes/${ID}$`), 'recipe-change'],
  ['POST', new RegExp(`^/api/recipes/${ID}/photo$`), 'photo'],
  ['POST', new RegExp(`^/api/recipes/${ID}/steps/[^/]+/photo$`), 'photo'],
  ['GET', /^\/api\/categories$/, 'categories'],
];

export function routeOf(method: string, path: string): Route {
  if (method === 'GET' && path === '/api/recipes/public') return { kind: 'list', public: true };
  for (const [m, pattern, kind] of TABLE) {
    const found = method === m ? pattern.exec(path) : null;
    if (!found) continue;
    const step = /\/steps\/([^/]+)\/photo$/.exec(path);
    if (found[1] === undefined) return { kind };
    return { kind, recipeId: decodeURIComponent(found[1]), ...(step ? { stepOrder: Number(decodeURIComponent(step[1]!)) } : {}) };
  }
  const recipe = /^\/api\/recipes\/([^/]+)(?:\/.*)?$/.exec(path);
  if (recipe && !['public', 'tags', 'import-url'].includes(recipe[1]!)) return { kind: 'other', recipeId: decodeURIComponent(recipe[1]!) };
  if (path.startsWith('/api/admin/') && path !== '/api/admin/setup') return { kind: 'admin' };
  return { kind: 'other' };
}

// ---------------------------------------------------------------- field names

/** The reference's recipe field names and the variant's (own-shapes), by depth: the recipe's own fields, an
 * ingredient's, a step's. A recipe's title is its `name` while an ingredient's name is its `item` (and a user's
 * name stays `name`): a suite renaming at every depth would take one for the other. isPublic and order are the
 * document's. */
export const RECIPE_FIELDS: Readonly<Record<string, string>> = { title: 'name', description: 'summary', servings: 'yield' };
const INGREDIENT_FIELDS: Readonly<Record<string, string>> = { name: 'item', quantity: 'amount' };
const STEP_FIELDS: Readonly<Record<string, string>> = { text: 'instruction' };
const inverse = (names: Readonly<Record<string, string>>) => Object.fromEntries(Object.entries(names).map(([a, b]) => [b, a]));

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An object's own keys renamed by `names` (no deeper). */
const renameOwn = (value: unknown, names: Readonly<Record<string, string>>): unknown =>
  isObject(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [names[k] ?? k, v])) : value;

/** A recipe renamed level by level: its fields, its ingredients' and its steps'. */
function renameRecipe(recipe: unknown, own: Readonly<Record<string, string>>, ingredient: Readonly<Record<string, string>>, step: Readonly<Record<string, string>>): unknown {
  if (!isObject(recipe)) return recipe;
  const out = renameOwn(recipe, own) as Record<string, unknown>;
  if (Array.isArray(out['ingredients'])) out['ingredients'] = out['ingredients'].map((i) => renameOwn(i, ingredient));
  if (Array.isArray(out['steps'])) out['steps'] = out['steps'].map((s) => renameOwn(s, step));
  return out;
}

/** A recipe body of the variant's design in the reference's field names. */
export const recipeToReference = (body: unknown): unknown => renameRecipe(body, inverse(RECIPE_FIELDS), inverse(INGREDIENT_FIELDS), inverse(STEP_FIELDS));
const recipeToVariant = (body: unknown): unknown => renameRecipe(body, RECIPE_FIELDS, INGREDIENT_FIELDS, STEP_FIELDS);

// ---------------------------------------------------------------- answers

export interface Answer {
  status: number;
  /** Parsed JSON, or undefined for no body. */
  body: unknown;
}

/** Extra fields of a recipe (extra-fields): a link to itself and a rating nobody gave yet. */
function extraRecipe(recipe: unknown): unknown {
  if (!isObject(recipe)) return recipe;
  return { ...recipe, rating: null, _links: { self: `/api/recipes/${String(recipe['id'])}`, print: `/api/recipes/${String(recipe['id'])}/print` } };
}

const extraUser = (user: unknown): unknown => (isObject(user) ? { ...user, avatarUrl: null, locale: 'en' } : user);

/** A successful answer of the reference in the variant's design. */
export function successAnswer(on: On, route: Route, answer: Answer): Answer {
  let status = answer.status;
  let body = answer.body;
  const shapes = on('own-shapes');
  const extra = on('extra-fields');
  const recipeOut = (r: unknown) => {
    const named = shapes ? recipeToVariant(r) : r;
    return extra ? extraRecipe(named) : named;
  };
  const userOut = (u: unknown) => (extra ? extraUser(u) : u);

  if (isObject(body) || Array.isArray(body)) {
    switch (route.kind) {
      case 'setup-status':
        if (isObject(body) && shapes) body = { needsSetup: body['adminExists'] !== true };
        break;
      case 'setup':
      case 'login':
        if (isObject(body) && shapes) {
          const { token, user, ...rest } = body;
          body = { ...rest, ...(token === undefined ? {} : { accessToken: token, tokenType: 'Bearer' }), user: userOut(user) };
        } else if (isObject(body)) body = { ...body, user: userOut(body['user']) };
        break;
      case 'me':
        body = shapes ? { user: userOut(body) } : userOut(body);
        break;
      case 'register':
      case 'forgot':
      case 'invite':
        body = linksMoved(on, body);
        if (route.kind === 'register' && isObject(body)) body = { ...body, user: userOut(body['user']) };
        if (route.kind === 'invite' && shapes && isObject(body)) {
          const { links, ...invite } = body;
          body = { invite, ...(links === undefined ? {} : { links }) };
        }
        break;
      case 'settings':
        if (shapes) body = { settings: body };
        break;
      case 'users':
        if (Array.isArray(body)) {
          const users = body.map(userOut);
          body = on('own-envelope') ? { data: users, meta: { total: users.length } } : users;
        }
        break;
      case 'user':
        body = userOut(body);
        break;
      case 'invites':
        if (Array.isArray(body) && on('own-envelope')) body = { data: body, meta: { total: body.length } };
        break;
      case 'list':
        if (isObject(body) && Array.isArray(body['items'])) {
          const items = body['items'].map(recipeOut);
          const page = on('zero-based-pages') && typeof body['page'] === 'number' ? body['page'] - 1 : body['page'];
          if (route.public && on('answers-by-call')) body = items;
          else body = on('own-envelope') ? { data: items, meta: { page, perPage: body['limit'], total: body['total'] } } : { ...body, items, page };
        }
        break;
      case 'tags':
        if (shapes) body = { tags: body };
        break;
      case 'categories':
        if (Array.isArray(body) && on('categories-strings')) body = body.map((c: unknown) => (isObject(c) ? c['slug'] : c));
        if (shapes) body = { categories: body };
        break;
      case 'draft':
        body = shapes ? { draft: recipeToVariant(body) } : body;
        break;
      case 'recipe':
      case 'recipe-change':
      case 'photo':
        if (on('answers-by-call') && route.kind !== 'recipe' && isObject(body)) {
          body = route.kind === 'photo' ? { photo: { url: photoUrlOf(body, route.stepOrder) } } : route.recipeId === undefined ? { id: body['id'], href: `/api/recipes/${String(body['id'])}` } : recipeOut(body);
          break;
        }
        body = shapes ? { recipe: recipeOut(body) } : recipeOut(body);
        break;
      default:
        break;
    }
  }
  if (on('own-success-codes') && (status === 201 || status === 204)) {
    if (status === 204) body = { ok: true };
    status = 200;
  }
  if (extra && isObject(body)) body = { ...body, requestId: randomUUID() };
  return { status, body };
}

/** The photo URL of the main photo, or of the step with `order`, in a reference recipe. */
function photoUrlOf(recipe: Record<string, unknown>, order: number | undefined): unknown {
  if (order === undefined) return recipe['photoUrl'];
  const steps = Array.isArray(recipe['steps']) ? (recipe['steps'] as unknown[]) : [];
  return steps.filter(isObject).find((s) => s['order'] === order)?.['photoUrl'];
}

/** The link fields of an answer moved under `links` (links-elsewhere). */
function linksMoved(on: On, body: unknown): unknown {
  if (!on('links-elsewhere') || !isObject(body)) return body;
  const { verificationUrl, resetUrl, url, ...rest } = body;
  const links = { ...(verificationUrl === undefined ? {} : { verify: verificationUrl }), ...(resetUrl === undefined ? {} : { reset: resetUrl }), ...(url === undefined ? {} : { invite: url }) };
  return Object.keys(links).length === 0 ? rest : { ...rest, links };
}

// ---------------------------------------------------------------- errors

const CODES: Record<number, string> = {
  400: 'INVALID_INPUT',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'INVALID_INPUT',
  500: 'INTERNAL',
  502: 'MAIL_FAILED',
  503: 'UNAVAILABLE',
};

/** The reference's messages in the variant's words (others are kept). */
const WORDING: Record<string, string> = {
  'Authentication required': 'Please sign in first.',
  'Invalid or expired token': 'Your session is not valid any more; sign in again.',
  'Invalid email or password': 'Wrong email address or password.',
  'Email address not verified': 'Confirm your email address before signing in.',
  'Account is disabled': 'This account has been switched off.',
  'Admin access required': 'Only administrators can do that.',
  'Setup already completed': 'This installation is set up already.',
  'Setup required': 'An administrator has to set up this installation first.',
  'Registration is closed': 'Sign-ups are closed; ask for an invitation.',
};

export interface ErrorContext {
  route: Route;
  /** The recipe of the path exists (for 403-not-404). */
  recipeExists: boolean;
  /** A bearer token came with the request. */
  tokenSent: boolean;
}

/** A refusal of the reference in the variant's design. */
export function errorAnswer(on: On, { route, recipeExists, tokenSent }: ErrorContext, answer: Answer): Answer {
  let status = answer.status;
  const body = isObject(answer.body) ? answer.body : {};
  const message = typeof body['error'] === 'string' ? body['error'] : `HTTP ${status}`;
  const byRole = status === 403 && (route.kind === 'admin' || route.kind === 'settings' || route.kind === 'users' || route.kind === 'user' || route.kind === 'invite' || route.kind === 'invites');
  const byOwner = status === 403 && route.recipeId !== undefined;
  if (on('404-not-403') && (byRole || byOwner)) status = 404;
  if (on('403-not-404') && status === 404 && route.recipeId !== undefined && recipeExists && /recipe not found/i.test(message)) status = tokenSent ? 403 : 401;
  if (!on('own-errors')) return { status, body: answer.body };
  if (status === 400) status = 422;
  if (route.kind === 'login' && status === 403) status = 401;
  return { status, body: ownError(status, WORDING[message] ?? message, body['details']) };
}

/** An error body of the variant's design. */
export function ownError(status: number, message: string, details?: unknown): Record<string, unknown> {
  const fields = Array.isArray(details) ? details.map((d: unknown) => (isObject(d) ? { name: RECIPE_FIELDS[String(d['field'])] ?? d['field'], problem: d['message'] } : d)) : undefined;
  return { message, code: CODES[status] ?? 'ERROR', ...(fields === undefined ? {} : { fields }) };
}

/** An error the variant answers itself, in its design or the reference's. */
export function errorOf(on: On, status: number, message: string): Answer {
  if (!on('own-errors')) return { status, body: { error: message } };
  return { status: status === 400 ? 422 : status, body: ownError(status, message) };
}

// ---------------------------------------------------------------- requests

/** The query of a request in the reference's terms, or the refusal of a value the variant does not take. */
export function queryToReference(on: On, route: Route, query: URLSearchParams): URLSearchParams | { refused: string } {
  const out = new URLSearchParams(query);
  if (route.kind === 'recipe' && on('own-shapes')) {
    // The variant's scaled read: ?yield=N (its name for servings); the reference's parameter means nothing.
    out.delete('servings');
    const servings = query.get('yield');
    out.delete('yield');
    if (servings !== null) out.set('servings', servings);
  }
  if (route.kind === 'list' && route.public && on('public-unfiltered')) {
    for (const name of ['q', 'tag', 'category', 'mine', 'page', 'limit']) out.delete(name);
    out.set('limit', '100');
    return out;
  }
  if (route.kind === 'list') {
    const mine = query.get('mine');
    if (on('mine-1') && mine !== null) {
      if (mine !== '1') return { refused: `mine: only 1 selects your own recipes, not ${JSON.stringify(mine)}` };
      out.set('mine', 'true');
    }
    if (on('list-own-only') && !route.public) out.set('mine', 'true');
    const page = query.get('page');
    // Page 0 is the first: the reference's page is one more (anything else is the reference's to refuse).
    if (on('zero-based-pages') && page !== null && /^-?\d+$/.test(page)) out.set('page', String(Number(page) + 1));
    if (on('small-pages') && query.get('limit') === null) out.set('limit', '3');
    if (on('paging-alt')) {
      const limit = query.get('limit');
      if (limit === null) out.set('limit', '10');
      else if (/^\d+$/.test(limit) && Number(limit) > 50) out.set('limit', '50');
    }
  }
  if (route.kind === 'verify' && on('code-param')) {
    out.delete('token');
    const code = query.get('code');
    out.delete('code');
    if (code !== null) out.set('token', code);
  }
  return out;
}

export interface Part {
  /** The part's header lines (latin1). */
  head: string;
  content: Buffer;
}

/** A multipart body with each part passed through `change` (the variant's photo field and handling in the
 * reference's terms). A body it cannot read is returned as it is. */
export function mapParts(body: Buffer, boundary: string, change: (part: Part) => Part): Buffer {
  const delimiter = Buffer.from(`--${boundary}`);
  const next = Buffer.from(`\r\n--${boundary}`);
  let at = body.indexOf(delimiter);
  if (at === -1) return body;
  const pieces: Buffer[] = [body.subarray(0, at)];
  for (;;) {
    const headStart = at + delimiter.length + 2;
    const headEnd = body.indexOf('\r\n\r\n', headStart);
    const end = headEnd === -1 ? -1 : body.indexOf(next, headEnd + 4);
    if (body.toString('latin1', at + delimiter.length, headStart) === '--' || end === -1) {
      pieces.push(body.subarray(at));
      return Buffer.concat(pieces);
    }
    const part = change({ head: body.toString('latin1', headStart, headEnd), content: body.subarray(headEnd + 4, end) });
    pieces.push(body.subarray(at, headStart), Buffer.from(part.head, 'latin1'), Buffer.from('\r\n\r\n'), part.content, Buffer.from('\r\n'));
    at = end + 2;
  }
}

/** A part's field name changed by `names`. */
export function renamePart(part: Part, names: Readonly<Record<string, string>>): Part {
  return { ...part, head: part.head.replace(/(;\s*name=")([^"]*)(")/i, (_m, a: string, name: string, b: string) => `${a}${names[name] ?? name}${b}`) };
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const METADATA_CHUNKS = new Set(['tEXt', 'iTXt', 'zTXt', 'eXIf', 'tIME']);

/** A PNG without its text, Exif and time chunks (strip-metadata); anything else as it is. */
export function withoutMetadata(content: Buffer): Buffer {
  if (content.length < 8 || !content.subarray(0, 8).equals(PNG_SIGNATURE)) return content;
  const kept: Buffer[] = [content.subarray(0, 8)];
  for (let at = 8; at < content.length; ) {
    if (at + 12 > content.length) return content;
    const end = at + 12 + content.readUInt32BE(at);
    if (end > content.length) return content;
    if (!METADATA_CHUNKS.has(content.toString('latin1', at + 4, at + 8))) kept.push(content.subarray(at, end));
    at = end;
  }
  return Buffer.concat(kept);
}
