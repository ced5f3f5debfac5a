// Accounts, settings and invites as the account-side cases need them: raw registration (the answer is what
// several cases judge), the admin's views of users, settings and invites read through the target's shapes,
// and the two instance set-ups those cases share — registration closed, and mail through the suite's SMTP
// server. Setup steps go through c.need, so a refused step makes a case `error`, never a failure.
import type { CaseContext } from '../harness/case-context.ts';
import type { HttpResponse } from '../harness/http-client.ts';
import { type Account, is2xx, newEmail, PASSWORD, type RecipesApi, shown } from './api.ts';
import { Mailbox } from './mailbox.ts';
import type { Answer, LinkKind } from './shapes.ts';
import { type Instance, sharedInstance } from './target.ts';

export interface UserView {
  id: string;
  email?: string;
  role?: unknown;
  isActive?: unknown;
  [k: string]: unknown;
}

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The parsed JSON of an answer, or undefined (for informational cases, which judge the reference's shapes). */
export function jsonOf<T = unknown>(res: HttpResponse): T | undefined {
  try {
    return res.json<T>();
  } catch {
    return undefined;
  }
}

/** The `answer` of a response through the shapes, or undefined when it is not there (for a case that judges
 * its presence itself). */
export function readOr(api: RecipesApi, answer: Answer, res: HttpResponse): unknown {
  try {
    return api.read<unknown>(answer, res);
  } catch {
    return undefined;
  }
}

/** POST /api/auth/register with neutral fields. */
export function register(api: RecipesApi, email: string, password = PASSWORD, extra: Record<string, unknown> = {}): Promise<HttpResponse> {
  return api.call('POST', '/api/auth/register', { json: { email, password, name: 'Conformance User', ...extra } });
}

/** A registered account, not yet verified; its registration answer. */
export async function registered(api: RecipesApi, who = 'user', password = PASSWORD, extra: Record<string, unknown> = {}): Promise<{ email: string; answer: HttpResponse }> {
  const email = newEmail(who);
  const answer = await api.c.need(`POST /api/auth/register (${email})`, () => api.ok('POST /api/auth/register', register(api, email, password, extra)));
  return { email, answer };
}

/** The one link of `kind` in an answer (shapes.verifyLinkToken, resetLinkToken); Inconclusive when there is none. */
export function linkOf(api: RecipesApi, res: HttpResponse, kind: LinkKind, what: string): string {
  const links = api.linksIn(res, kind);
  if (links.length === 0) api.c.inconclusive(`${what}: no link with a ${api.shapes.linkToken[kind]} parameter in the answer (SMTP settings empty): ${shown(res)}`);
  return links[0]!;
}

/** GET /api/admin/users as the admin, in neutral names. */
export async function usersOf(api: RecipesApi, token: string): Promise<UserView[]> {
  const res = await api.c.need('GET /api/admin/users', () => api.ok('GET /api/admin/users', api.call('GET', '/api/admin/users', { token })));
  return api.c.need('the users of GET /api/admin/users', () => {
    const users = api.read<unknown>('users', res);
    if (!Array.isArray(users) || !users.every(isObject)) throw new Error(`not an array of objects: ${shown(res)}`);
    return users as UserView[];
  });
}

const sameEmail = (a: unknown, b: string): boolean => typeof a === 'string' && a.trim().toLowerCase() === b.toLowerCase();

/** The user with `email` in a user list. */
export const userByEmail = (users: UserView[], email: string): UserView | undefined => users.find((u) => sameEmail(u.email, email));

/** GET /api/auth/me, in neutral names. */
export async function meOf(api: RecipesApi, token: string): Promise<UserView> {
  const res = await api.c.need('GET /api/auth/me', () => api.ok('GET /api/auth/me', api.call('GET', '/api/auth/me', { token })));
  return api.c.need('the user of GET /api/auth/me', () => {
    const user = api.read<unknown>('user', res);
    if (!isObject(user)) throw new Error(`not an object: ${shown(res)}`);
    return user as UserView;
  });
}

/** The id of `account`'s user (from the admin's list, by email). */
export async function idOf(api: RecipesApi, adminToken: string, email: string): Promise<string> {
  const user = userByEmail(await usersOf(api, adminToken), email);
  if (user === undefined || (typeof user.id !== 'string' && typeof user.id !== 'number')) {
    return api.c.inconclusive(`GET /api/admin/users has no entry with an id for ${email}`);
  }
  return String(user.id);
}

/** GET /api/admin/settings as the admin, in neutral names. */
export async function settingsOf(api: RecipesApi, token: string): Promise<Record<string, unknown>> {
  const res = await api.c.need('GET /api/admin/settings', () => api.ok('GET /api/admin/settings', api.call('GET', '/api/admin/settings', { token })));
  return api.c.need('the settings of GET /api/admin/settings', () => {
    const settings = api.read<unknown>('settings', res);
    if (!isObject(settings)) throw new Error(`not an object: ${shown(res)}`);
    return settings;
  });
}

/** PATCH /api/admin/settings as the admin, as a prerequisite step. */
export async function patchSettings(api: RecipesApi, token: string, change: Record<string, unknown>): Promise<HttpResponse> {
  return api.c.need(`PATCH /api/admin/settings ${JSON.stringify(change)}`, () =>
    api.ok('PATCH /api/admin/settings', api.call('PATCH', '/api/admin/settings', { token, json: change })),
  );
}

export interface Invite {
  id: string;
  token: string;
  answer: HttpResponse;
}

/** POST /api/admin/invites: its id and token (shapes.at.invite, shapes.at.inviteToken). */
export async function newInvite(api: RecipesApi, token: string): Promise<Invite> {
  const answer = await api.c.need('POST /api/admin/invites', () => api.ok('POST /api/admin/invites', api.call('POST', '/api/admin/invites', { token, json: api.shapes.inviteBody })));
  return api.c.need('the id and token of the invite', () => inviteOf(api, answer));
}

export function inviteOf(api: RecipesApi, answer: HttpResponse): Invite {
  const invite = api.read<unknown>('invite', answer);
  const token = api.read<unknown>('inviteToken', answer);
  if (!isObject(invite) || (typeof invite['id'] !== 'string' && typeof invite['id'] !== 'number')) throw new Error(`the invite has no id: ${shown(answer)}`);
  if (typeof token !== 'string' || token === '') throw new Error(`the invite has no token: ${shown(answer)}`);
  return { id: String(invite['id']), token, answer };
}

/** The ids of GET /api/admin/invites. */
export async function inviteIds(api: RecipesApi, token: string): Promise<string[]> {
  const res = await api.c.need('GET /api/admin/invites', () => api.ok('GET /api/admin/invites', api.call('GET', '/api/admin/invites', { token })));
  return api.c.need('the invites of GET /api/admin/invites', () => {
    const invites = api.read<unknown>('invites', res);
    if (!Array.isArray(invites) || !invites.every(isObject)) throw new Error(`not an array of objects: ${shown(res)}`);
    return invites.map((i) => String(i['id']));
  });
}

/** Logs in (2xx expected, a prerequisite); the token of the answer. */
export async function loggedIn(api: RecipesApi, email: string, password = PASSWORD): Promise<string> {
  const res = await api.c.need(`logging in as ${email}`, () => api.ok('POST /api/auth/login', api.login(email, password)));
  return api.c.need(`the token of ${email}'s login`, () => api.tokenOf(res));
}

/** A verified, logged-in user with its id. */
export async function userWithId(api: RecipesApi, who = 'user'): Promise<Account & { id: string }> {
  const [admin, account] = await Promise.all([api.admin(), api.user(who)]);
  return { ...account, id: await idOf(api, admin.token, account.email) };
}

const closed = new Map<string, Promise<Account>>();

/** The test file's instance with registration closed (allowRegistration false), and its admin. */
export async function closedInstance(c: CaseContext): Promise<{ instance: Instance; admin: Account }> {
  const instance = await sharedInstance(c, 'registration-closed');
  let made = closed.get(instance.api.key);
  if (!made) {
    made = (async () => {
      const admin = await instance.api.admin();
      await patchSettings(instance.api, admin.token, { allowRegistration: false });
      return admin;
    })();
    closed.set(instance.api.key, made);
    made.catch(() => closed.delete(instance.api.key));
  }
  return { instance, admin: await c.need('closing registration on the shared instance', made) };
}

export const SMTP_FROM = 'recipes-conformance@example.test';

/** The suite's SMTP server, set as the instance's mail server by its admin (smtpFrom SMTP_FROM). */
export async function mailThroughMailbox(c: CaseContext, api: RecipesApi, adminToken: string): Promise<Mailbox> {
  const box = await Mailbox.open(c);
  await patchSettings(api, adminToken, { smtpHost: '127.0.0.1', smtpPort: box.port, smtpFrom: SMTP_FROM });
  return box;
}

/** Whether a mail's sender (envelope or From header) is `from`. */
export const sentFrom = (mail: { from: string; fromHeader?: string }, from: string): boolean =>
  [mail.from, mail.fromHeader ?? ''].some((f) => f.toLowerCase().includes(from.toLowerCase()));

const SMTP_KEYS = ['smtpHost', 'smtpPort', 'smtpUser', 'smtpPass', 'smtpFrom'] as const;
const blank = (value: unknown): boolean => value === undefined || value === null || value === '' || value === 0;

/** Makes sure the instance's SMTP settings are empty (untouched when they are: their defaults are not stated). */
export async function smtpEmpty(api: RecipesApi, adminToken: string): Promise<void> {
  const settings = await settingsOf(api, adminToken);
  if (SMTP_KEYS.every((k) => blank(settings[k]))) return;
  await patchSettings(api, adminToken, { smtpHost: '', smtpPort: null, smtpUser: '', smtpPass: '', smtpFrom: '' });
}

export { refused } from './case-helpers.ts';
export { is2xx, PASSWORD, shown };
