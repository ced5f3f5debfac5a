// First run (document 002 part B, "States and transitions", /admin/setup): on an empty store the first admin
// comes from the setup endpoint, which says whether an admin exists; afterwards accounts come from
// registration. Each case starts its own recipe manager (a first run needs an empty store).
import { check } from '../harness/index.ts';
import type { HttpResponse } from '../harness/http-client.ts';
import { isObject, jsonOf, register, userByEmail, usersOf } from './accounts.ts';
import { is2xx, newEmail, PASSWORD, shown } from './api.ts';
import { RECIPES, start } from './target.ts';

const setupBody = (email: string) => ({ email, password: PASSWORD, name: 'Conformance Admin' });

/** The leaves of a JSON answer by path (the whole text when it is not JSON). */
function leaves(res: HttpResponse): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (value: unknown, at: string): void => {
    if (Array.isArray(value) || isObject(value)) for (const [k, v] of Object.entries(value)) walk(v, `${at}/${k}`);
    else found.set(at, JSON.stringify(value));
  };
  const body = jsonOf(res);
  if (body === undefined) found.set('', res.text);
  else walk(body, '');
  return found;
}

/** The parts of the answers that hold in each state and differ between them: what says which state it is (a
 * request id or a time in every answer is left out, as it changes within a state too). */
function stateSignal(before: HttpResponse[], after: HttpResponse[]): string[] {
  const [b, a] = [before.map(leaves), after.map(leaves)];
  const steady = (ls: Map<string, string>[], path: string) => ls.every((l) => l.get(path) === ls[0]!.get(path));
  const paths = new Set([...b, ...a].flatMap((l) => [...l.keys()]));
  return [...paths].filter((p) => steady(b, p) && steady(a, p) && b[0]!.get(p) !== a[0]!.get(p));
}

check('recipes/setup/status-endpoint/reports-whether-admin-exists', RECIPES, async (t, c) => {
  const { api } = await start(c);
  const before = [await api.call('GET', '/api/admin/setup'), await api.call('GET', '/api/admin/setup')];
  for (const res of before) if (!t.true(is2xx(res), `GET /api/admin/setup without a token, no admin yet: ${shown(res)}`)) return;
  await api.admin();
  const after = [await api.call('GET', '/api/admin/setup'), await api.call('GET', '/api/admin/setup')];
  for (const res of after) if (!t.true(is2xx(res), `GET /api/admin/setup without a token, an admin made: ${shown(res)}`)) return;
  t.true(stateSignal(before, after).length > 0, `GET /api/admin/setup says nothing different once the first admin exists: ${shown(before[0]!)} | ${shown(after[0]!)}`);
});

check('recipes/setup/create-first-admin/fresh-install-creates-admin', RECIPES, async (t, c) => {
  const { api } = await start(c);
  const email = newEmail('first-admin');
  const res = await api.call('POST', '/api/admin/setup', { json: setupBody(email) });
  if (!t.true(is2xx(res), `POST /api/admin/setup without a token on a fresh install: ${shown(res)}`)) return;
  // Whether the setup admin verifies an email is not shown: a link in the answer is followed first.
  for (const link of api.linksIn(res, 'verify')) await c.need(`verifying the admin through ${link}`, () => api.verified(link));
  const login = await api.login(email, PASSWORD);
  if (!t.true(is2xx(login), `POST /api/auth/login as the setup admin: ${shown(login)}`)) return;
  const token = await c.need('the token of the admin login', () => api.tokenOf(login));
  const users = await api.call('GET', '/api/admin/users', { token });
  t.true(is2xx(users), `GET /api/admin/users (an admin route) as the setup admin: ${shown(users)}`);
});

check('recipes/setup/first-run-flow/then-registration-not-setup', RECIPES, async (t, c) => {
  const { api } = await start(c);
  const admin = await api.admin();
  const second = newEmail('second-admin');
  const again = await api.call('POST', '/api/admin/setup', { json: setupBody(second) });
  const registeredEmail = newEmail('after-setup');
  const res = await register(api, registeredEmail);
  t.true(is2xx(res), `POST /api/auth/register once the admin exists: ${shown(res)}`);
  const users = await usersOf(api, admin.token);
  t.is(userByEmail(users, second), undefined, `POST /api/admin/setup once an admin exists made an account (${shown(again)})`);
  t.truthy(userByEmail(users, registeredEmail), 'the registered account is not in GET /api/admin/users');
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('recipes/setup/status-shape/admin-exists-boolean', RECIPES, async (t, c) => {
  const { api } = await start(c);
  t.deepEqual(jsonOf(await api.call('GET', '/api/admin/setup')), { adminExists: false });
  await api.admin();
  t.deepEqual(jsonOf(await api.call('GET', '/api/admin/setup')), { adminExists: true });
});

check('recipes/setup/after-admin-exists/409', RECIPES, async (t, c) => {
  const { api } = await start(c);
  await api.admin();
  const res = await api.call('POST', '/api/admin/setup', { json: setupBody(newEmail('late-admin')) });
  t.is(res.status, 409, shown(res));
});

check('recipes/setup/payload/201-token-verified-admin', RECIPES, async (t, c) => {
  const { api } = await start(c);
  const email = newEmail('payload-admin');
  const res = await api.call('POST', '/api/admin/setup', { json: setupBody(email) });
  t.is(res.status, 201, shown(res));
  const body = jsonOf<Record<string, unknown>>(res) ?? {};
  const user = body['user'];
  t.true(typeof body['token'] === 'string', `a token: ${shown(res)}`);
  t.true(isObject(user) && user['role'] === 'admin' && user['isActive'] === true && user['emailVerified'] === true, `the admin: ${shown(res)}`);
  const login = await api.login(email, PASSWORD);
  t.is(login.status, 200, `login at once, no verification: ${shown(login)}`);
});

check('recipes/setup/register-before-setup/403', RECIPES, async (t, c) => {
  const { api } = await start(c);
  const res = await register(api, newEmail('too-early'));
  t.is(res.status, 403, shown(res));
});
