// The admin settings endpoints over HTTP: who may use them (401, 403), the round trip (partial changes,
// smtpPass never shown), validation naming the keys, and allowRegistration taking effect on registration
// (catalog recipes/settings/*, recipes/admin-users/admin-refusal-status, recipes/auth/register-gate).
import test from 'ava';
import { ADMIN_REQUIRED } from './index.ts';
import { bearer, COOK, registerVerified, setupAdmin, type TestServer, withServer } from './test-server.ts';

const DEFAULTS = { allowRegistration: true, smtpHost: '', smtpPort: null, smtpUser: '', smtpPassSet: false, smtpFrom: '' };
const patch = (s: TestServer, token: string, json: unknown) => s.api('PATCH', '/api/admin/settings', { json, headers: bearer(token) });

test('settings are for admins: 401 without a valid token, 403 for a user, and nothing changes', (t) =>
  withServer(async (s) => {
    await setupAdmin(s);
    const cook = await registerVerified(s, COOK);
    for (const method of ['GET', 'PATCH']) {
      const json = method === 'GET' ? undefined : { allowRegistration: false };
      const anonymous = await s.api(method, '/api/admin/settings', { json });
      t.is(anonymous.status, 401, method);
      t.is(anonymous.headers.get('www-authenticate'), 'Bearer');
      const refused = await s.api(method, '/api/admin/settings', { json, headers: bearer(cook.body.token) });
      t.is(refused.status, 403, method);
      t.deepEqual(refused.body, { error: ADMIN_REQUIRED });
    }
    t.true(s.store.data.settings.allowRegistration);
  }));

test('round trip: defaults, a partial change, smtpPass only as smtpPassSet, cleared by an empty string', (t) =>
  withServer(async (s) => {
    const { token } = (await setupAdmin(s)).body;
    const read = await s.api('GET', '/api/admin/settings', { headers: bearer(token) });
    t.is(read.status, 200);
    t.deepEqual(read.body, DEFAULTS);

    const smtp = { smtpHost: 'mail.example.org', smtpPort: 465, smtpUser: 'fünke', smtpPass: 's3cret #1', smtpFrom: 'Recipes <recipes@example.org>' };
    const changed = await patch(s, token, smtp);
    const { smtpPass: _, ...shown } = smtp;
    t.deepEqual(changed.body, { ...DEFAULTS, ...shown, smtpPassSet: true });
    t.false(JSON.stringify(changed.body).includes('s3cret'));
    t.deepEqual((await s.api('GET', '/api/admin/settings', { headers: bearer(token) })).body, changed.body);
    t.is(s.store.data.settings.smtpPass, 's3cret #1');

    const partial = await patch(s, token, { smtpPort: null, allowRegistration: false });
    t.deepEqual(partial.body, { ...changed.body, smtpPort: null, allowRegistration: false }, 'omitted keys, smtpPass among them, unchanged');
    const cleared = await patch(s, token, { smtpPass: '', smtpHost: '' });
    t.deepEqual(cleared.body, { ...partial.body, smtpHost: '', smtpPassSet: false });
    t.deepEqual((await patch(s, token, {})).body, cleared.body);
  }));

const INVALID: readonly [string, unknown][] = [
  ['allowRegistration', 'yes'],
  ['allowRegistration', null],
  ['smtpPort', 0],
  ['smtpPort', 65_536],
  ['smtpPort', 25.5],
  ['smtpPort', '25'],
  ['smtpHost', null],
  ['smtpUser', 42],
  ['smtpPass', false],
  ['smtpFrom', 'a'.repeat(1001)],
  ['smtpFrom', 'evil@example.org\r\nBcc: x@example.org'],
  ['smtpSecure', true],
];

test('invalid changes answer 400 naming the key, and change nothing', (t) =>
  withServer(async (s) => {
    const { token } = (await setupAdmin(s)).body;
    for (const [field, value] of INVALID) {
      const answer = await patch(s, token, { smtpHost: 'mail.example.org', [field]: value });
      t.is(answer.status, 400, `${field}: ${JSON.stringify(value)}`);
      t.deepEqual(
        answer.body.details.map((d: { field: string }) => d.field),
        [field],
      );
    }
    const several = await patch(s, token, { smtpPort: -1, allowRegistration: 'no' });
    t.deepEqual(several.body.details.map((d: { field: string }) => d.field).sort(), ['allowRegistration', 'smtpPort']);
    t.deepEqual((await s.api('GET', '/api/admin/settings', { headers: bearer(token) })).body, DEFAULTS);
  }));

test('allowRegistration set through the endpoint closes and reopens registration', (t) =>
  withServer(async (s) => {
    const { token } = (await setupAdmin(s)).body;
    t.is((await patch(s, token, { allowRegistration: false })).status, 200);
    const closed = await s.api('POST', '/api/auth/register', { json: COOK });
    t.is(closed.status, 403);
    t.is(closed.body.error, 'Registration is closed');
    t.is((await patch(s, token, { allowRegistration: true })).status, 200);
    t.is((await s.api('POST', '/api/auth/register', { json: COOK })).status, 201);
  }));
