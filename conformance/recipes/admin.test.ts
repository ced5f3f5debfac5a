// Admin routes and user administration (document 002 part B: "admin routes need the admin role", /admin/users,
// a user's role and isActive): every admin endpoint refused to callers without a token and to users, with
// nothing changed, and served to the admin; listing, changing and deleting users; and the reference's choices
// (refusal statuses, role names, shapes, the last admin, what deletion takes along, what isActive does).
import { type CaseContext, check } from '../harness/index.ts';
import type { HttpResponse } from '../harness/http-client.ts';
import { idOf, inviteIds, jsonOf, loggedIn, newInvite, refused, settingsOf, userByEmail, usersOf, userWithId } from './accounts.ts';
import { type Account, is2xx, type RecipesApi, shown } from './api.ts';
import { RECIPES, sharedInstance, start } from './target.ts';

interface AdminCall {
  name: string;
  method: string;
  path: string;
  json?: unknown;
}

/** Every admin endpoint of the table (GET /admin/settings's access is not stated), in an order the admin can
 * run them all: the deletions last. An invite is made with the target's body for one (shapes.inviteBody). */
function adminCalls(api: RecipesApi, victimId: string, inviteId: string, tag: string): AdminCall[] {
  return [
    { name: 'PATCH /api/admin/settings', method: 'PATCH', path: '/api/admin/settings', json: { smtpFrom: `${tag}@example.test` } },
    { name: 'GET /api/admin/users', method: 'GET', path: '/api/admin/users' },
    { name: 'PATCH /api/admin/users/:id', method: 'PATCH', path: `/api/admin/users/${victimId}`, json: { isActive: false } },
    { name: 'POST /api/admin/invites', method: 'POST', path: '/api/admin/invites', json: api.shapes.inviteBody },
    { name: 'GET /api/admin/invites', method: 'GET', path: '/api/admin/invites' },
    { name: 'DELETE /api/admin/invites/:id', method: 'DELETE', path: `/api/admin/invites/${inviteId}` },
    { name: 'DELETE /api/admin/users/:id', method: 'DELETE', path: `/api/admin/users/${victimId}` },
  ];
}

/** A recipe manager of the case's own with its admin, a user calling, a victim and an invite. */
async function matrixSetup(c: CaseContext) {
  const { api } = await start(c);
  const admin = await api.admin();
  const [user, victim] = await Promise.all([api.user('caller'), api.user('victim')]);
  const victimId = await idOf(api, admin.token, victim.email);
  const invite = await newInvite(api, admin.token);
  return { api, admin, user, victim, victimId, invite };
}

check('recipes/admin-users/admin-role-required/only-admin-succeeds-nothing-changed', RECIPES, async (t, c) => {
  const { api, admin, user, victim, victimId, invite } = await matrixSetup(c);
  const invitesBefore = await inviteIds(api, admin.token);
  for (const [who, token] of [
    ['no token', undefined],
    ['a user token', user.token],
  ] as const) {
    for (const call of adminCalls(api, victimId, invite.id, 'intruder')) {
      const res = await api.call(call.method, call.path, { token, ...(call.json === undefined ? {} : { json: call.json }) });
      t.true(refused(res), `${call.name} with ${who}: ${shown(res)}`);
    }
  }
  // Nothing changed by the refused calls.
  t.not((await settingsOf(api, admin.token))['smtpFrom'], 'intruder@example.test', 'smtpFrom after refused PATCH /api/admin/settings');
  const victimNow = userByEmail(await usersOf(api, admin.token), victim.email);
  t.true(victimNow !== undefined && victimNow.isActive !== false, `the victim after refused PATCH and DELETE /api/admin/users/:id: ${JSON.stringify(victimNow)}`);
  t.deepEqual(await inviteIds(api, admin.token), invitesBefore, 'the invites listed after refused POST and DELETE /api/admin/invites');
  // The admin: each succeeds.
  for (const call of adminCalls(api, victimId, invite.id, 'admin-change')) {
    const res = await api.call(call.method, call.path, { token: admin.token, ...(call.json === undefined ? {} : { json: call.json }) });
    t.true(is2xx(res), `${call.name} as the admin: ${shown(res)}`);
  }
});

check('recipes/admin-users/user-fields/role-and-is-active', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  const admin = await api.admin();
  await api.user('fields');
  const users = await usersOf(api, admin.token);
  t.true(users.length >= 2, `GET /api/admin/users lists ${users.length} users`);
  for (const u of users) {
    t.true(u.role !== undefined && u.role !== null && u.role !== '', `a user without a role: ${JSON.stringify(u)}`);
    t.true(u.isActive !== undefined && u.isActive !== null, `a user without isActive: ${JSON.stringify(u)}`);
  }
});

