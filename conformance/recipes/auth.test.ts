// Accounts (document 002 part B, "Endpoints" /auth/*, "Authentication"): registration, email verification,
// login needing a verified address, the current user, password reset by link, hashed passwords, bearer JWTs
// signed with JWT_SECRET (fast-check: forged tokens refused); and the reference's choices for what the document
// leaves open (shapes, statuses, token rules). One recipe manager for the file, SMTP settings empty, so
// verification and reset links come back in the answers.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { check } from '../harness/index.ts';
import type { HttpResponse } from '../harness/http-client.ts';
import { isObject, jsonOf, linkOf, loggedIn, meOf, readOr, refused, register, registered, smtpEmpty, userByEmail, usersOf } from './accounts.ts';
import { is2xx, newEmail, PASSWORD, type RecipesApi, shown, verifiedBy } from './api.ts';
import { RECIPES, sharedInstance } from './target.ts';
import { decodeJwt, expiredToken, forgedTokens, type Jwt, nowS, signingKey, signJwt } from './tokens.ts';

/** A registered account verified through its link. */
async function verifiedAccount(api: RecipesApi, who: string, password = PASSWORD): Promise<string> {
  const { email, answer } = await registered(api, who, password);
  const link = linkOf(api, answer, 'verify', 'the registration answer');
  await api.c.need('GET /api/auth/verify-email with the link token', () => api.verified(link));
  return email;
}

/** A reset link for `email` from POST /api/auth/forgot-password (SMTP settings empty). */
async function resetLink(api: RecipesApi, email: string): Promise<string> {
  const res = await api.c.need('POST /api/auth/forgot-password', () => api.ok('POST /api/auth/forgot-password', api.call('POST', '/api/auth/forgot-password', { json: { email } })));
  return linkOf(api, res, 'reset', 'the forgot-password answer');
}

const resetPassword = (api: RecipesApi, token: string, password: string) => api.call('POST', '/api/auth/reset-password', { json: { token, password } });

/** The login token in an answer, or undefined. */
function tokenIn(api: RecipesApi, res: HttpResponse): string | undefined {
  try {
    return api.tokenOf(res);
  } catch {
    return undefined;
  }
}

check('recipes/auth/register-endpoint/creates-account-without-token', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  const admin = await api.admin();
  const email = newEmail('register');
  const res = await register(api, email);
  if (!t.true(is2xx(res), `POST /api/auth/register without a token: ${shown(res)}`)) return;
  t.truthy(userByEmail(await usersOf(api, admin.token), email), `GET /api/admin/users after registering ${email}: no such user`);
});

check('recipes/auth/verify-email-endpoint/link-token-verifies-address', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  await api.admin();
  const { email, answer } = await registered(api, 'verify');
  const link = linkOf(api, answer, 'verify', 'the registration answer');
  const res = await api.verify(link);
  // What the endpoint answers is not shown (a success or a redirect): the login that follows is the proof.
  t.true(verifiedBy(res), `GET /api/auth/verify-email without a bearer token: ${shown(res)}`);
  // Verified: login, which needs a verified address, now succeeds.
  const login = await api.login(email, PASSWORD);
  t.true(is2xx(login), `POST /api/auth/login after the verification: ${shown(login)}`);
});

check('recipes/auth/login-endpoint/returns-usable-jwt', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  await api.admin();
  const email = await verifiedAccount(api, 'login');
  const res = await api.login(email, PASSWORD);
  if (!t.true(is2xx(res), `POST /api/auth/login without a bearer token, valid credentials: ${shown(res)}`)) return;
  const token = tokenIn(api, res);
  if (!t.true(token !== undefined && /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token), `a JWT at ${api.shapes.at.token} of the login answer: ${shown(res)}`)) return;
  const me = await api.call('GET', '/api/auth/me', { token });
  t.true(is2xx(me), `GET /api/auth/me with the login's token as bearer: ${shown(me)}`);
});

check('recipes/auth/login-needs-verified-email/unverified-refused', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  await api.admin();
  const { email, answer } = await registered(api, 'unverified');
  const res = await api.login(email, PASSWORD);
  t.true(refused(res), `POST /api/auth/login, correct password, address not verified: ${shown(res)}`);
  t.is(tokenIn(api, res), undefined, 'a token in the refused login answer');
  // The same credentials once verified log in: the refusal was for the address.
  const link = linkOf(api, answer, 'verify', 'the registration answer');
  await c.need('verifying the address', () => api.verified(link));
  await loggedIn(api, email);
});

