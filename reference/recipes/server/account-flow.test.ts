// First run and the account life cycle over HTTP: setup, registration with the link in the answer (no SMTP) or
// in a real mail (SMTP settings pointing at a local smtp-server), verification, login, me; and the refusals
// (catalog recipes/setup/*, recipes/auth/*, recipes/email/*).
import test from 'ava';
import { type ReceivedMail, startSmtpServer } from '../mail/test-smtp.ts';
import { ADMIN, COOK, type TestServer, withServer } from './test-server.ts';

const setup = (s: TestServer) => s.api('POST', '/api/admin/setup', { json: ADMIN });

test('setup creates the first admin, who can log in at once; then setup is closed (409)', (t) =>
  withServer(async (s) => {
    t.deepEqual((await s.api('GET', '/api/admin/setup')).body, { adminExists: false });
    const first = await setup(s);
    t.is(first.status, 201);
    t.like(first.body.user, { email: 'admin@example.org', name: 'Ada Admin', role: 'admin', isActive: true, emailVerified: true });
    t.false('passwordHash' in first.body.user);
    const me = await s.api('GET', '/api/auth/me', { headers: { authorization: `Bearer ${first.body.token}` } });
    t.is(me.status, 200);
    t.is(me.body.id, first.body.user.id);
    t.deepEqual((await s.api('GET', '/api/admin/setup')).body, { adminExists: true });
    const again = await s.api('POST', '/api/admin/setup', { json: { ...ADMIN, email: 'other@example.org' } });
    t.is(again.status, 409);
    t.is(again.body.error, 'Setup already completed');
    t.is(Object.keys(s.store.data.users).length, 1);
  }));

test('two concurrent setups make exactly one admin', (t) =>
  withServer(async (s) => {
    const answers = await Promise.all([0, 1, 2].map((i) => s.api('POST', '/api/admin/setup', { json: { ...ADMIN, email: `a${i}@example.org` } })));
    t.deepEqual(answers.map((a) => a.status).sort(), [201, 409, 409]);
    t.is(Object.keys(s.store.data.users).length, 1);
  }));

test('registration before setup answers 403 Setup required', (t) =>
  withServer(async (s) => {
    const answer = await s.api('POST', '/api/auth/register', { json: COOK });
    t.is(answer.status, 403);
    t.is(answer.body.error, 'Setup required');
  }));

test('without SMTP: register → verificationUrl in the answer → verify → login → me', (t) =>
  withServer(
    async (s) => {
      await setup(s);
      const registered = await s.api('POST', '/api/auth/register', { json: COOK });
      t.is(registered.status, 201);
      t.like(registered.body.user, { email: 'cook.funke@example.org', name: 'Tobias Fünke', role: 'user', isActive: true, emailVerified: false });
      t.false('token' in registered.body);
      const url = new URL(registered.body.verificationUrl);
      t.is(`${url.origin}${url.pathname}`, 'https://recipes.example/base/api/auth/verify-email');

      const early = await s.api('POST', '/api/auth/login', { json: { email: COOK.email, password: COOK.password } });
      t.is(early.status, 403);
      t.is(early.body.error, 'Email address not verified');
      t.false('token' in early.body);

      const taken = await s.api('POST', '/api/auth/register', { json: { ...COOK, email: 'COOK.FUNKE@example.org' } });
      t.is(taken.status, 409);

      const verified = await s.api('GET', `/api/auth/verify-email${url.search}`);
      t.is(verified.status, 200);
      t.deepEqual(verified.body, { message: 'Email verified' });
      t.is((await s.api('GET', `/api/auth/verify-email${url.search}`)).status, 400, 'single use');
      t.is((await s.api('GET', '/api/auth/verify-email')).status, 400, 'no token');

      const login = await s.api('POST', '/api/auth/login', { json: { email: 'cook.FUNKE@example.org', password: COOK.password } });
      t.is(login.status, 200);
      t.true(login.body.user.emailVerified);
      const me = await s.api('GET', '/api/auth/me', { headers: { authorization: `Bearer ${login.body.token}` } });
      t.is(me.status, 200);
      t.deepEqual(me.body, { ...login.body.user });

      // The same token with its payload changed (role claim raised) is refused.
      const [head, payload, signature] = login.body.token.split('.');
      const raised = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), role: 'admin' })).toString('base64url');
      const tampered = await s.api('GET', '/api/auth/me', { headers: { authorization: `Bearer ${head}.${raised}.${signature}` } });
      t.is(tampered.status, 401);
    },
    { APP_URL: 'https://recipes.example/base/' },
  ));