check('recipes/admin-users/list/admin-lists-users-others-refused', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  const [admin, user] = await Promise.all([api.admin(), api.user('listed')]);
  const res = await api.call('GET', '/api/admin/users', { token: admin.token });
  if (!t.true(is2xx(res), `GET /api/admin/users as the admin: ${shown(res)}`)) return;
  const users = await usersOf(api, admin.token);
  for (const account of [admin, user]) t.truthy(userByEmail(users, account.email), `${account.email} is not in GET /api/admin/users`);
  const asUser = await api.call('GET', '/api/admin/users', { token: user.token });
  t.true(refused(asUser), `GET /api/admin/users as a user: ${shown(asUser)}`);
});

/** The role of `email` in the admin's user list. */
async function roleOf(api: RecipesApi, adminToken: string, email: string): Promise<unknown> {
  return userByEmail(await usersOf(api, adminToken), email)?.role;
}

check('recipes/admin-users/update/role-and-active-status', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  const admin = await api.admin();
  const [promoted, paused] = await Promise.all([userWithId(api, 'promoted'), userWithId(api, 'paused')]);
  const adminRole = await roleOf(api, admin.token, admin.email);
  const userRole = await roleOf(api, admin.token, promoted.email);
  if (adminRole === undefined || userRole === undefined || adminRole === userRole) {
    return c.inconclusive(`GET /api/admin/users shows no distinct roles for the admin (${JSON.stringify(adminRole)}) and a user (${JSON.stringify(userRole)})`);
  }
  // The role: the user gets the admin's, and with a new login uses an admin route.
  const promote = await api.call('PATCH', `/api/admin/users/${promoted.id}`, { token: admin.token, json: { role: adminRole } });
  t.true(is2xx(promote), `PATCH /api/admin/users/:id {role: ${JSON.stringify(adminRole)}}: ${shown(promote)}`);
  t.deepEqual(await roleOf(api, admin.token, promoted.email), adminRole, 'the role in GET /api/admin/users after the change');
  const token = await loggedIn(api, promoted.email);
  const asPromoted = await api.call('GET', '/api/admin/users', { token });
  t.true(is2xx(asPromoted), `GET /api/admin/users as the promoted user (new login): ${shown(asPromoted)}`);
  const demote = await api.call('PATCH', `/api/admin/users/${promoted.id}`, { token: admin.token, json: { role: userRole } });
  t.true(is2xx(demote), `PATCH /api/admin/users/:id {role: ${JSON.stringify(userRole)}}: ${shown(demote)}`);
  t.deepEqual(await roleOf(api, admin.token, promoted.email), userRole, 'the role in GET /api/admin/users after changing it back');
  // The status.
  const pause = await api.call('PATCH', `/api/admin/users/${paused.id}`, { token: admin.token, json: { isActive: false } });
  t.true(is2xx(pause), `PATCH /api/admin/users/:id {isActive: false}: ${shown(pause)}`);
  t.is(userByEmail(await usersOf(api, admin.token), paused.email)?.isActive, false, 'isActive in GET /api/admin/users after the change');
  const resume = await api.call('PATCH', `/api/admin/users/${paused.id}`, { token: admin.token, json: { isActive: true } });
  t.true(is2xx(resume), `PATCH /api/admin/users/:id {isActive: true}: ${shown(resume)}`);
  t.is(userByEmail(await usersOf(api, admin.token), paused.email)?.isActive, true, 'isActive in GET /api/admin/users after changing it back');
});

check('recipes/admin-users/delete/deleted-user-cannot-log-in', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  const admin = await api.admin();
  const victim = await userWithId(api, 'deleted');
  const res = await api.call('DELETE', `/api/admin/users/${victim.id}`, { token: admin.token });
  if (!t.true(is2xx(res), `DELETE /api/admin/users/:id as the admin: ${shown(res)}`)) return;
  const login = await api.login(victim.email, victim.password);
  t.true(refused(login), `login as the deleted user: ${shown(login)}`);
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('recipes/admin-users/admin-refusal-status/401-without-token-403-for-users', RECIPES, async (t, c) => {
  const { api, user, victimId, invite } = await matrixSetup(c);
  for (const [token, status] of [
    [undefined, 401],
    [user.token, 403],
  ] as const) {
    for (const call of adminCalls(api, victimId, invite.id, 'intruder')) {
      const res = await api.call(call.method, call.path, { token, ...(call.json === undefined ? {} : { json: call.json }) });
      t.is(res.status, status, `${call.name} ${token ? 'as a user' : 'without a token'}: ${shown(res)}`);
    }
  }
});

check('recipes/admin-users/roles/admin-and-user', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  const [admin, user] = await Promise.all([api.admin(), api.user('role-name')]);
  t.is(await roleOf(api, admin.token, admin.email), 'admin');
  t.is(await roleOf(api, admin.token, user.email), 'user');
});