check('recipes/auth/me-endpoint/returns-token-user', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  const [a, b] = await Promise.all([api.user('me-a'), api.user('me-b')]);
  for (const account of [a, b]) {
    const res = await api.call('GET', '/api/auth/me', { token: account.token });
    if (!t.true(is2xx(res), `GET /api/auth/me with ${account.email}'s token: ${shown(res)}`)) continue;
    const user = readOr(api, 'user', res);
    t.true(isObject(user) && String(user['email']).toLowerCase() === account.email, `GET /api/auth/me with ${account.email}'s token: ${shown(res)}`);
  }
  const anonymous = await api.call('GET', '/api/auth/me');
  t.true(refused(anonymous), `GET /api/auth/me without a token: ${shown(anonymous)}`);
});

check('recipes/auth/forgot-password-endpoint/reset-link-for-account', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  const user = await api.user('forgot');
  await smtpEmpty(api, (await api.admin()).token);
  const res = await api.call('POST', '/api/auth/forgot-password', { json: { email: user.email } });
  if (!t.true(is2xx(res), `POST /api/auth/forgot-password without a token: ${shown(res)}`)) return;
  // SMTP settings empty: the link comes back in the answer.
  t.true(api.linksIn(res, 'reset').length > 0, `no reset link (with a ${api.shapes.linkToken.reset} parameter) in the answer: ${shown(res)}`);
});

check('recipes/auth/reset-password-endpoint/new-password-replaces-old', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  const user = await api.user('reset');
  const token = api.tokenOfLink(await resetLink(api, user.email), 'reset');
  const fresh = 'Conformance-new-pass-2468';
  const res = await resetPassword(api, token, fresh);
  if (!t.true(is2xx(res), `POST /api/auth/reset-password without a bearer token: ${shown(res)}`)) return;
  const withNew = await api.login(user.email, fresh);
  t.true(is2xx(withNew), `login with the new password: ${shown(withNew)}`);
  const withOld = await api.login(user.email, PASSWORD);
  t.true(refused(withOld), `login with the old password: ${shown(withOld)}`);
});

/** Every file under `dir` (at most 16 MiB each), for what it holds. */
function filesUnder(dir: string): { path: string; content: Buffer }[] {
  const found: { path: string; content: Buffer }[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    try {
      if (statSync(path).size <= 16 * 1024 * 1024) found.push({ path, content: readFileSync(path) });
    } catch {
      // Gone since the listing: a store's temporary file, renamed over its data file by a write of another case.
    }
  }
  return found;
}

const HASH_FORMS = /^\$(argon2(id|i|d)|2[abxy]|scrypt|pbkdf2[-\w]*|sha(256|512)?|s2|7)\$/;

/** Where a body shows `password` or a password hash: strings holding it, hash forms, password-named keys. */
function leaks(body: unknown, password: string, at = ''): string[] {
  if (typeof body === 'string') return body.includes(password) ? [`${at}: the password`] : HASH_FORMS.test(body) ? [`${at}: a password hash`] : [];
  if (Array.isArray(body)) return body.flatMap((v, i) => leaks(v, password, `${at}/${i}`));
  if (!isObject(body)) return [];
  return Object.entries(body).flatMap(([k, v]) => [
    ...(/^(password|pass|passwd|passwordHash|password_hash|hash|hashedPassword)$/i.test(k) && typeof v === 'string' && v !== '' ? [`${at}/${k}: a password field`] : []),
    ...leaks(v, password, `${at}/${k}`),
  ]);
}