test('login: wrong password and unknown email answer 401 alike; a deactivated user is refused and loses the session', (t) =>
  withServer(async (s) => {
    const admin = await setup(s);
    const wrong = await s.api('POST', '/api/auth/login', { json: { email: ADMIN.email, password: 'not the password' } });
    const unknown = await s.api('POST', '/api/auth/login', { json: { email: 'nobody@example.org', password: ADMIN.password } });
    t.is(wrong.status, 401);
    t.is(unknown.status, 401);
    t.is(wrong.body.error, 'Invalid email or password');
    t.deepEqual(unknown.body, wrong.body);

    const id = admin.body.user.id as string;
    await s.store.update((draft) => {
      draft.users[id]!.isActive = false;
    });
    const refused = await s.api('POST', '/api/auth/login', { json: { email: ADMIN.email, password: ADMIN.password } });
    t.is(refused.status, 403);
    t.is(refused.body.error, 'Account is disabled');
    const me = await s.api('GET', '/api/auth/me', { headers: { authorization: `Bearer ${admin.body.token}` } });
    t.is(me.status, 401);
  }));

test('registration closed: 403 without an invite; a valid invite token still registers, once', (t) =>
  withServer(async (s) => {
    await setup(s);
    await s.store.update((draft) => {
      draft.settings.allowRegistration = false;
    });
    const closed = await s.api('POST', '/api/auth/register', { json: COOK });
    t.is(closed.status, 403);
    t.is(closed.body.error, 'Registration is closed');
    const bad = await s.api('POST', '/api/auth/register', { json: { ...COOK, inviteToken: 'x'.repeat(43) } });
    t.is(bad.status, 400);

    const { token } = await s.server.context.oneTime.issue('invite', null, 'admin');
    const invited = await s.api('POST', '/api/auth/register', { json: { ...COOK, inviteToken: token } });
    t.is(invited.status, 201);
    const reused = await s.api('POST', '/api/auth/register', { json: { ...COOK, email: 'second@example.org', inviteToken: token } });
    t.is(reused.status, 400);
  }));

test('with SMTP settings: the verification link comes by mail from smtpFrom, not in the answer; following it verifies', async (t) => {
  const smtp = await startSmtpServer();
  try {
    await withServer(async (s) => {
      await setup(s);
      await s.store.update((draft) => {
        Object.assign(draft.settings, { smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpFrom: 'recipes@example.org' });
      });
      const registered = await s.api('POST', '/api/auth/register', { json: COOK });
      t.is(registered.status, 201);
      t.false('verificationUrl' in registered.body);
      t.is(smtp.received.length, 1);
      const mail = smtp.received[0] as ReceivedMail;
      t.is(mail.mailFrom, 'recipes@example.org');
      t.deepEqual(mail.rcptTo, ['cook.funke@example.org']);
      const link = /https?:\/\/\S+verify-email\?token=[\w-]+/.exec(mail.text)?.[0];
      t.truthy(link);
      t.true(link!.startsWith(`${s.url.replace('127.0.0.1', 'localhost')}/api/auth/verify-email?token=`));
      // Follow the link as a mail client would (APP_URL defaults to http://localhost:<port>; go to the address).
      const verified = await fetch(`${s.url}${new URL(link!).pathname}${new URL(link!).search}`);
      t.is(verified.status, 200);
      const login = await s.api('POST', '/api/auth/login', { json: { email: COOK.email, password: COOK.password } });
      t.is(login.status, 200);
    });
  } finally {
    await smtp.close();
  }
});

test('a mail that cannot be sent answers 502 and the account is not kept', (t) =>
  withServer(async (s) => {
    await setup(s);
    await s.store.update((draft) => {
      Object.assign(draft.settings, { smtpHost: '127.0.0.1', smtpPort: 1 });
    });
    const failed = await s.api('POST', '/api/auth/register', { json: COOK });
    t.is(failed.status, 502);
    t.is(failed.body.error, 'Could not send email');
    t.is(Object.keys(s.store.data.users).length, 1);
    t.deepEqual(s.store.data.tokens, {});
  }));
