// The admin invites over HTTP (catalog recipes/invites/*, recipes/auth/register-gate): admin only, the creation's
// answer and link on APP_URL, only a hash stored, the active list (newest first, no token), and the lifecycle
// through POST /api/auth/register: a used invite is no longer listed nor usable, a revoked one registers nobody,
// an expired one is neither listed nor revocable. An optional email mails the link when SMTP is configured.
import { setTimeout as delay } from 'node:timers/promises';
import test from 'ava';
import { hashToken } from '../auth/index.ts';
import { startSmtpServer } from '../mail/test-smtp.ts';
import { ADMIN_REQUIRED } from './index.ts';
import { INVITE_NOT_FOUND } from './invites-routes.ts';
import { bearer, COOK, registerVerified, setupAdmin, type TestServer, withServer } from './test-server.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const NEWCOMER = { email: 'newcomer@example.org', password: 'newcomer password', name: 'Buster' };

const createInvite = (s: TestServer, token: string, json?: unknown) =>
  s.api('POST', '/api/admin/invites', { headers: bearer(token), ...(json === undefined ? {} : { json }) });
const listInvites = (s: TestServer, token: string) => s.api('GET', '/api/admin/invites', { headers: bearer(token) });
const revoke = (s: TestServer, token: string, id: string) =>
  s.api('DELETE', `/api/admin/invites/${encodeURIComponent(id)}`, { headers: bearer(token) });
const register = (s: TestServer, inviteToken: string, account = NEWCOMER) =>
  s.api('POST', '/api/auth/register', { json: { ...account, inviteToken } });

/** Closes registration, so only an invite registers. */
const closeRegistration = (s: TestServer) =>
  s.store.update((draft) => {
    draft.settings.allowRegistration = false;
  });

test('admin only: 401 without a valid token, 403 for a user, and nothing is created or revoked', (t) =>
  withServer(async (s) => {
    const admin = (await setupAdmin(s)).body;
    const cook = (await registerVerified(s, COOK)).body;
    const invite = (await createInvite(s, admin.token)).body;
    for (const [method, path] of [
      ['POST', '/api/admin/invites'],
      ['GET', '/api/admin/invites'],
      ['DELETE', `/api/admin/invites/${invite.id}`],
    ] as const) {
      const anonymous = await s.api(method, path);
      t.is(anonymous.status, 401, `${method} ${path}`);
      t.is(anonymous.headers.get('www-authenticate'), 'Bearer');
      const refused = await s.api(method, path, { headers: bearer(cook.token) });
      t.is(refused.status, 403, `${method} ${path}`);
      t.deepEqual(refused.body, { error: ADMIN_REQUIRED });
    }
    t.deepEqual(Object.keys(s.store.data.invites), [invite.id]);
  }));

test('creation: 201 {id, token, url on APP_URL, createdAt, expiresAt 7 days on}; only a hash is stored', (t) =>
  withServer(
    async (s) => {
      const admin = (await setupAdmin(s)).body;
      const created = await createInvite(s, admin.token);
      t.is(created.status, 201);
      const { id, token, url, createdAt, expiresAt } = created.body;
      t.deepEqual(Object.keys(created.body).sort(), ['createdAt', 'expiresAt', 'id', 'token', 'url']);
      t.regex(token, /^[A-Za-z0-9_-]{43}$/);
      t.is(url, `https://recipes.example.org/base/register?inviteToken=${token}`);
      t.is(Date.parse(expiresAt) - Date.parse(createdAt), 7 * DAY_MS);
      t.true(Math.abs(Date.parse(createdAt) - Date.now()) < 60_000);
      t.is(s.store.data.invites[id]?.tokenHash, hashToken(token));
      t.is(s.store.data.invites[id]?.createdBy, admin.user.id);
      t.false(JSON.stringify(s.store.data).includes(token), 'the token itself is not stored');
      t.is((await createInvite(s, admin.token, {})).status, 201, 'an empty body');
    },
    { APP_URL: 'https://recipes.example.org/base/' },
  ));

test('the list: active invites only, newest first, without tokens', (t) =>
  withServer(async (s) => {
    const admin = (await setupAdmin(s)).body;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await createInvite(s, admin.token)).body.id);
      await delay(5); // distinct creation times
    }
    const listed = await listInvites(s, admin.token);
    t.is(listed.status, 200);
    t.deepEqual(
      listed.body.map((i: { id: string }) => i.id),
      [...ids].reverse(),
    );
    for (const invite of listed.body) t.deepEqual(Object.keys(invite).sort(), ['createdAt', 'expiresAt', 'id']);

    // Expired: not listed, not revocable.
    await s.store.update((draft) => {
      draft.invites[ids[0]!]!.expiresAt = new Date(Date.now() - 1000).toISOString();
    });
    t.deepEqual(
      (await listInvites(s, admin.token)).body.map((i: { id: string }) => i.id),
      [ids[2], ids[1]],
    );
    t.is((await revoke(s, admin.token, ids[0]!)).status, 404);
  }));