check('recipes/auth/passwords-hashed/never-stored-or-answered-plain', RECIPES, async (t, c) => {
  const { api, launched } = await sharedInstance(c);
  const admin = await api.admin();
  const password = `Plain-${Math.random().toString(36).slice(2, 12)}-conformance`;
  const { email, answer } = await registered(api, 'hashed', password);
  const link = linkOf(api, answer, 'verify', 'the registration answer');
  const answers: [string, HttpResponse][] = [['POST /api/auth/register', answer]];
  answers.push(['GET /api/auth/verify-email', await api.verify(link)]);
  const login = await api.login(email, password);
  answers.push(['POST /api/auth/login', login]);
  const token = await c.need('the token of the login', () => api.tokenOf(login));
  answers.push(['GET /api/auth/me', await api.call('GET', '/api/auth/me', { token })]);
  answers.push(['GET /api/admin/users', await api.call('GET', '/api/admin/users', { token: admin.token })]);
  answers.push(['POST /api/auth/forgot-password', await api.call('POST', '/api/auth/forgot-password', { json: { email } })]);
  for (const [what, res] of answers) {
    t.deepEqual(leaks(jsonOf(res) ?? res.text, password), [], `${what} shows the password or a hash: ${shown(res)}`);
  }
  // Stored: nothing in the recipe manager's folder holds the password as written.
  const plain = filesUnder(launched.dir)
    .filter((f) => f.content.includes(password))
    .map((f) => f.path);
  t.deepEqual(plain, [], `files of the recipe manager's folder holding the password in plain text`);
});

check('recipes/auth/jwt-bearer/authorization-bearer-accepted', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  const user = await api.user('bearer');
  for (const path of ['/api/auth/me', '/api/recipes', '/api/categories']) {
    const res = await api.http.request({ path, headers: { authorization: `Bearer ${user.token}` } });
    t.true(is2xx(res), `GET ${path} with Authorization: Bearer <the login's JWT>: ${shown(res)}`);
  }
});

/** The decoded login tokens of a user and the admin, for forging. */
async function genuine(api: RecipesApi): Promise<{ user: { token: string; jwt: Jwt }; admin: { token: string; jwt: Jwt } }> {
  const [admin, user] = await Promise.all([api.admin(), api.user('forged')]);
  const decode = (token: string, who: string): Jwt => decodeJwt(token) ?? api.c.inconclusive(`the ${who}'s login token is not a compact JWT: ${token.slice(0, 80)}`);
  return { user: { token: user.token, jwt: decode(user.token, 'user') }, admin: { token: admin.token, jwt: decode(admin.token, 'admin') } };
}

check('recipes/auth/jwt-signed-with-secret/forged-tokens-refused', { ...RECIPES, timeoutMs: 90_000 }, async (t, c) => {
  const { api, secret } = await sharedInstance(c);
  if (secret === undefined) return c.inconclusive('the shared instance has no JWT_SECRET of the suite');
  const { user, admin } = await genuine(api);
  const controls = async () => {
    const me = await api.call('GET', '/api/auth/me', { token: user.token });
    const users = await api.call('GET', '/api/admin/users', { token: admin.token });
    t.true(is2xx(me), `GET /api/auth/me with the genuine token: ${shown(me)}`);
    t.true(is2xx(users), `GET /api/admin/users with the admin's genuine token: ${shown(users)}`);
  };
  await controls();
  await c.property(
    fc.tuple(forgedTokens(user.jwt, secret), forgedTokens(admin.jwt, secret)),
    async ([forUser, forAdmin]) => {
      const me = await api.call('GET', '/api/auth/me', { token: forUser.token });
      const users = await api.call('GET', '/api/admin/users', { token: forAdmin.token });
      return refused(me) && refused(users);
    },
    { numRuns: 25 },
  );
  await controls();
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('recipes/auth/register-payload/created-unverified-user-no-token', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  await api.admin();
  const email = newEmail('payload');
  const res = await register(api, email);
  t.is(res.status, 201, shown(res));
  const body = jsonOf<Record<string, unknown>>(res) ?? {};
  const user = body['user'];
  t.true(isObject(user) && user['role'] === 'user' && user['isActive'] === true && user['emailVerified'] === false, `the new user: ${shown(res)}`);
  t.is(typeof body['message'], 'string');
  t.false('token' in body, 'no login token in the registration answer');
  const again = await register(api, email);
  t.is(again.status, 409, `the same email again: ${shown(again)}`);
  const bad = await register(api, 'not-an-address');
  t.is(bad.status, 400, `an invalid email: ${shown(bad)}`);
});

check('recipes/auth/email-normalization/mixed-case-same-account', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  await api.admin();
  const lower = newEmail('mixed');
  const { answer } = await c.need('registering the mixed-case address', async () => ({ answer: await api.ok('POST /api/auth/register', register(api, `  ${lower.toUpperCase()} `)) }));
  await c.need('verifying it', () => api.verified(linkOf(api, answer, 'verify', 'the registration answer')));
  const login = await api.login(lower, PASSWORD);
  t.is(login.status, 200, `login with the lower-case address: ${shown(login)}`);
  const again = await register(api, lower);
  t.is(again.status, 409, `registering the lower-case address again: ${shown(again)}`);
});

