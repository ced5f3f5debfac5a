// The admin users endpoints over HTTP (catalog recipes/admin-users/*): admin only (401, 403, nothing changed), the
// list, role and status changes taking effect on the next request with old tokens, validation, 404, the last
// active admin kept (409), and deletion with its cascade (recipes, photo files, favorites, tokens, login).
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import test from 'ava';
import { sampleRecipe } from '../store/sample-recipe.ts';
import { ADMIN_REQUIRED } from './index.ts';
import { LAST_ADMIN, USER_NOT_FOUND } from './user-deletion.ts';
import { ADMIN, bearer, COOK, registerVerified, setupAdmin, type TestServer, withServer } from './test-server.ts';

const GUEST = { email: 'guest@example.org', password: 'guest password #2', name: 'Lindsay' };
const USER_KEYS = ['createdAt', 'email', 'emailVerified', 'id', 'isActive', 'name', 'role'];

const patchUser = (s: TestServer, token: string, id: string, json: unknown) =>
  s.api('PATCH', `/api/admin/users/${encodeURIComponent(id)}`, { json, headers: bearer(token) });
const deleteUser = (s: TestServer, token: string, id: string) =>
  s.api('DELETE', `/api/admin/users/${encodeURIComponent(id)}`, { headers: bearer(token) });
const me = (s: TestServer, token: string) => s.api('GET', '/api/auth/me', { headers: bearer(token) });
const login = (s: TestServer, account: { email: string; password: string }) =>
  s.api('POST', '/api/auth/login', { json: { email: account.email, password: account.password } });

test('admin only: 401 without a valid token, 403 for a user, and nothing changes', (t) =>
  withServer(async (s) => {
    const admin = (await setupAdmin(s)).body;
    const cook = (await registerVerified(s, COOK)).body;
    const before = JSON.stringify(s.store.data.users);
    const calls: [string, string, unknown][] = [
      ['GET', '/api/admin/users', undefined],
      ['PATCH', `/api/admin/users/${admin.user.id}`, { role: 'user' }],
      ['PATCH', `/api/admin/users/${cook.user.id}`, { role: 'admin' }],
      ['DELETE', `/api/admin/users/${admin.user.id}`, undefined],
    ];
    for (const [method, path, json] of calls) {
      const anonymous = await s.api(method, path, { json });
      t.is(anonymous.status, 401, `${method} ${path}`);
      t.is(anonymous.headers.get('www-authenticate'), 'Bearer');
      t.is((await s.api(method, path, { json, headers: bearer('not.a.jwt') })).status, 401);
      const refused = await s.api(method, path, { json, headers: bearer(cook.token) });
      t.is(refused.status, 403, `${method} ${path}`);
      t.deepEqual(refused.body, { error: ADMIN_REQUIRED });
    }
    t.is(JSON.stringify(s.store.data.users), before);
  }));

test('the list: every user, oldest first, without password hashes', (t) =>
  withServer(async (s) => {
    const admin = (await setupAdmin(s)).body;
    const cook = (await registerVerified(s, COOK)).body;
    const guest = (await s.api('POST', '/api/auth/register', { json: GUEST })).body; // not verified
    const list = await s.api('GET', '/api/admin/users', { headers: bearer(admin.token) });
    t.is(list.status, 200);
    t.deepEqual(
      list.body.map((u: { id: string }) => u.id),
      [admin.user.id, cook.user.id, guest.user.id],
    );
    for (const user of list.body) t.deepEqual(Object.keys(user).sort(), USER_KEYS);
    t.deepEqual(list.body[1], { ...cook.user, emailVerified: true });
    t.false(list.body[2].emailVerified);
    t.false(JSON.stringify(list.body).includes('argon2'));
  }));