test('lifecycle: an invite registers once while registration is closed, then is no longer listed or usable', (t) =>
  withServer(async (s) => {
    const admin = (await setupAdmin(s)).body;
    await closeRegistration(s);
    const invite = (await createInvite(s, admin.token)).body;
    const other = (await createInvite(s, admin.token)).body;
    const invited = await register(s, invite.token);
    t.is(invited.status, 201);
    t.is(invited.body.user.role, 'user');
    t.deepEqual(
      (await listInvites(s, admin.token)).body.map((i: { id: string }) => i.id),
      [other.id],
    );
    const reused = await register(s, invite.token, { ...NEWCOMER, email: 'second@example.org' });
    t.is(reused.status, 400);
    t.is((await revoke(s, admin.token, invite.id)).status, 404, 'a used invite is no longer active');
    // The invited account still verifies its email before logging in (recipes/invites/invited-user-verification).
    const early = await s.api('POST', '/api/auth/login', { json: { email: NEWCOMER.email, password: NEWCOMER.password } });
    t.is(early.status, 403);
    await s.api('GET', `/api/auth/verify-email${new URL(invited.body.verificationUrl).search}`);
    t.is((await s.api('POST', '/api/auth/login', { json: { email: NEWCOMER.email, password: NEWCOMER.password } })).status, 200);
  }));

test('revocation: 204, no longer listed, its token registers nobody; 404 for a second revocation and unknown ids', (t) =>
  withServer(async (s) => {
    const admin = (await setupAdmin(s)).body;
    const invite = (await createInvite(s, admin.token)).body;
    const revoked = await revoke(s, admin.token, invite.id);
    t.is(revoked.status, 204);
    t.is(revoked.body, '');
    t.deepEqual((await listInvites(s, admin.token)).body, []);
    // Open registration too: a revoked token is refused whatever allowRegistration says.
    const refused = await register(s, invite.token);
    t.is(refused.status, 400);
    t.false(Object.values(s.store.data.users).some((u) => u.email === NEWCOMER.email));
    await closeRegistration(s);
    t.is((await register(s, invite.token)).status, 400);

    const second = await revoke(s, admin.token, invite.id);
    t.is(second.status, 404);
    t.deepEqual(second.body, { error: INVITE_NOT_FOUND });
    for (const id of ['00000000-0000-4000-8000-000000000000', '__proto__', 'fünke #1']) {
      t.is((await revoke(s, admin.token, id)).status, 404, id);
    }
  }));

test('the body: only an optional valid email; anything else answers 400 and creates nothing', (t) =>
  withServer(async (s) => {
    const admin = (await setupAdmin(s)).body;
    for (const [json, fields] of [
      [{ expiresAt: '2099-01-01T00:00:00Z' }, ['expiresAt']],
      [{ email: 'not an address' }, ['email']],
      [{ email: 42, role: 'admin' }, ['email', 'role']],
    ] as const) {
      const answer = await createInvite(s, admin.token, json);
      t.is(answer.status, 400, JSON.stringify(json));
      t.deepEqual(answer.body.details.map((d: { field: string }) => d.field).sort(), fields);
    }
    const text = await s.api('POST', '/api/admin/invites', { body: 'email=a@b.c', headers: { ...bearer(admin.token), 'content-type': 'text/plain' } });
    t.is(text.status, 415);
    t.deepEqual(s.store.data.invites, {});
    // Without SMTP an email changes nothing: the link is in the answer only.
    const unsent = await createInvite(s, admin.token, { email: NEWCOMER.email });
    t.is(unsent.status, 201);
    t.false('mailedTo' in unsent.body);
  }));

test('with SMTP settings an email gets the link by mail; a failed mail answers 502 and leaves no invite', async (t) => {
  const smtp = await startSmtpServer({ refuseDomain: 'refused.example.org' });
  try {
    await withServer(async (s) => {
      const admin = (await setupAdmin(s)).body;
      await s.store.update((draft) => {
        Object.assign(draft.settings, { smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpFrom: 'recipes@example.org' });
      });
      const sent = await createInvite(s, admin.token, { email: ' Newcomer@Example.org ' });
      t.is(sent.status, 201);
      t.is(sent.body.mailedTo, NEWCOMER.email);
      t.is(smtp.received.length, 1);
      t.deepEqual(smtp.received[0]?.rcptTo, [NEWCOMER.email]);
      t.true(smtp.received[0]?.text.includes(sent.body.url));

      const failed = await createInvite(s, admin.token, { email: 'someone@refused.example.org' });
      t.is(failed.status, 502);
      t.deepEqual(
        (await listInvites(s, admin.token)).body.map((i: { id: string }) => i.id),
        [sent.body.id],
      );
      t.is((await register(s, sent.body.token)).status, 201, 'the mailed link registers');
    });
  } finally {
    await smtp.close();
  }
});
