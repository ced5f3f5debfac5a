// The cases' client of a recipe manager: raw calls (recorded for the reproducer) and the steps cases need
// before they can judge anything — the first admin, a verified and logged-in user, a recipe — each through
// c.need, so a refused step makes the case `error` with its cause, never a failure of the clause. Bodies go out
// in the target's field names and answers are read through its shapes (shapes.ts).
import { randomBytes } from 'node:crypto';
import type { CaseContext } from '../harness/case-context.ts';
import type { HttpClient, HttpResponse } from '../harness/http-client.ts';
import { Inconclusive } from '../harness/inconclusive.ts';
import { type Answer, entityOfRequest, type LinkKind, read, type Shapes, tagOf, toTarget, urlsIn } from './shapes.ts';

export interface Account {
  email: string;
  password: string;
  name: string;
  /** A bearer token from its login. */
  token: string;
}

export interface CallOptions {
  token?: string | undefined;
  /** A JSON body in neutral field names (renamed to the target's, as the entity its endpoint takes). */
  json?: unknown;
  /** A JSON body sent exactly as given (cases about the reference's own design, or malformed input). */
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  timeoutMs?: number;
}

/** A recipe as the cases write it (neutral names); the target's shapes rename it. */
export interface RecipeFields {
  title: string;
  description?: string;
  servings?: number;
  ingredients?: { name: string; quantity?: number; unit?: string }[];
  steps?: { order: number; text: string }[];
  tags?: string[];
  category?: string;
  isPublic?: boolean;
}

export const PASSWORD = 'Conformance-pass-7391';

/** A fresh email address on a reserved domain. */
export const newEmail = (who = 'user'): string => `${who}-${randomBytes(5).toString('hex')}@example.test`;

export const is2xx = (res: HttpResponse): boolean => res.status >= 200 && res.status < 300;

/** A verification the target accepted: a success, or a redirect (what GET /api/auth/verify-email answers is
 * not shown, and a link opened from a mail may well lead on to a page of the front end). */
export const verifiedBy = (res: HttpResponse): boolean => res.status >= 200 && res.status < 400;

/** A response for a failure message: status and the start of the body. */
export const shown = (res: HttpResponse): string => `${res.status} ${res.text.slice(0, 300)}`;

/** GET /health, and GET /api/health when that is not a success: the document names GET /health without saying
 * whether it sits inside the /api prefix (catalog recipes/health/path-and-body). The last answer. */
export async function healthAnswer(http: HttpClient): Promise<HttpResponse> {
  const bare = await http.request({ path: '/health' });
  return is2xx(bare) ? bare : http.request({ path: '/api/health' });
}

/** The admins made on shared instances, by address. */
const admins = new Map<string, Promise<Account>>();

export class RecipesApi {
  constructor(
    readonly c: CaseContext,
    readonly http: HttpClient,
    readonly shapes: Shapes,
    /** The target's own address, which is also APP_URL. */
    readonly url: string,
    /** Tells this start of the target from others on the same port (its folder). */
    readonly key: string = url,
  ) {}

