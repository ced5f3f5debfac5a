// Deployment variables (document 002 part B, "Deployment variables"): PORT and its default 3000, JWT_SECRET,
// JWT_EXPIRES_IN (a token refused once its duration has passed: the suite's one bounded wait), APP_URL in the
// links of answers and mails; and the reference's choices where a variable is unset.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CaseContext } from '../harness/case-context.ts';
import { fixedPort } from '../harness/fixed-port.ts';
import { check } from '../harness/index.ts';
import type { HttpResponse } from '../harness/http-client.ts';
import { jsonOf, linkOf, loggedIn, mailThroughMailbox, refused, register, registered } from './accounts.ts';
import { healthAnswer, is2xx, newEmail, type RecipesApi, shown } from './api.ts';
import { filesHoldingSoon, mainPhotoPath, uniquePng, uploadPhoto } from './photo-files.ts';
import { listensOn } from './ports.ts';
import { RECIPES, sharedInstance, start } from './target.ts';
import { decodeJwt, otherKey, signingKey, signJwt } from './tokens.ts';

const DEFAULT_PORT = 3000;

check('recipes/config/port-default/listens-on-3000', { ...RECIPES, applicable: (c) => fixedPort(c, DEFAULT_PORT) }, async (t, c) => {
  const { launched } = await start(c, { env: { PORT: undefined, APP_URL: `http://127.0.0.1:${DEFAULT_PORT}` }, listen: [] });
  c.note('# PORT unset');
  if (!t.is(await listensOn(launched, DEFAULT_PORT), undefined, 'PORT unset')) return;
  const res = await healthAnswer(c.http(`http://127.0.0.1:${DEFAULT_PORT}`));
  t.true(is2xx(res), `GET /health (or /api/health) on port ${DEFAULT_PORT}: ${shown(res)}`);
});

check('recipes/config/jwt-secret/tokens-signed-with-the-secret', RECIPES, async (t, c) => {
  const { api, secret } = await sharedInstance(c);
  if (secret === undefined) return c.inconclusive('the shared instance has no JWT_SECRET of the suite');
  const user = await api.user('secret');
  const jwt = decodeJwt(user.token);
  if (!t.truthy(jwt, `the login token is not a compact JWT: ${user.token.slice(0, 80)}`) || !jwt) return;
  t.truthy(signingKey(jwt, secret), `the login token (alg ${JSON.stringify(jwt.header['alg'])}) carries no HMAC made with JWT_SECRET`);
  // The same claims under another secret: verified against JWT_SECRET, they are not accepted.
  if (typeof jwt.header['alg'] !== 'string' || !/^HS(256|384|512)$/.test(jwt.header['alg'])) return;
  const forged = signJwt(jwt.header, jwt.payload, otherKey());
  const res = await api.call('GET', '/api/auth/me', { token: forged });
  t.true(refused(res), `GET /api/auth/me with the login's claims signed with another secret: ${shown(res)}`);
});

// ---------------------------------------------------------------- JWT_EXPIRES_IN: one instance with 4 s tokens

/** A token's lifetime. Claims count whole seconds, so a token may be good for up to a second less than this:
 * 4 s leaves a busy machine (the whole run on two cores) time for the login and the first request. */
const LIFETIME_MS = 4000;
/** After the lifetime, how long a refusal may take to come (the claims count whole seconds). */
const GRACE_MS = 2000;
const EXPIRES_IN = `${LIFETIME_MS / 1000}s`;
const EXPIRY = { env: { JWT_EXPIRES_IN: EXPIRES_IN } };

/** Logins tried before the case gives up on a machine too busy to ask within a token's sure lifetime. */
const LOGINS = 3;

/** Logs in as `email`, then whether `path` accepts the token right after, and refuses it once the lifetime
 * has passed (polled from then until the grace ends). The token is issued between the login's request and its
 * answer, and claims count whole seconds: it is surely good until a second short of the lifetime after the
 * request, and surely past it a lifetime after the answer. A first answer later than that, on a busy machine,
 * judges nothing: the login is tried again. */