check('recipes/auth/password-policy/8-to-128-characters', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  await api.admin();
  for (const [password, status] of [
    ['a'.repeat(7), 400],
    ['a'.repeat(129), 400],
    ['a'.repeat(8), 201],
  ] as const) {
    const res = await register(api, newEmail('policy'), password);
    t.is(res.status, status, `a password of ${password.length} characters: ${shown(res)}`);
  }
});

check('recipes/auth/verify-email-params/token-query-200-bad-400', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  await api.admin();
  const { answer } = await registered(api, 'verify-params');
  const link = linkOf(api, answer, 'verify', 'the registration answer');
  const token = api.tokenOfLink(link, 'verify');
  const res = await api.call('GET', '/api/auth/verify-email', { query: { token } });
  t.is(res.status, 200, shown(res));
  t.deepEqual(jsonOf(res), { message: 'Email verified' });
  for (const query of [{ token: 'no-such-token' }, {}]) {
    const bad = await api.call('GET', '/api/auth/verify-email', { query });
    t.is(bad.status, 400, `GET /api/auth/verify-email ${JSON.stringify(query)}: ${shown(bad)}`);
  }
});

check('recipes/auth/verification-token-lifetime/single-use-stays-verified', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  await api.admin();
  const { email, answer } = await registered(api, 'verify-once');
  const link = linkOf(api, answer, 'verify', 'the registration answer');
  await c.need('the first verification', () => api.verified(link));
  const again = await api.verify(link);
  t.is(again.status, 400, `the same verification token again: ${shown(again)}`);
  const login = await api.login(email, PASSWORD);
  t.is(login.status, 200, `login after the second use: ${shown(login)}`);
});

check('recipes/auth/login-payload/token-and-user-401-alike', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  await api.admin();
  const email = await verifiedAccount(api, 'login-payload');
  const ok = await api.login(email, PASSWORD);
  const body = jsonOf<Record<string, unknown>>(ok) ?? {};
  t.true(typeof body['token'] === 'string' && isObject(body['user']) && body['user']['email'] === email, `200 {token, user}: ${shown(ok)}`);
  const wrong = await api.login(email, 'Wrong-password-1234');
  const unknown = await api.login(newEmail('nobody'), PASSWORD);
  t.is(wrong.status, 401, `wrong password: ${shown(wrong)}`);
  t.is(unknown.status, 401, `unknown email: ${shown(unknown)}`);
  t.is(wrong.text, unknown.text, 'the same answer for a wrong password and an unknown email');
});

check('recipes/auth/login-unverified-status/403', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  await api.admin();
  const { email } = await registered(api, 'unverified-403');
  const res = await api.login(email, PASSWORD);
  t.is(res.status, 403, shown(res));
});

check('recipes/auth/user-representation/fields', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  const user = await api.user('fields');
  const me = await meOf(api, user.token);
  t.deepEqual(Object.keys(me).sort(), ['createdAt', 'email', 'emailVerified', 'id', 'isActive', 'name', 'role'], `GET /api/auth/me: ${JSON.stringify(me)}`);
});

check('recipes/auth/forgot-password-response/same-answer-unknown-email', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  const user = await api.user('forgot-same');
  const known = await api.call('POST', '/api/auth/forgot-password', { json: { email: user.email } });
  const unknown = await api.call('POST', '/api/auth/forgot-password', { json: { email: newEmail('nobody') } });
  t.is(known.status, 200, shown(known));
  t.is(unknown.status, 200, shown(unknown));
  const message = (res: HttpResponse) => jsonOf<Record<string, unknown>>(res)?.['message'];
  t.true(typeof message(known) === 'string' && message(known) === message(unknown), `the same message: ${shown(known)} | ${shown(unknown)}`);
  t.deepEqual(api.linksIn(unknown, 'reset'), [], 'no reset link for an unknown email');
});