test('role and status changes hold from the next request, with tokens issued before them', (t) =>
  withServer(async (s) => {
    const admin = (await setupAdmin(s)).body;
    const cook = (await registerVerified(s, COOK)).body;
    const id = cook.user.id;

    const promoted = await patchUser(s, admin.token, id, { role: 'admin' });
    t.is(promoted.status, 200);
    t.deepEqual(promoted.body, { ...cook.user, emailVerified: true, role: 'admin' });
    t.is((await s.api('GET', '/api/admin/users', { headers: bearer(cook.token) })).status, 200, 'old token, new role');
    t.is((await patchUser(s, admin.token, id, { role: 'user' })).body.role, 'user');
    t.is((await s.api('GET', '/api/admin/users', { headers: bearer(cook.token) })).status, 403);

    const disabled = await patchUser(s, admin.token, id, { isActive: false });
    t.is(disabled.status, 200);
    t.false(disabled.body.isActive);
    t.is((await me(s, cook.token)).status, 401, 'a disabled user’s token is refused');
    t.deepEqual((await login(s, COOK)).body, { error: 'Account is disabled' });
    t.is((await patchUser(s, admin.token, id, { isActive: true, role: 'user' })).status, 200);
    t.is((await me(s, cook.token)).status, 200, 'reactivated: the token works again');
    t.is((await login(s, COOK)).status, 200);

    const unchanged = await patchUser(s, admin.token, id, {});
    t.is(unchanged.status, 200);
    t.is(unchanged.body.isActive, true);
    t.is(s.store.data.users[id]!.tokenVersion, 0);
  }));

const INVALID: readonly [string, unknown][] = [
  ['role', 'owner'],
  ['role', 'Admin'],
  ['role', null],
  ['isActive', 'false'],
  ['isActive', 0],
  ['email', 'new@example.org'],
  ['passwordHash', 'x'],
  ['emailVerified', true],
];

test('400 names other keys and values and changes nothing; 404 for unknown ids', (t) =>
  withServer(async (s) => {
    const admin = (await setupAdmin(s)).body;
    const cook = (await registerVerified(s, COOK)).body;
    const before = JSON.stringify(s.store.data.users);
    for (const [field, value] of INVALID) {
      const answer = await patchUser(s, admin.token, cook.user.id, { isActive: false, [field]: value });
      t.is(answer.status, 400, `${field}: ${JSON.stringify(value)}`);
      t.deepEqual(
        answer.body.details.map((d: { field: string }) => d.field),
        [field],
      );
    }
    const both = await patchUser(s, admin.token, cook.user.id, { role: 'root', isActive: 'yes' });
    t.deepEqual(both.body.details.map((d: { field: string }) => d.field).sort(), ['isActive', 'role']);
    const notObject = await s.api('PATCH', `/api/admin/users/${cook.user.id}`, { json: ['role'], headers: bearer(admin.token) });
    t.is(notObject.status, 400);
    t.is(JSON.stringify(s.store.data.users), before);

    for (const id of ['00000000-0000-4000-8000-000000000000', '__proto__', 'constructor', 'fünke #1', 'x'.repeat(300)]) {
      const patched = await patchUser(s, admin.token, id, { role: 'user' });
      t.is(patched.status, 404, id);
      t.deepEqual(patched.body, { error: USER_NOT_FOUND });
      t.is((await deleteUser(s, admin.token, id)).status, 404, id);
    }
    t.is(JSON.stringify(s.store.data.users), before);
  }));

test('409 for any change that leaves no active admin; allowed while another admin remains', (t) =>
  withServer(async (s) => {
    const admin = (await setupAdmin(s)).body;
    const cook = (await registerVerified(s, COOK)).body;
    const before = JSON.stringify(s.store.data.users);
    for (const change of [{ role: 'user' }, { isActive: false }, { role: 'user', isActive: false }]) {
      const answer = await patchUser(s, admin.token, admin.user.id, change);
      t.is(answer.status, 409, JSON.stringify(change));
      t.deepEqual(answer.body, { error: LAST_ADMIN });
    }
    t.is((await deleteUser(s, admin.token, admin.user.id)).status, 409);
    t.is(JSON.stringify(s.store.data.users), before, 'nothing changed');
    t.is((await patchUser(s, admin.token, admin.user.id, { role: 'admin', isActive: true })).status, 200, 'a change that keeps the admin');

    // A second admin: the first may step down, after which the second is the last one.
    t.is((await patchUser(s, admin.token, cook.user.id, { role: 'admin' })).status, 200);
    t.is((await patchUser(s, admin.token, admin.user.id, { role: 'user' })).status, 200);
    t.is((await patchUser(s, cook.token, cook.user.id, { isActive: false })).status, 409);
    // An inactive admin does not count: re-promoting the first, deactivating it, then the second is still last.
    t.is((await patchUser(s, cook.token, admin.user.id, { role: 'admin', isActive: false })).status, 200);
    t.is((await deleteUser(s, cook.token, cook.user.id)).status, 409);
    t.is((await patchUser(s, cook.token, admin.user.id, { isActive: true })).status, 200);
    t.is((await deleteUser(s, cook.token, cook.user.id)).status, 204, 'an admin may delete themselves while another remains');
    t.is((await me(s, cook.token)).status, 401);
  }));