async function acceptedThenRefused(c: CaseContext, api: RecipesApi, email: string, path: string): Promise<{ first: HttpResponse; last: HttpResponse }> {
  for (let attempt = 1; ; attempt++) {
    const loginSent = Date.now();
    const token = await loggedIn(api, email);
    const loginAnswered = Date.now();
    const first = await api.call('GET', path, { token });
    const late = Date.now() - loginSent;
    if (!is2xx(first) && late >= LIFETIME_MS - 1000) {
      const why = `the first request was answered ${late} ms after the login was sent, past the token's sure lifetime`;
      if (attempt >= LOGINS) return c.inconclusive(`${why}, ${LOGINS} times (the machine too busy)`);
      c.note(`# ${why}: logging in again`);
      continue;
    }
    const lifetimeEnd = loginAnswered + LIFETIME_MS;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, lifetimeEnd - Date.now())));
    c.note(`# ${LIFETIME_MS} ms after the login's answer`);
    let last = await api.call('GET', path, { token });
    while (!refused(last) && Date.now() < lifetimeEnd + GRACE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      last = await api.call('GET', path, { token });
    }
    return { first, last };
  }
}

check('recipes/config/jwt-expires-in/token-refused-after-duration', { ...RECIPES, timeoutMs: 40_000 }, async (t, c) => {
  const { api } = await sharedInstance(c, 'expiry', EXPIRY);
  const admin = await api.admin();
  const { first, last } = await acceptedThenRefused(c, api, admin.email, '/api/auth/me');
  t.true(is2xx(first), `GET /api/auth/me right after the login (JWT_EXPIRES_IN=${EXPIRES_IN}): ${shown(first)}`);
  t.true(refused(last), `GET /api/auth/me ${LIFETIME_MS + GRACE_MS} ms after the login (JWT_EXPIRES_IN=${EXPIRES_IN}): ${shown(last)}`);
});

check('recipes/auth/jwt-expiry/bearer-route-refuses-expired-token', { ...RECIPES, timeoutMs: 40_000 }, async (t, c) => {
  const { api } = await sharedInstance(c, 'expiry', EXPIRY);
  const user = await api.user('expiry');
  const { first, last } = await acceptedThenRefused(c, api, user.email, '/api/recipes');
  t.true(is2xx(first), `GET /api/recipes right after the login (JWT_EXPIRES_IN=${EXPIRES_IN}): ${shown(first)}`);
  t.true(refused(last), `GET /api/recipes ${LIFETIME_MS + GRACE_MS} ms after the login (JWT_EXPIRES_IN=${EXPIRES_IN}): ${shown(last)}`);
});

// ---------------------------------------------------------------- APP_URL

check('recipes/config/app-url-in-links/answer-and-mail-links-on-app-url', RECIPES, async (t, c) => {
  const { api } = await start(c, { env: { APP_URL: 'http://conformance-app.test:{port}' } });
  const base = `http://conformance-app.test:${new URL(api.url).port}`;
  const onBase = (link: string) => link === base || link.startsWith(`${base}/`);
  const admin = await api.admin();
  // SMTP settings empty: the links come back in the answers.
  const { email, answer } = await registered(api, 'app-url');
  const verification = linkOf(api, answer, 'verify', 'the registration answer');
  t.true(onBase(verification), `the verification link of the registration answer is not on APP_URL ${base}: ${verification}`);
  const forgot = await c.need('POST /api/auth/forgot-password', () => api.ok('POST /api/auth/forgot-password', api.call('POST', '/api/auth/forgot-password', { json: { email } })));
  const reset = linkOf(api, forgot, 'reset', 'the forgot-password answer');
  t.true(onBase(reset), `the reset link of the forgot-password answer is not on APP_URL ${base}: ${reset}`);
  // SMTP configured: the links come by mail.
  const box = await mailThroughMailbox(c, api, admin.token);
  const mailed = newEmail('app-url-mail');
  await c.need('POST /api/auth/register with SMTP configured', () => api.ok('POST /api/auth/register', register(api, mailed)));
  const mail = await c.need(`the verification mail to ${mailed}`, async () => (await box.mailTo(mailed)) ?? Promise.reject(new Error('no mail came within 10 s')));
  const links = mail.links.filter((l) => api.isLink(l, 'verify'));
  if (links.length === 0) return c.inconclusive(`the verification mail has no link with a ${api.shapes.linkToken.verify} parameter: ${mail.text.slice(0, 300)}`);
  t.true(links.every(onBase), `links of the verification mail not on APP_URL ${base}: ${links.join(' ')}`);
  await c.need('POST /api/auth/forgot-password with SMTP configured', () => api.ok('POST /api/auth/forgot-password', api.call('POST', '/api/auth/forgot-password', { json: { email: mailed } })));
  const resetMail = await c.need(`the reset mail to ${mailed}`, async () => (await box.mailTo(mailed, 10_000, 1)) ?? Promise.reject(new Error('no mail came within 10 s')));
  const resetLinks = resetMail.links.filter((l) => api.isLink(l, 'reset'));
  if (resetLinks.length === 0) return c.inconclusive(`the reset mail has no link with a ${api.shapes.linkToken.reset} parameter: ${resetMail.text.slice(0, 300)}`);
  t.true(resetLinks.every(onBase), `links of the reset mail not on APP_URL ${base}: ${resetLinks.join(' ')}`);
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

/** An instance with JWT_EXPIRES_IN and APP_URL unset. */
const DEFAULTS = { env: { JWT_EXPIRES_IN: undefined, APP_URL: undefined } };

check('recipes/config/jwt-expires-in-default/seven-days', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c, 'defaults', DEFAULTS);
  const admin = await api.admin();
  const payload = decodeJwt(admin.token)?.payload;
  t.is(Number(payload?.['exp']) - Number(payload?.['iat']), 7 * 86400, `exp - iat of a token issued with JWT_EXPIRES_IN unset: ${JSON.stringify(payload)}`);
});