  call(method: string, path: string, options: CallOptions = {}): Promise<HttpResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
    let body: string | Uint8Array | undefined = options.raw;
    if (options.json !== undefined) {
      body = JSON.stringify(toTarget(this.shapes, entityOfRequest(method, path), options.json));
      headers['content-type'] ??= 'application/json';
    } else if (body !== undefined && typeof body === 'string') headers['content-type'] ??= 'application/json';
    const query = Object.entries(options.query ?? {}).filter(([, v]) => v !== undefined);
    const search = query.length > 0 ? `?${new URLSearchParams(query.map(([k, v]) => [k, String(v)])).toString()}` : '';
    return this.http.request({ method, path: `${path}${search}`, headers, ...(body === undefined ? {} : { body }), timeoutMs: options.timeoutMs ?? 15_000 });
  }

  /** The parsed JSON of an answer; Inconclusive when it is not JSON. */
  body(res: HttpResponse, what = 'the answer'): unknown {
    try {
      return res.json();
    } catch {
      throw new Inconclusive(`${what} is not JSON: ${shown(res)}`);
    }
  }

  /** The `answer` inside a response (shapes.at), in neutral names. */
  read<T = unknown>(answer: Answer, res: HttpResponse): T {
    return read(this.shapes, answer, this.body(res, `the ${answer} answer`)) as T;
  }

  /** A 2xx answer, or Inconclusive naming the step. */
  async ok(what: string, sending: Promise<HttpResponse>): Promise<HttpResponse> {
    const res = await sending;
    if (!is2xx(res)) throw new Inconclusive(`${what} was refused: ${shown(res)}`);
    return res;
  }

  // ---------------------------------------------------------------- accounts

  /** The bearer token of a login or setup answer. */
  tokenOf(res: HttpResponse): string {
    const token = this.read('token', res);
    if (typeof token !== 'string' || token === '') throw new Inconclusive(`no token in the answer: ${shown(res)}`);
    return token;
  }

  login(email: string, password: string): Promise<HttpResponse> {
    return this.call('POST', '/api/auth/login', { json: { email, password } });
  }

  /** The token in a mailed or returned link of `kind` (shapes.verifyLinkToken, shapes.resetLinkToken). */
  tokenOfLink(link: string, kind: LinkKind): string {
    const param = this.shapes.linkToken[kind];
    const token = new URL(link).searchParams.get(param);
    if (!token) throw new Inconclusive(`the link ${link} has no ${param} parameter (shapes.${kind}LinkToken)`);
    return token;
  }

  /** Whether `link` is a link of `kind` (holds its token parameter). */
  isLink(link: string, kind: LinkKind): boolean {
    return new URL(link).searchParams.has(this.shapes.linkToken[kind]);
  }

  /** Verifies an email through GET /api/auth/verify-email with the token of the verification `link`. */
  verify(link: string): Promise<HttpResponse> {
    return this.call('GET', '/api/auth/verify-email', { query: { [this.shapes.verifyParam]: this.tokenOfLink(link, 'verify') } });
  }

  /** verify() as a prerequisite step: its answer when accepted (verifiedBy), else Inconclusive. */
  async verified(link: string): Promise<HttpResponse> {
    const res = await this.verify(link);
    if (!verifiedBy(res)) throw new Inconclusive(`GET /api/auth/verify-email was refused: ${shown(res)}`);
    return res;
  }

  /** The links of `kind` (absolute URLs holding its token parameter) in an answer. */
  linksIn(res: HttpResponse, kind: LinkKind): string[] {
    let body: unknown;
    try {
      body = res.json();
    } catch {
      return [];
    }
    return urlsIn(body).filter((u) => this.isLink(u, kind));
  }

  /** Creates the first admin (POST /api/admin/setup) and logs in. A link in the setup answer is followed
   * first when login needs it (whether the setup admin verifies an email is not shown); then registration is
   * opened when the settings keep it closed (unless `openRegistration` is false: a case reading the fresh
   * settings). */
  async setupAdmin(email = newEmail('admin'), openRegistration = true): Promise<Account> {
    const name = 'Conformance Admin';
    const res = await this.c.need('POST /api/admin/setup (the first admin)', () =>
      this.ok('POST /api/admin/setup', this.call('POST', '/api/admin/setup', { json: { email, password: PASSWORD, name } })),
    );
    const token = await this.loginAfter('the setup admin', email, res);
    if (openRegistration) await this.registrationOpen(token);
    return { email, password: PASSWORD, name, token };
  }

  /** Opens registration when the settings say it is closed: whether a fresh install lets anyone register is
   * not stated (catalog recipes/settings/defaults), and the cases register their users. Settings the admin
   * cannot read are left as they are (their own cases judge them). */
  async registrationOpen(adminToken: string): Promise<void> {
    const res = await this.call('GET', '/api/admin/settings', { token: adminToken });
    let settings: unknown;
    try {
      settings = is2xx(res) ? this.read('settings', res) : undefined;
    } catch {
      return;
    }
    if (typeof settings !== 'object' || settings === null || (settings as Record<string, unknown>)['allowRegistration'] !== false) return;
    await this.c.need('opening registration (PATCH /api/admin/settings {allowRegistration: true}: a fresh install keeps it closed)', () =>
      this.ok('PATCH /api/admin/settings', this.call('PATCH', '/api/admin/settings', { token: adminToken, json: { allowRegistration: true } })),
    );
  }

  /** The first admin of this instance: made once, shared by the cases on a shared instance. */
  admin(): Promise<Account> {
    let made = admins.get(this.key);
    if (!made) {
      made = this.setupAdmin();
      admins.set(this.key, made);
      made.catch(() => admins.delete(this.key));
    }
    return made;
  }

  /** A registered user, verified through the link in the registration answer (SMTP settings empty), logged
   * in. Needs the first admin (made here when missing). */
  async user(who = 'user', extra: Record<string, unknown> = {}): Promise<Account> {
    await this.admin();
    const email = newEmail(who);
    const name = 'Conformance User';
    const res = await this.c.need(`POST /api/auth/register (${email})`, () =>
      this.ok('POST /api/auth/register', this.call('POST', '/api/auth/register', { json: { email, password: PASSWORD, name, ...extra } })),
    );
    return { email, password: PASSWORD, name, token: await this.loginAfter(email, email, res) };
  }

  /** Logs in, following the answer's verification link first when there is one. */
  async loginAfter(who: string, email: string, answer: HttpResponse): Promise<string> {
    for (const link of this.linksIn(answer, 'verify')) {
      await this.c.need(`verifying ${who} through ${link}`, () => this.verified(link));
    }
    const res = await this.c.need(`logging in as ${who}`, () => this.ok('POST /api/auth/login', this.login(email, PASSWORD)));
    return this.c.need(`the token of ${who}'s login`, () => this.tokenOf(res));
  }

  // ---------------------------------------------------------------- recipes

  /** Creates a recipe as `token`'s user; its neutral form (with id) from the answer. */
  async recipe(token: string, fields: RecipeFields): Promise<RecipeView> {
    const res = await this.c.need(`POST /api/recipes (${fields.title})`, () => this.ok('POST /api/recipes', this.call('POST', '/api/recipes', { token, json: fields })));
    return this.c.need('the created recipe in the answer', () => this.recipeOf(res, 'createdRecipe'));
  }

  /** The recipe of an answer (shapes.at.recipe: GET /api/recipes/:id; createdRecipe: POST /api/recipes), with
   * its id checked. */
  recipeOf(res: HttpResponse, answer: 'recipe' | 'createdRecipe' = 'recipe'): RecipeView {
    const recipe = this.read<RecipeView>(answer, res);
    if (typeof recipe !== 'object' || recipe === null || (typeof recipe.id !== 'string' && typeof recipe.id !== 'number')) {
      throw new Inconclusive(`the recipe answer has no id: ${shown(res)}`);
    }
    return recipe;
  }

  /** The recipes of a list answer (shapes.at.items: GET /api/recipes; publicItems: GET /api/recipes/public). */
  itemsOf(res: HttpResponse, answer: 'items' | 'publicItems' = 'items'): RecipeView[] {
    const items = this.read<RecipeView[]>(answer, res);
    if (!Array.isArray(items)) throw new Inconclusive(`the list answer's items are not an array: ${shown(res)}`);
    return items;
  }

  /** The tags of a GET /api/recipes/tags answer (shapes.at.tags), each as its text (shapes.tagKey). */
  tagsOf(res: HttpResponse): string[] {
    const list = this.read<unknown>('tags', res);
    if (!Array.isArray(list)) throw new Inconclusive(`the tags answer is not a list: ${shown(res)}`);
    return list.map((entry) => tagOf(this.shapes, entry));
  }
}

export interface RecipeView {
  id: string;
  title?: string;
  isPublic?: boolean;
  tags?: string[];
  category?: unknown;
  servings?: number;
  ingredients?: { name?: string; quantity?: number; unit?: string }[];
  steps?: { order?: number; text?: string; [k: string]: unknown }[];
  [k: string]: unknown;
}

/** The value a recipe names a category entry by (shapes.categoryKey). */
export function categoryValue(shapes: Shapes, entry: unknown): string {
  const found = read({ ...shapes, at: { ...shapes.at, categories: shapes.categoryKey } }, 'categories', entry);
  if (typeof found !== 'string' && typeof found !== 'number') throw new Inconclusive(`a category entry has no value at ${shapes.categoryKey}: ${JSON.stringify(entry)}`);
  return String(found);
}

/** Same id, whatever JSON type carries it. */
export const sameId = (a: unknown, b: unknown): boolean => String(a) === String(b);
