// The faulty recipe manager's rules for the service, accounts, setup, settings, admin users and invites: each
// breaks the rule its fault names (faulty-recipes-faults.ts) where a real recipe manager would get it wrong.
import { randomBytes } from 'node:crypto';
import { hashPassword, JwtTokens } from '../../../reference/recipes/auth/index.ts';
import { newAccountOf } from '../../../reference/recipes/server/account-fields.ts';
import { createUser } from '../../../reference/recipes/server/accounts.ts';
import { ApiError } from '../../../reference/recipes/server/api-error.ts';
import { FORGOT_PASSWORD_MESSAGE, PASSWORD_UPDATED } from '../../../reference/recipes/server/password-handler.ts';
import { adminExists, userView } from '../../../reference/recipes/server/server-context.ts';
import { settingsView } from '../../../reference/recipes/server/settings-fields.ts';
import { emptyRecipesData } from '../../../reference/recipes/store/index.ts';
import { type Faulty, Faulty as F, notFound, objectsIn, type Rule } from './faulty-recipes-helpers.ts';

const API = /^\/api(?:\/|$)/;
/** The admin routes whose own rows say nothing of admins (settings and the user list do). */
const ADMIN_ONLY_BY_ROLE = /^\/api\/admin\/(?:users\/[^/]+|invites(?:\/[^/]+)?)$/;
const REGISTER = /^\/api\/auth\/register$/;
const SETTINGS = /^\/api\/admin\/settings$/;

/** A token of the same form signed with a secret nobody else has. */
const strangerTokens = new JwtTokens({ jwtSecret: randomBytes(48), jwtLifetimeSeconds: 3600 });

/** The user objects of an answer: those with the id and email of a stored user. */
function usersIn(f: Faulty, json: unknown): Record<string, unknown>[] {
  return [...objectsIn(json)].filter((o) => typeof o['id'] === 'string' && typeof o['email'] === 'string' && f.data.users[o['id']] !== undefined);
}

export function serviceRules(f: Faulty): Rule[] {
  const rules: Rule[] = [
    { fault: 'invites-outside-api', path: /^\/api\/admin\/invites(?:\/|$)/, request: () => notFound() },
    {
      fault: 'invites-outside-api',
      path: /^\/admin\/invites(?:\/|$)/,
      request: (x) => {
        x.path = `/api${x.path}`;
        return undefined;
      },
    },
    {
      fault: 'api-v1-alias',
      path: /^\/api\/v1(?:\/|$)/,
      request: (x) => {
        x.path = x.path.replace(/^\/api\/v1/, '/api');
        return undefined;
      },
    },
    { fault: 'health-404', method: 'GET', path: /^\/(?:api\/)?health$/, request: () => notFound() },
    { fault: 'docs-404', path: /^\/api\/docs(?:\/|$)/, request: () => notFound() },
    {
      fault: 'bearer-ignored',
      path: /^/,
      request: (x) => {
        const other = x.headers['x-access-token'];
        delete x.headers.authorization;
        if (typeof other === 'string') x.headers.authorization = `Bearer ${other}`;
        return undefined;
      },
    },
  ];
  return rules.filter((r) => f.on(r.fault));
}