check('recipes/config/jwt-expires-in-default/bad-duration-refused-at-start', RECIPES, async (t, c) => {
  const launched = await c.launch({ env: { JWT_SECRET: 'x'.repeat(48), JWT_EXPIRES_IN: 'soon', APP_URL: undefined }, wait: 'exit' });
  if (!t.not(await launched.started, 'listening', 'started listening with JWT_EXPIRES_IN=soon')) return;
  const { code } = await launched.exited;
  t.true(code !== 0 && code !== null, `exit code ${code}`);
  t.regex(launched.stderr(), /JWT_EXPIRES_IN/, 'stderr names the variable');
});

check('recipes/config/jwt-secret-missing/refused-at-start', RECIPES, async (t, c) => {
  for (const secret of [undefined, 'short-secret']) {
    const launched = await c.launch({ env: { JWT_SECRET: secret, APP_URL: undefined }, wait: 'exit' });
    const what = secret === undefined ? 'JWT_SECRET unset' : `JWT_SECRET=${secret}`;
    if (!t.not(await launched.started, 'listening', `started listening with ${what}`)) continue;
    const { code } = await launched.exited;
    t.true(code !== 0 && code !== null, `${what}: exit code ${code}`);
    t.regex(launched.stderr(), /JWT_SECRET/, `${what}: stderr names the variable`);
  }
});

check('recipes/config/app-url-default/localhost-and-port', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c, 'defaults', DEFAULTS);
  await api.admin();
  const email = newEmail('app-url-default');
  const res = await register(api, email);
  const links = api.linksIn(res, 'verify');
  const base = `http://localhost:${new URL(api.url).port}/`;
  t.true(links.length > 0 && links.every((l) => l.startsWith(base)), `links of the registration answer with APP_URL unset, on ${base} expected: ${shown(res)}`);
});

check('recipes/config/persistence/restart-keeps-accounts', RECIPES, async (t, c) => {
  const { api, launched, secret } = await start(c);
  const admin = await api.admin();
  t.true(existsSync(join(launched.dir, 'data', 'recipes.json')), 'data/recipes.json in the working folder');
  launched.kill('SIGTERM');
  await launched.exited;
  // The same folder and secret, a new start.
  const again = await c.launch({ dir: launched.dir, env: { JWT_SECRET: secret, JWT_EXPIRES_IN: '7d', APP_URL: 'http://127.0.0.1:{port}' } });
  const http = c.http(`http://127.0.0.1:${again.port}`);
  const status = await http.request({ path: '/api/admin/setup' });
  t.is(jsonOf<Record<string, unknown>>(status)?.['adminExists'], true, `GET /api/admin/setup after the restart: ${shown(status)}`);
  const login = await http.request({ method: 'POST', path: '/api/auth/login', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: admin.email, password: admin.password }) });
  t.is(login.status, 200, `the admin's login after the restart: ${shown(login)}`);
});

check('recipes/config/uploads-directory/photos-under-uploads', RECIPES, async (t, c) => {
  const { api, launched } = await sharedInstance(c);
  const user = await api.user('uploads');
  const recipe = await api.recipe(user.token, { title: 'A photographed dish' });
  const bytes = uniquePng();
  await c.need('uploading a main photo', () => api.ok('POST /api/recipes/:id/photo', uploadPhoto(api, mainPhotoPath(recipe.id), user.token, bytes)));
  const found = await filesHoldingSoon(launched.dir, bytes);
  t.true(found.length > 0 && found.every((f) => f.startsWith(join(launched.dir, 'uploads'))), `the photo's files under ${launched.dir}: ${found.join(', ') || '(none)'}`);
});
