// Invites and the registration gate (document 002 part B: "register; checks allowRegistration and inviteToken",
// /admin/invites): with registration closed an invite's token still registers an account; the list holds the
// active invites only; a revoked invite registers nobody. One recipe manager for the file with
// allowRegistration false; the reference's choices (statuses, shapes, lifetime) informational.
import { check } from '../harness/index.ts';
import {
  closedInstance,
  inviteIds,
  inviteOf,
  jsonOf,
  linkOf,
  newInvite,
  patchSettings,
  refused,
  register,
  userByEmail,
  usersOf,
} from './accounts.ts';
import { is2xx, newEmail, PASSWORD, shown } from './api.ts';
import { RECIPES, start } from './target.ts';

check('recipes/auth/register-checks-settings/closed-needs-invite', RECIPES, async (t, c) => {
  const { api } = await start(c);
  const admin = await api.admin();
  await patchSettings(api, admin.token, { allowRegistration: true });
  const open = newEmail('open');
  const whileOpen = await register(api, open);
  t.true(is2xx(whileOpen), `POST /api/auth/register with allowRegistration true, no invite: ${shown(whileOpen)}`);
  await patchSettings(api, admin.token, { allowRegistration: false });
  const shut = newEmail('shut');
  const whileClosed = await register(api, shut);
  t.true(refused(whileClosed), `POST /api/auth/register with allowRegistration false, no invite: ${shown(whileClosed)}`);
  const invite = await newInvite(api, admin.token);
  const invited = newEmail('invited');
  const withInvite = await register(api, invited, PASSWORD, { inviteToken: invite.token });
  t.true(is2xx(withInvite), `POST /api/auth/register with allowRegistration false and an invite's token: ${shown(withInvite)}`);
  const users = await usersOf(api, admin.token);
  t.truthy(userByEmail(users, open), 'the account registered while open is not listed');
  t.is(userByEmail(users, shut), undefined, 'an account was created while registration was closed, without an invite');
  t.truthy(userByEmail(users, invited), 'the invited account is not listed');
});

check('recipes/invites/create/token-registers-while-closed', RECIPES, async (t, c) => {
  const { instance, admin } = await closedInstance(c);
  const { api } = instance;
  const res = await api.call('POST', '/api/admin/invites', { token: admin.token, json: api.shapes.inviteBody });
  if (!t.true(is2xx(res), `POST /api/admin/invites as the admin: ${shown(res)}`)) return;
  const invite = (() => {
    try {
      return inviteOf(api, res);
    } catch (err) {
      return (err as Error).message;
    }
  })();
  if (!t.true(typeof invite === 'object', `the invite's token (shapes.at.inviteToken ${api.shapes.at.inviteToken}): ${String(invite)}`) || typeof invite !== 'object') return;
  const email = newEmail('invited');
  const registered = await register(api, email, PASSWORD, { inviteToken: invite.token });
  t.true(is2xx(registered), `POST /api/auth/register with the invite's token, registration closed: ${shown(registered)}`);
  t.truthy(userByEmail(await usersOf(api, admin.token), email), `${email} is not in GET /api/admin/users`);
});

check('recipes/invites/list-active/used-and-revoked-left-out', RECIPES, async (t, c) => {
  const { instance, admin } = await closedInstance(c);
  const { api } = instance;
  const [used, revoked, kept] = [await newInvite(api, admin.token), await newInvite(api, admin.token), await newInvite(api, admin.token)];
  const listed = await api.call('GET', '/api/admin/invites', { token: admin.token });
  if (!t.true(is2xx(listed), `GET /api/admin/invites as the admin: ${shown(listed)}`)) return;
  const before = await inviteIds(api, admin.token);
  for (const invite of [used, revoked, kept]) t.true(before.includes(invite.id), `the new invite ${invite.id} is not listed: ${before.join(', ')}`);
  await c.need('registering with an invite', () => api.ok('POST /api/auth/register', register(api, newEmail('uses-invite'), PASSWORD, { inviteToken: used.token })));
  await c.need('revoking an invite', () => api.ok('DELETE /api/admin/invites/:id', api.call('DELETE', `/api/admin/invites/${revoked.id}`, { token: admin.token })));
  const after = await inviteIds(api, admin.token);
  t.false(after.includes(used.id), `the used invite ${used.id} is still listed`);
  t.false(after.includes(revoked.id), `the revoked invite ${revoked.id} is still listed`);
  t.true(after.includes(kept.id), `the unused invite ${kept.id} is no longer listed`);
});