check('recipes/auth/reset-password-payload/200-bad-token-400', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  const user = await api.user('reset-payload');
  const token = api.tokenOfLink(await resetLink(api, user.email), 'reset');
  const res = await resetPassword(api, token, 'Conformance-reset-1357');
  t.is(res.status, 200, shown(res));
  t.deepEqual(jsonOf(res), { message: 'Password updated' });
  const reused = await resetPassword(api, token, 'Conformance-reset-9753');
  t.is(reused.status, 400, `the token again: ${shown(reused)}`);
  const unknown = await resetPassword(api, 'no-such-token', 'Conformance-reset-9753');
  t.is(unknown.status, 400, `an unknown token: ${shown(unknown)}`);
});

check('recipes/auth/reset-token-lifetime/newer-request-supersedes', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  const user = await api.user('reset-twice');
  const first = api.tokenOfLink(await resetLink(api, user.email), 'reset');
  const second = api.tokenOfLink(await resetLink(api, user.email), 'reset');
  const old = await resetPassword(api, first, 'Conformance-reset-2222');
  t.is(old.status, 400, `the first token after a second request: ${shown(old)}`);
  const res = await resetPassword(api, second, 'Conformance-reset-3333');
  t.is(res.status, 200, `the second token: ${shown(res)}`);
});

check('recipes/auth/password-hash-algorithm/argon2id-parameters', RECIPES, async (t, c) => {
  const { api, launched } = await sharedInstance(c);
  await api.user('argon2');
  const stored = filesUnder(launched.dir).some((f) => f.content.includes('$argon2id$v=19$m=19456,t=2,p=1$'));
  t.true(stored, `no $argon2id$v=19$m=19456,t=2,p=1$ hash in the files under ${launched.dir}`);
});

check('recipes/auth/jwt-claims/hs256-claims-and-secret-signed-accepted', RECIPES, async (t, c) => {
  const { api, secret } = await sharedInstance(c);
  if (secret === undefined) return c.inconclusive('the shared instance has no JWT_SECRET of the suite');
  const user = await api.user('claims');
  const jwt = decodeJwt(user.token);
  t.is(jwt?.header['alg'], 'HS256');
  t.deepEqual(Object.keys(jwt?.payload ?? {}).sort(), ['exp', 'iat', 'role', 'sub', 'tv'], JSON.stringify(jwt?.payload));
  const key = jwt && signingKey(jwt, secret);
  if (!t.truthy(key, 'signed with JWT_SECRET') || !jwt || !key) return;
  const later = signJwt(jwt.header, { ...jwt.payload, exp: nowS() + 3600 }, key);
  const res = await api.call('GET', '/api/auth/me', { token: later });
  t.is(res.status, 200, `the login's claims with a later exp, signed with JWT_SECRET: ${shown(res)}`);
});

check('recipes/auth/unauthenticated/401-www-authenticate', { ...RECIPES, timeoutMs: 90_000 }, async (t, c) => {
  const { api, secret } = await sharedInstance(c);
  if (secret === undefined) return c.inconclusive('the shared instance has no JWT_SECRET of the suite');
  const { user, admin } = await genuine(api);
  for (const path of ['/api/auth/me', '/api/admin/users']) {
    const res = await api.call('GET', path);
    t.is(res.status, 401, `GET ${path} without a token: ${shown(res)}`);
    t.regex(String(res.headers['www-authenticate']), /^Bearer/i, `GET ${path} without a token: WWW-Authenticate`);
  }
  const key = signingKey(user.jwt, secret);
  if (!t.truthy(key, 'the login token is signed with JWT_SECRET') || !key) return;
  const expired = await api.call('GET', '/api/auth/me', { token: expiredToken(user.jwt, key) });
  t.is(expired.status, 401, `an expired token signed with JWT_SECRET: ${shown(expired)}`);
  await c.property(
    fc.tuple(forgedTokens(user.jwt, secret), forgedTokens(admin.jwt, secret)),
    async ([forUser, forAdmin]) => {
      const me = await api.call('GET', '/api/auth/me', { token: forUser.token });
      const users = await api.call('GET', '/api/admin/users', { token: forAdmin.token });
      return me.status === 401 && users.status === 401 && /^Bearer/i.test(String(me.headers['www-authenticate']));
    },
    { numRuns: 25 },
  );
});