export function accountRules(f: Faulty): Rule[] {
  const { store } = f.ctx;
  const rules: Rule[] = [
    {
      fault: 'register-needs-token',
      method: 'POST',
      path: REGISTER,
      request: async (x) => ((await f.caller(x.headers)) === undefined ? { status: 401, json: { error: 'Authentication required' } } : undefined),
    },
    {
      // Registration while closed goes through as if invited.
      fault: 'register-ignores-allow-registration',
      method: 'POST',
      path: REGISTER,
      body: true,
      request: async (x) => {
        const body = F.jsonBody(x);
        if (body === undefined || body['inviteToken'] !== undefined || f.data.settings.allowRegistration || !adminExists(store)) return undefined;
        F.setJsonBody(x, { ...body, inviteToken: (await f.ctx.oneTime.issue('invite', null)).token });
        return undefined;
      },
    },
    {
      fault: 'invite-token-ignored',
      method: 'POST',
      path: REGISTER,
      body: true,
      request: (x) => {
        const body = F.jsonBody(x);
        if (body !== undefined && 'inviteToken' in body) {
          delete body['inviteToken'];
          F.setJsonBody(x, body);
        }
        return undefined;
      },
    },
    { fault: 'verify-noop', method: 'GET', path: /^\/api\/auth\/verify-email$/, request: () => ({ status: 200, json: { message: 'Email verified' } }) },
    {
      fault: 'login-token-unusable',
      method: 'POST',
      path: /^\/api\/auth\/login$/,
      answer: async (json, status) => {
        const answer = json as { token?: string; user?: { id: string } };
        const user = status === 200 && answer.user ? f.data.users[answer.user.id] : undefined;
        return user ? { ...answer, token: await strangerTokens.issue(user) } : json;
      },
    },
    {
      fault: 'login-unverified',
      method: 'POST',
      path: REGISTER,
      answer: async (json, status) => {
        const user = (json as { user?: { id: string; emailVerified?: boolean } }).user;
        if (status !== 201 || user === undefined) return json;
        await store.update((draft) => {
          if (draft.users[user.id]) draft.users[user.id]!.emailVerified = true;
        });
        user.emailVerified = true;
        return json;
      },
    },
    {
      fault: 'me-other-user',
      method: 'GET',
      path: /^\/api\/auth\/me$/,
      answer: (json, status) => {
        const other = Object.values(f.data.users).find((u) => u.id !== (json as { id?: string }).id);
        return status === 200 && other ? userView(other) : json;
      },
    },
    { fault: 'forgot-noop', method: 'POST', path: /^\/api\/auth\/forgot-password$/, request: () => ({ status: 200, json: { message: FORGOT_PASSWORD_MESSAGE } }) },
    { fault: 'reset-noop', method: 'POST', path: /^\/api\/auth\/reset-password$/, request: () => ({ status: 200, json: { message: PASSWORD_UPDATED } }) },
    {
      fault: 'password-hash-shown',
      path: API,
      answer: (json) => {
        for (const user of usersIn(f, json)) user['passwordHash'] = f.data.users[user['id'] as string]!.passwordHash;
        return json;
      },
    },
    {
      fault: 'password-stored-plain',
      method: 'POST',
      path: /^\/api\/(?:auth\/register|admin\/setup)$/,
      body: true,
      answer: async (json, status, x) => {
        const user = (json as { user?: { id: string } }).user;
        const password = F.jsonBody(x)?.['password'];
        if (status !== 201 || user === undefined || typeof password !== 'string') return json;
        await store.update((draft) => {
          const stored = draft.users[user.id] as unknown as Record<string, unknown> | undefined;
          if (stored) stored['password'] = password;
        });
        return json;
      },
    },
    {
      fault: 'verification-link-withheld',
      method: 'POST',
      path: REGISTER,
      answer: (json) => {
        const { verificationUrl: _, ...rest } = json as Record<string, unknown>;
        return rest;
      },
    },
    {
      fault: 'reset-link-withheld',
      method: 'POST',
      path: /^\/api\/auth\/forgot-password$/,
      answer: (json) => {
        const { resetUrl: _, ...rest } = json as Record<string, unknown>;
        return rest;
      },
    },
  ];
  return rules.filter((r) => f.on(r.fault));
}

export function setupAndSettingsRules(f: Faulty): Rule[] {
  const { store } = f.ctx;
  const rules: Rule[] = [
    { fault: 'setup-status-false', method: 'GET', path: /^\/api\/admin\/setup$/, answer: (json) => ({ ...(json as object), adminExists: false }) },
    {
      fault: 'setup-makes-user',
      method: 'POST',
      path: /^\/api\/admin\/setup$/,
      answer: async (json, status) => {
        const user = (json as { user?: { id: string; role: string } }).user;
        if (status !== 201 || user === undefined) return json;
        await store.update((draft) => {
          if (draft.users[user.id]) draft.users[user.id]!.role = 'user';
        });
        user.role = 'user';
        return json;
      },
    },
    {
      // Once an admin exists, setup makes another one (as the reference makes the first).
      fault: 'setup-twice',
      method: 'POST',
      path: /^\/api\/admin\/setup$/,
      body: true,
      request: async (x) => {
        if (!adminExists(store)) return undefined;
        try {
          const account = newAccountOf(F.jsonBody(x) ?? {});
          const user = await createUser(f.ctx, account, await hashPassword(account.password), { role: 'admin', emailVerified: true });
          return { status: 201, json: { token: await f.tokenOf(user), user: userView(user) } };
        } catch (err) {
          if (err instanceof ApiError) return { status: err.status, json: err.body };
          throw err;
        }
      },
    },
    {
      fault: 'settings-drop-key',
      path: SETTINGS,
      answer: (json, status) => {
        if (status !== 200) return json;
        const { smtpFrom: _, ...rest } = json as Record<string, unknown>;
        return rest;
      },
    },
    { fault: 'settings-get-defaults', method: 'GET', path: SETTINGS, answer: (json, status) => (status === 200 ? settingsView(emptyRecipesData().settings) : json) },
    {
      fault: 'settings-patch-open',
      method: 'PATCH',
      path: SETTINGS,
      request: async (x) => {
        const caller = await f.caller(x.headers);
        const admin = f.admin();
        if (caller !== undefined && caller.role !== 'admin' && admin !== undefined) await f.actAs(x, admin);
        return undefined;
      },
    },
    f.undo(
      'settings-patch-noop',
      'PATCH',
      SETTINGS,
      (data) => data.settings,
      (draft, copy) => {
        if (copy) draft.settings = copy;
      },
    ),
  ];
  return rules.filter((r) => f.on(r.fault));
}