check('recipes/invites/revoke/revoked-token-registers-nobody', RECIPES, async (t, c) => {
  const { instance, admin } = await closedInstance(c);
  const { api } = instance;
  const invite = await newInvite(api, admin.token);
  const res = await api.call('DELETE', `/api/admin/invites/${invite.id}`, { token: admin.token });
  if (!t.true(is2xx(res), `DELETE /api/admin/invites/:id as the admin: ${shown(res)}`)) return;
  const email = newEmail('revoked');
  const attempt = await register(api, email, PASSWORD, { inviteToken: invite.token });
  t.true(refused(attempt), `POST /api/auth/register with a revoked invite's token: ${shown(attempt)}`);
  t.is(userByEmail(await usersOf(api, admin.token), email), undefined, 'an account was created with the revoked invite');
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('recipes/auth/register-gate/403-closed-400-bad-invite', RECIPES, async (t, c) => {
  const { instance, admin } = await closedInstance(c);
  const { api } = instance;
  const closed = await register(api, newEmail('gate'));
  t.is(closed.status, 403, `no invite, registration closed: ${shown(closed)}`);
  const unknown = await register(api, newEmail('gate'), PASSWORD, { inviteToken: 'no-such-invite' });
  t.is(unknown.status, 400, `an unknown invite token: ${shown(unknown)}`);
  const invite = await newInvite(api, admin.token);
  await c.need('registering with the invite', () => api.ok('POST /api/auth/register', register(api, newEmail('gate'), PASSWORD, { inviteToken: invite.token })));
  const reused = await register(api, newEmail('gate'), PASSWORD, { inviteToken: invite.token });
  t.is(reused.status, 400, `a used invite token: ${shown(reused)}`);
});

check('recipes/invites/representation/created-once-listed-without-token', RECIPES, async (t, c) => {
  const { instance, admin } = await closedInstance(c);
  const { api } = instance;
  const res = await api.call('POST', '/api/admin/invites', { token: admin.token });
  t.is(res.status, 201, `POST /api/admin/invites without a body: ${shown(res)}`);
  const body = jsonOf<Record<string, unknown>>(res) ?? {};
  t.deepEqual(Object.keys(body).sort(), ['createdAt', 'expiresAt', 'id', 'token', 'url'], shown(res));
  t.is(body['url'], `${api.url}/register?inviteToken=${body['token']}`);
  const second = await newInvite(api, admin.token);
  const list = jsonOf<Record<string, unknown>[]>(await api.call('GET', '/api/admin/invites', { token: admin.token })) ?? [];
  t.deepEqual(Object.keys(list[0] ?? {}).sort(), ['createdAt', 'expiresAt', 'id'], 'a listed invite');
  const ids = list.map((i) => String(i['id']));
  t.true(ids.indexOf(second.id) >= 0 && ids.indexOf(second.id) < ids.indexOf(String(body['id'])), `newest first: ${ids.join(', ')}`);
});

check('recipes/invites/lifetime/seven-days-single-use', RECIPES, async (t, c) => {
  const { instance, admin } = await closedInstance(c);
  const { api } = instance;
  const invite = await newInvite(api, admin.token);
  const body = jsonOf<Record<string, unknown>>(invite.answer) ?? {};
  t.is(Date.parse(String(body['expiresAt'])) - Date.parse(String(body['createdAt'])), 7 * 86400_000, `expiresAt - createdAt: ${shown(invite.answer)}`);
  await c.need('registering with the invite', () => api.ok('POST /api/auth/register', register(api, newEmail('once'), PASSWORD, { inviteToken: invite.token })));
  const again = await register(api, newEmail('twice'), PASSWORD, { inviteToken: invite.token });
  t.is(again.status, 400, `the invite token a second time: ${shown(again)}`);
});

check('recipes/invites/revoke-status/204-then-404', RECIPES, async (t, c) => {
  const { instance, admin } = await closedInstance(c);
  const { api } = instance;
  const invite = await newInvite(api, admin.token);
  const res = await api.call('DELETE', `/api/admin/invites/${invite.id}`, { token: admin.token });
  t.is(res.status, 204, shown(res));
  const again = await api.call('DELETE', `/api/admin/invites/${invite.id}`, { token: admin.token });
  t.is(again.status, 404, `revoking again: ${shown(again)}`);
  const unknown = await api.call('DELETE', '/api/admin/invites/00000000-0000-4000-8000-000000000000', { token: admin.token });
  t.is(unknown.status, 404, `an unknown id: ${shown(unknown)}`);
});

check('recipes/invites/invited-user-verification/verify-before-login', RECIPES, async (t, c) => {
  const { instance, admin } = await closedInstance(c);
  const { api } = instance;
  const invite = await newInvite(api, admin.token);
  const email = newEmail('invited-verify');
  const answer = await c.need('registering with the invite', () => api.ok('POST /api/auth/register', register(api, email, PASSWORD, { inviteToken: invite.token })));
  t.is((await api.login(email, PASSWORD)).status, 403, 'login before verification');
  await c.need('verifying', () => api.verified(linkOf(api, answer, 'verify', 'the registration answer')));
  t.is((await api.login(email, PASSWORD)).status, 200, 'login after verification');
});
