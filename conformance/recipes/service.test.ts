// The service as a whole: GET /health, the /api prefix without a version segment, PORT; and the reference's
// choices for what the document leaves open (the health body, JSON answers, versioned-looking paths).
import { check } from '../harness/index.ts';
import { isObject, jsonOf } from './accounts.ts';
import { healthAnswer, is2xx, shown } from './api.ts';
import { listensOn } from './ports.ts';
import { RECIPES, sharedInstance, start } from './target.ts';

check('recipes/health/endpoint/get-health-succeeds', RECIPES, async (t, c) => {
  const { http } = await sharedInstance(c);
  const res = await healthAnswer(http);
  t.true(is2xx(res), `GET /health (or /api/health): ${shown(res)}`);
});

check('recipes/api/prefix/endpoints-under-api', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  const [admin, user] = await Promise.all([api.admin(), api.user()]);
  // Endpoints of the table, each reached under /api with what it needs (a token where it is marked bearer
  // or admin): an answer of success says the route is there.
  const login = await api.login(user.email, user.password);
  t.true(is2xx(login), `POST /api/auth/login: ${shown(login)}`);
  for (const [path, token] of [
    ['/api/admin/setup', undefined],
    ['/api/auth/me', user.token],
    ['/api/recipes', user.token],
    ['/api/recipes/public', undefined],
    ['/api/recipes/tags', undefined],
    ['/api/categories', user.token],
    ['/api/admin/users', admin.token],
    ['/api/admin/invites', admin.token],
    ['/api/admin/settings', admin.token],
  ] as const) {
    const res = await api.call('GET', path, { token });
    t.true(is2xx(res), `GET ${path}${token ? ' (with a token)' : ''}: ${shown(res)}`);
  }
});

check('recipes/versioning/fixed-prefix-no-version/api-recipes-without-version', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  const user = await api.user();
  const res = await api.call('GET', '/api/recipes', { token: user.token });
  t.true(is2xx(res), `GET /api/recipes (no version segment): ${shown(res)}`);
  // "there is no /api/v1 form"
  const v1 = await api.call('GET', '/api/v1/recipes', { token: user.token });
  t.false(is2xx(v1), `GET /api/v1/recipes answered like a route: ${shown(v1)}`);
});

check('recipes/config/port-env/listens-on-port', RECIPES, async (t, c) => {
  // Started without waiting for PORT: a recipe manager listening elsewhere is this case's failure.
  const { http, launched } = await start(c, { listen: [] });
  c.note(`# PORT=${launched.port}`);
  if (!t.is(await listensOn(launched, launched.port), undefined, `PORT=${launched.port}`)) return;
  const res = await healthAnswer(http);
  t.true(is2xx(res), `GET /health (or /api/health) on PORT ${launched.port}: ${shown(res)}`);
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('recipes/health/path-and-body/status-ok-and-uptime', RECIPES, async (t, c) => {
  const { http } = await sharedInstance(c);
  for (const path of ['/health', '/api/health']) {
    const res = await http.request({ path });
    if (!t.is(res.status, 200, `GET ${path} without a token: ${shown(res)}`)) continue;
    const body = jsonOf(res);
    t.true(isObject(body) && body['status'] === 'ok' && typeof body['uptime'] === 'number', `GET ${path}: {"status": "ok", "uptime": <number>} expected: ${shown(res)}`);
  }
});

check('recipes/api/json-representation/json-answers-ids-timestamps-statuses', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  const admin = await api.admin();
  const status = await api.call('GET', '/api/admin/setup');
  t.regex(String(status.headers['content-type']), /^application\/json/, `GET /api/admin/setup content-type: ${shown(status)}`);
  const email = `json-${Date.now()}@example.test`;
  const created = await api.call('POST', '/api/auth/register', { json: { email, password: 'Conformance-pass-7391', name: 'Json' } });
  t.is(created.status, 201, `POST /api/auth/register: ${shown(created)}`);
  t.regex(String(created.headers['content-type']), /^application\/json/);
  const users = await api.call('GET', '/api/admin/users', { token: admin.token });
  const list = jsonOf(users);
  const entry = Array.isArray(list) ? list.find((u) => isObject(u) && u['email'] === email) : undefined;
  if (!t.true(isObject(entry), `GET /api/admin/users lists ${email}: ${shown(users)}`)) return;
  t.regex(String(entry['id']), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'user id: a UUID v4');
  t.true(typeof entry['createdAt'] === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(entry['createdAt']), `createdAt: ISO 8601 UTC, got ${entry['createdAt']}`);
});

check('recipes/versioning/version-policy/versioned-paths-404', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  const user = await api.user();
  for (const path of ['/api/v1/recipes', '/api/v2/auth/me']) {
    const res = await api.call('GET', path, { token: user.token });
    t.is(res.status, 404, `GET ${path}: ${shown(res)}`);
  }
});