export function adminRules(f: Faulty): Rule[] {
  /** Every invite the front has seen created (invites-list-used lists them whatever became of them). */
  const seen = new Map<string, { id: string; createdAt: string; expiresAt: string }>();
  const userId = (x: { path: string }) => decodeURIComponent(x.path.split('/')[4] ?? '');
  const rules: Rule[] = [
    {
      fault: 'admin-open',
      path: ADMIN_ONLY_BY_ROLE,
      request: async (x) => {
        const caller = await f.caller(x.headers);
        const admin = f.admin();
        if (caller !== undefined && caller.role !== 'admin' && admin !== undefined) await f.actAs(x, admin);
        return undefined;
      },
    },
    {
      fault: 'user-fields-missing',
      path: API,
      answer: (json) => {
        for (const user of usersIn(f, json)) delete user['isActive'];
        return json;
      },
    },
    {
      fault: 'users-list-admins-only',
      method: 'GET',
      path: /^\/api\/admin\/users$/,
      answer: (json, status) => (status === 200 && Array.isArray(json) ? json.filter((u: { role?: string }) => u.role === 'admin') : json),
    },
    f.undo(
      'user-update-noop',
      'PATCH',
      /^\/api\/admin\/users\/[^/]+$/,
      (data, x) => data.users[userId(x)],
      (draft, copy) => {
        if (copy && draft.users[copy.id]) draft.users[copy.id] = copy;
      },
    ),
    f.undo(
      'user-delete-keeps-login',
      'DELETE',
      /^\/api\/admin\/users\/[^/]+$/,
      (data, x) => data.users[userId(x)],
      (draft, copy) => {
        if (copy) draft.users[copy.id] = copy;
      },
    ),
    {
      fault: 'invite-token-unusable',
      method: 'POST',
      path: /^\/api\/admin\/invites$/,
      answer: (json, status) => {
        const invite = json as { token?: string; url?: string };
        if (status !== 201 || typeof invite.token !== 'string') return json;
        const token = randomBytes(32).toString('base64url');
        return { ...invite, token, ...(typeof invite.url === 'string' ? { url: invite.url.replace(invite.token, token) } : {}) };
      },
    },
    {
      fault: 'invites-list-used',
      method: 'POST',
      path: /^\/api\/admin\/invites$/,
      answer: (json, status) => {
        const { id, createdAt, expiresAt } = json as Record<string, string>;
        if (status === 201 && id !== undefined) seen.set(id, { id, createdAt: createdAt!, expiresAt: expiresAt! });
        return json;
      },
    },
    {
      fault: 'invites-list-used',
      method: 'GET',
      path: /^\/api\/admin\/invites$/,
      answer: (json, status) => {
        if (status !== 200 || !Array.isArray(json)) return json;
        const all = new Map([...seen].filter(([, i]) => Date.parse(i.expiresAt) > Date.now()));
        for (const invite of json as { id: string; createdAt: string; expiresAt: string }[]) all.set(invite.id, invite);
        return [...all.values()].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
      },
    },
    f.undo(
      'invite-revoke-noop',
      'DELETE',
      /^\/api\/admin\/invites\/[^/]+$/,
      (data, x) => data.invites[userId(x)],
      (draft, copy) => {
        if (copy) draft.invites[copy.id] = copy;
      },
    ),
  ];
  return rules.filter((r) => f.on(r.fault));
}
