// Password reset over HTTP: forgot-password with the link in the answer (no SMTP) or in a real mail (SMTP
// settings pointing at a local smtp-server), reset-password, and what a reset does to old passwords and bearer
// tokens (catalog recipes/auth/forgot-password-*, reset-password-*, reset-token-lifetime, jwt-claims).
import test from 'ava';
import { type ReceivedMail, startSmtpServer } from '../mail/test-smtp.ts';
import { FORGOT_PASSWORD_MESSAGE, PASSWORD_UPDATED } from './index.ts';
import { ADMIN, bearer, COOK, registerVerified, setupAdmin, type TestServer, withServer } from './test-server.ts';

const NEW_PASSWORD = 'a brand new pässword #2';
const forgot = (s: TestServer, email: string) => s.api('POST', '/api/auth/forgot-password', { json: { email } });
const reset = (s: TestServer, token: string, password = NEW_PASSWORD) => s.api('POST', '/api/auth/reset-password', { json: { token, password } });
const login = (s: TestServer, password: string) => s.api('POST', '/api/auth/login', { json: { email: COOK.email, password } });

test('without SMTP: forgot → resetUrl in the answer → reset; the new password logs in, the old one and old tokens do not', (t) =>
  withServer(
    async (s) => {
      await setupAdmin(s);
      const before = await registerVerified(s, COOK);
      t.is(before.status, 200);

      const asked = await forgot(s, 'COOK.funke@example.org ');
      t.is(asked.status, 200);
      t.is(asked.body.message, FORGOT_PASSWORD_MESSAGE);
      const url = new URL(asked.body.resetUrl);
      t.is(`${url.origin}${url.pathname}`, 'https://recipes.example/base/reset-password');
      const token = url.searchParams.get('token')!;

      const weak = await reset(s, token, 'short');
      t.is(weak.status, 400);
      t.is(weak.body.details[0].field, 'password');

      const done = await reset(s, token);
      t.is(done.status, 200, 'a refused password does not use the token up');
      t.deepEqual(done.body, { message: PASSWORD_UPDATED });

      t.is((await login(s, COOK.password)).status, 401);
      const after = await login(s, NEW_PASSWORD);
      t.is(after.status, 200);
      t.is((await s.api('GET', '/api/auth/me', { headers: bearer(before.body.token) })).status, 401, 'token from before the reset');
      t.is((await s.api('GET', '/api/auth/me', { headers: bearer(after.body.token) })).status, 200);

      const reused = await reset(s, token, 'yet another password');
      t.is(reused.status, 400);
      t.is(reused.body.error, 'Invalid or expired token');
      t.is((await login(s, NEW_PASSWORD)).status, 200);
    },
    { APP_URL: 'https://recipes.example/base/' },
  ));

test('forgot-password answers an unknown email as a known one, and issues no token', (t) =>
  withServer(async (s) => {
    await setupAdmin(s);
    const unknown = await forgot(s, 'nobody@example.org');
    const notAnAddress = await forgot(s, 'not an address');
    t.is(unknown.status, 200);
    t.deepEqual(unknown.body, { message: FORGOT_PASSWORD_MESSAGE });
    t.deepEqual(notAnAddress.body, unknown.body);
    t.deepEqual(s.store.data.tokens, {});
    const known = await forgot(s, ADMIN.email);
    t.is(known.status, 200);
    t.is(known.body.message, unknown.body.message);
    t.is(Object.keys(s.store.data.tokens).length, 1);
    t.is((await s.api('POST', '/api/auth/forgot-password', { json: {} })).body.details[0].field, 'email');
  }));

test('reset-password refuses a missing, unknown, superseded or expired token (400)', (t) =>
  withServer(async (s) => {
    await setupAdmin(s);
    await registerVerified(s, COOK);
    const missing = await s.api('POST', '/api/auth/reset-password', { json: { password: NEW_PASSWORD } });
    t.is(missing.status, 400);
    t.is(missing.body.details[0].field, 'token');
    t.is((await reset(s, 'x'.repeat(43))).status, 400);

    const first = new URL((await forgot(s, COOK.email)).body.resetUrl).searchParams.get('token')!;
    const second = new URL((await forgot(s, COOK.email)).body.resetUrl).searchParams.get('token')!;
    t.is((await reset(s, first)).status, 400, 'a new request invalidates the earlier link');

    await s.store.update((draft) => {
      for (const token of Object.values(draft.tokens)) token.expiresAt = new Date(Date.now() - 1000).toISOString();
    });
    t.is((await reset(s, second)).status, 400, 'expired');
    t.is((await login(s, COOK.password)).status, 200, 'the password did not change');
  }));

test('with SMTP set through the settings endpoint: the reset link comes by mail, not in the answer', async (t) => {
  const smtp = await startSmtpServer();
  try {
    await withServer(async (s) => {
      const admin = await setupAdmin(s);
      await registerVerified(s, COOK);
      const settings = { smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpFrom: 'recipes@example.org' };
      t.is((await s.api('PATCH', '/api/admin/settings', { json: settings, headers: bearer(admin.body.token) })).status, 200);

      const asked = await forgot(s, COOK.email);
      t.is(asked.status, 200);
      t.deepEqual(asked.body, { message: FORGOT_PASSWORD_MESSAGE });
      t.deepEqual((await forgot(s, 'nobody@example.org')).body, asked.body);
      t.is(smtp.received.length, 1);
      const mail = smtp.received[0] as ReceivedMail;
      t.is(mail.mailFrom, 'recipes@example.org');
      t.deepEqual(mail.rcptTo, ['cook.funke@example.org']);
      const link = /https?:\/\/\S+\/reset-password\?token=[\w-]+/.exec(mail.text)?.[0];
      t.truthy(link);
      t.is((await reset(s, new URL(link!).searchParams.get('token')!)).status, 200);
      t.is((await login(s, NEW_PASSWORD)).status, 200);
    });
  } finally {
    await smtp.close();
  }
});

test('a reset mail that cannot be sent answers 502 and leaves no usable token', (t) =>
  withServer(async (s) => {
    await setupAdmin(s);
    await registerVerified(s, COOK);
    await s.store.update((draft) => {
      Object.assign(draft.settings, { smtpHost: '127.0.0.1', smtpPort: 1 });
    });
    const failed = await forgot(s, COOK.email);
    t.is(failed.status, 502);
    t.is(failed.body.error, 'Could not send email');
    t.deepEqual(s.store.data.tokens, {});
  }));