check('recipes/admin-users/list-shape/array-oldest-first', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  const admin = await api.admin();
  await api.user('shape');
  const res = await api.call('GET', '/api/admin/users', { token: admin.token });
  const list = jsonOf<Record<string, unknown>[]>(res);
  if (!t.true(Array.isArray(list), `a JSON array: ${shown(res)}`) || !Array.isArray(list)) return;
  const created = list.map((u) => String(u['createdAt']));
  t.deepEqual(created, [...created].sort(), 'oldest first');
  t.true(
    list.every((u) => !Object.keys(u).some((k) => /pass|hash/i.test(k))),
    'no password fields',
  );
});

check('recipes/admin-users/update-fields/role-active-only-404-unknown', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  const admin = await api.admin();
  const user = await userWithId(api, 'update-fields');
  const patch = (id: string, json: unknown): Promise<HttpResponse> => api.call('PATCH', `/api/admin/users/${id}`, { token: admin.token, json });
  const ok = await patch(user.id, { isActive: true });
  t.is(ok.status, 200, shown(ok));
  t.is(jsonOf<Record<string, unknown>>(ok)?.['email'], user.email, 'the updated user in the answer');
  for (const bad of [{ email: 'x@example.test' }, { role: 'root' }, { isActive: 'no' }]) {
    const res = await patch(user.id, bad);
    t.is(res.status, 400, `PATCH ${JSON.stringify(bad)}: ${shown(res)}`);
  }
  const unknown = await patch('00000000-0000-4000-8000-000000000000', { isActive: true });
  t.is(unknown.status, 404, `an unknown id: ${shown(unknown)}`);
});

check('recipes/admin-users/self-protection/last-admin-kept', RECIPES, async (t, c) => {
  const { api } = await start(c);
  const admin = await api.admin();
  const id = await idOf(api, admin.token, admin.email);
  for (const [method, json] of [
    ['PATCH', { role: 'user' }],
    ['PATCH', { isActive: false }],
    ['DELETE', undefined],
  ] as const) {
    const res = await api.call(method, `/api/admin/users/${id}`, { token: admin.token, ...(json ? { json } : {}) });
    t.is(res.status, 409, `${method} ${JSON.stringify(json ?? {})} on the only admin: ${shown(res)}`);
  }
  t.is(await roleOf(api, admin.token, admin.email), 'admin');
});

check('recipes/admin-users/deleted-user-content/recipes-go-too', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  const admin = await api.admin();
  const victim = await userWithId(api, 'content');
  const recipe = await api.recipe(victim.token, { title: 'Recipe of a deleted user', isPublic: true });
  const res = await api.call('DELETE', `/api/admin/users/${victim.id}`, { token: admin.token });
  t.is(res.status, 204, shown(res));
  const after = await api.call('GET', `/api/recipes/${recipe.id}`);
  t.is(after.status, 404, `the deleted user's public recipe: ${shown(after)}`);
  const again = await api.call('DELETE', `/api/admin/users/${victim.id}`, { token: admin.token });
  t.is(again.status, 404, `deleting again: ${shown(again)}`);
});

check('recipes/auth/inactive-user/login-403-tokens-401-until-reactivated', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  const admin = await api.admin();
  const user: Account & { id: string } = await userWithId(api, 'inactive');
  await c.need('PATCH isActive false', () => api.ok('PATCH /api/admin/users/:id', api.call('PATCH', `/api/admin/users/${user.id}`, { token: admin.token, json: { isActive: false } })));
  t.is((await api.login(user.email, user.password)).status, 403, 'login while inactive');
  t.is((await api.call('GET', '/api/auth/me', { token: user.token })).status, 401, 'a token from before, while inactive');
  await c.need('PATCH isActive true', () => api.ok('PATCH /api/admin/users/:id', api.call('PATCH', `/api/admin/users/${user.id}`, { token: admin.token, json: { isActive: true } })));
  t.is((await api.call('GET', '/api/auth/me', { token: user.token })).status, 200, 'the same token after reactivation');
  t.is((await api.login(user.email, user.password)).status, 200, 'login after reactivation');
});