test('concurrent demotions of the only two admins: exactly one succeeds', (t) =>
  withServer(async (s) => {
    const admin = (await setupAdmin(s)).body;
    const cook = (await registerVerified(s, COOK)).body;
    await patchUser(s, admin.token, cook.user.id, { role: 'admin' });
    const answers = await Promise.all([
      patchUser(s, admin.token, cook.user.id, { role: 'user' }),
      patchUser(s, cook.token, admin.user.id, { role: 'user' }),
    ]);
    t.deepEqual(answers.map((a) => a.status).sort(), [200, 409]);
    t.is(Object.values(s.store.data.users).filter((u) => u.role === 'admin').length, 1);
  }));

/** Writes an uploaded file and returns its name. */
async function upload(s: TestServer, name: string): Promise<string> {
  await mkdir(s.server.context.uploadsDir, { recursive: true });
  await writeFile(join(s.server.context.uploadsDir, name), 'photo bytes');
  return name;
}

test('deleting a user removes their recipes, photo files, favorites and tokens; they can no longer log in', (t) =>
  withServer(async (s) => {
    const admin = (await setupAdmin(s)).body;
    const cook = (await registerVerified(s, COOK)).body;
    const guest = (await registerVerified(s, GUEST)).body;
    const cookId = cook.user.id;
    // Outside the uploads folder, named by a recipe: never removed.
    const outside = join(dirname(s.server.context.uploadsDir), 'outside.jpg');
    await writeFile(outside, 'not an upload');
    const cookPublic = { ...sampleRecipe('r-public', cookId), isPublic: true, photo: await upload(s, 'main 1.jpg') };
    cookPublic.steps[1]!.photo = await upload(s, 'step #2.png');
    const cookPrivate = { ...sampleRecipe('r-private', cookId), photo: '../outside.jpg' };
    cookPrivate.steps[0]!.photo = 'already-missing.webp';
    const adminRecipe = { ...sampleRecipe('r-admin', admin.user.id), isPublic: true, photo: await upload(s, 'admin.jpg') };
    const at = new Date().toISOString();
    await s.store.update((draft) => {
      for (const recipe of [cookPublic, cookPrivate, adminRecipe]) draft.recipes[recipe.id] = recipe;
      draft.saved[cookId] = { 'r-admin': at, 'r-public': at };
      draft.saved[admin.user.id] = { 'r-public': at, 'r-admin': at };
      draft.saved[guest.user.id] = { 'r-public': at };
    });
    t.is((await s.api('POST', '/api/auth/forgot-password', { json: { email: COOK.email } })).status, 200);
    t.true(Object.values(s.store.data.tokens).some((token) => token.userId === cookId));

    const deleted = await deleteUser(s, admin.token, cookId);
    t.is(deleted.status, 204);
    t.is(deleted.body, '');

    const { data } = s.store;
    t.false(cookId in data.users);
    t.deepEqual(Object.keys(data.recipes), ['r-admin']);
    t.deepEqual(data.saved, { [admin.user.id]: { 'r-admin': at }, [guest.user.id]: {} });
    t.false(Object.values(data.tokens).some((token) => token.userId === cookId));
    t.deepEqual(await readdir(s.server.context.uploadsDir), ['admin.jpg']);
    t.deepEqual(await readdir(dirname(outside)).then((names) => names.includes('outside.jpg')), true);
    t.false(s.logs.some((line) => line.includes('could not remove')), 'a file already missing is no fault');

    t.is((await me(s, cook.token)).status, 401, 'old tokens answer 401');
    t.deepEqual((await login(s, COOK)).status, 401, 'the account no longer logs in');
    t.is((await deleteUser(s, admin.token, cookId)).status, 404, 'a second delete');
    t.deepEqual(
      (await s.api('GET', '/api/admin/users', { headers: bearer(admin.token) })).body.map((u: { email: string }) => u.email),
      [ADMIN.email.toLowerCase(), GUEST.email],
    );
    t.is((await me(s, guest.token)).status, 200, 'other users keep their sessions');
  }));
