// Application settings and mail (document 002 part B: the settings keys, /admin/settings, "when SMTP settings
// are empty, verification and reset links are returned directly in the API response"): the six keys, reading
// and admin-only updating, links in answers without SMTP, real mails through the suite's SMTP server with it;
// and the reference's choices (access, merge and validation, defaults, link fields, a failing mail server).
import type { ExecutionContext } from 'ava';
import { check, freePorts, releasePorts } from '../harness/index.ts';
import {
  isObject,
  jsonOf,
  linkOf,
  loggedIn,
  mailThroughMailbox,
  patchSettings,
  readOr,
  refused,
  register,
  registered,
  SMTP_FROM,
  sentFrom,
  settingsOf,
  smtpEmpty,
  userByEmail,
  usersOf,
} from './accounts.ts';
import { is2xx, newEmail, PASSWORD, type RecipesApi, shown, verifiedBy } from './api.ts';
import type { Mailbox } from './mailbox.ts';
import type { LinkKind } from './shapes.ts';
import { RECIPES, sharedInstance, start } from './target.ts';

/** The keys GET shows (whether smtpPass, a secret, is shown is not stated). */
const SHOWN_KEYS = ['allowRegistration', 'smtpHost', 'smtpPort', 'smtpUser', 'smtpFrom'] as const;

/** The link of `kind` (holding its token parameter) of the mail to `email`, judged: a mail came, from smtpFrom,
 * with such a link. */
async function mailedLink(t: ExecutionContext, api: RecipesApi, box: Mailbox, email: string, kind: LinkKind): Promise<string | undefined> {
  const mail = await box.mailTo(email);
  if (!t.truthy(mail, `no mail to ${email} at the SMTP server 127.0.0.1:${box.port} within 10 s`) || !mail) return undefined;
  t.true(sentFrom(mail, SMTP_FROM), `the mail's sender (envelope ${mail.from}, From ${mail.fromHeader}) is not smtpFrom ${SMTP_FROM}`);
  const links = mail.links.filter((l) => api.isLink(l, kind));
  t.true(links.length > 0, `no link with a ${api.shapes.linkToken[kind]} parameter in the mail: ${mail.text.slice(0, 500)}`);
  return links[0];
}

check('recipes/settings/keys/six-keys-written-and-read', RECIPES, async (t, c) => {
  const { api } = await start(c);
  const admin = await api.admin();
  const values = { allowRegistration: false, smtpHost: '127.0.0.1', smtpPort: 2525, smtpUser: 'conformance-user', smtpPass: 'conformance-pass', smtpFrom: SMTP_FROM };
  const res = await api.call('PATCH', '/api/admin/settings', { token: admin.token, json: values });
  if (!t.true(is2xx(res), `PATCH /api/admin/settings with the six keys: ${shown(res)}`)) return;
  const settings = await settingsOf(api, admin.token);
  for (const key of SHOWN_KEYS) {
    t.is(String(settings[key]), String(values[key]), `${key} in GET /api/admin/settings after the PATCH: ${JSON.stringify(settings)}`);
  }
});

check('recipes/settings/get-endpoint/returns-current-settings', RECIPES, async (t, c) => {
  const { api } = await start(c);
  const admin = await api.admin();
  const first = await api.call('GET', '/api/admin/settings', { token: admin.token });
  t.true(is2xx(first), `GET /api/admin/settings as the admin: ${shown(first)}`);
  await patchSettings(api, admin.token, { smtpFrom: SMTP_FROM, allowRegistration: false });
  const res = await api.call('GET', '/api/admin/settings', { token: admin.token });
  if (!t.true(is2xx(res), `GET /api/admin/settings as the admin: ${shown(res)}`)) return;
  const settings = readOr(api, 'settings', res);
  t.true(isObject(settings) && settings['smtpFrom'] === SMTP_FROM && settings['allowRegistration'] === false, `the settings as changed (smtpFrom ${SMTP_FROM}, allowRegistration false): ${shown(res)}`);
});

check('recipes/settings/patch-endpoint/admin-changes-others-refused', RECIPES, async (t, c) => {
  const { api } = await start(c);
  const admin = await api.admin();
  const user = await api.user('settings');
  const res = await api.call('PATCH', '/api/admin/settings', { token: admin.token, json: { allowRegistration: false } });
  t.true(is2xx(res), `PATCH /api/admin/settings {allowRegistration: false} as the admin: ${shown(res)}`);
  t.is((await settingsOf(api, admin.token))['allowRegistration'], false, 'allowRegistration after the admin PATCH');
  for (const [who, token] of [
    ['a user', user.token],
    ['no token', undefined],
  ] as const) {
    const attempt = await api.call('PATCH', '/api/admin/settings', { token, json: { allowRegistration: true, smtpFrom: 'intruder@example.test' } });
    t.true(refused(attempt), `PATCH /api/admin/settings with ${who}: ${shown(attempt)}`);
  }
  const after = await settingsOf(api, admin.token);
  t.true(after['allowRegistration'] === false && after['smtpFrom'] !== 'intruder@example.test', `the settings changed by refused calls: ${JSON.stringify(after)}`);
});

check('recipes/email/smtp-empty-returns-links/verification-link-in-answer', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  await smtpEmpty(api, (await api.admin()).token);
  const email = newEmail('link-answer');
  const res = await register(api, email);
  if (!t.true(is2xx(res), `POST /api/auth/register: ${shown(res)}`)) return;
  const links = api.linksIn(res, 'verify');
  if (!t.true(links.length > 0, `no verification link (with a ${api.shapes.linkToken.verify} parameter) in the registration answer: ${shown(res)}`)) return;
  const verified = await api.verify(links[0]!);
  t.true(verifiedBy(verified), `GET /api/auth/verify-email with the returned link's token: ${shown(verified)}`);
});

check('recipes/email/smtp-empty-returns-links/reset-link-in-answer', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  await smtpEmpty(api, (await api.admin()).token);
  const user = await api.user('reset-answer');
  const res = await api.call('POST', '/api/auth/forgot-password', { json: { email: user.email } });
  if (!t.true(is2xx(res), `POST /api/auth/forgot-password: ${shown(res)}`)) return;
  const links = api.linksIn(res, 'reset');
  if (!t.true(links.length > 0, `no reset link (with a ${api.shapes.linkToken.reset} parameter) in the forgot-password answer: ${shown(res)}`)) return;
  const fresh = 'Conformance-linked-8642';
  const reset = await api.call('POST', '/api/auth/reset-password', { json: { token: api.tokenOfLink(links[0]!, 'reset'), password: fresh } });
  t.true(is2xx(reset), `POST /api/auth/reset-password with the returned link's token: ${shown(reset)}`);
  const login = await api.login(user.email, fresh);
  t.true(is2xx(login), `login with the new password: ${shown(login)}`);
});

check('recipes/email/smtp-configured-sends-mail/verification-mail-from-smtp-from', RECIPES, async (t, c) => {
  const { api } = await start(c);
  const admin = await api.admin();
  const box = await mailThroughMailbox(c, api, admin.token);
  const email = newEmail('mailed');
  await c.need('POST /api/auth/register with SMTP configured', () => api.ok('POST /api/auth/register', register(api, email)));
  const link = await mailedLink(t, api, box, email, 'verify');
  if (link === undefined) return;
  const verified = await api.verify(link);
  t.true(verifiedBy(verified), `GET /api/auth/verify-email with the mailed link's token: ${shown(verified)}`);
  const login = await api.login(email, PASSWORD);
  t.true(is2xx(login), `login after following the mailed link: ${shown(login)}`);
});

check('recipes/email/smtp-configured-sends-mail/reset-mail-from-smtp-from', RECIPES, async (t, c) => {
  const { api } = await start(c);
  const admin = await api.admin();
  const user = await api.user('reset-mailed');
  const box = await mailThroughMailbox(c, api, admin.token);
  await c.need('POST /api/auth/forgot-password with SMTP configured', () => api.ok('POST /api/auth/forgot-password', api.call('POST', '/api/auth/forgot-password', { json: { email: user.email } })));
  const link = await mailedLink(t, api, box, user.email, 'reset');
  if (link === undefined) return;
  const fresh = 'Conformance-mailed-9753';
  const reset = await api.call('POST', '/api/auth/reset-password', { json: { token: api.tokenOfLink(link, 'reset'), password: fresh } });
  t.true(is2xx(reset), `POST /api/auth/reset-password with the mailed link's token: ${shown(reset)}`);
  const login = await api.login(user.email, fresh);
  t.true(is2xx(login), `login with the new password: ${shown(login)}`);
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('recipes/settings/get-access/admin-only-password-hidden', RECIPES, async (t, c) => {
  const { api } = await start(c);
  const admin = await api.admin();
  const user = await api.user('settings-reader');
  t.is((await api.call('GET', '/api/admin/settings')).status, 401, 'GET /api/admin/settings without a token');
  t.is((await api.call('GET', '/api/admin/settings', { token: user.token })).status, 403, 'GET /api/admin/settings as a user');
  await patchSettings(api, admin.token, { smtpPass: 'Secret-smtp-pass-4711' });
  const res = await api.call('GET', '/api/admin/settings', { token: admin.token });
  t.is(res.status, 200, shown(res));
  t.false(res.text.includes('Secret-smtp-pass-4711'), `the SMTP password shown: ${shown(res)}`);
  const body = jsonOf<Record<string, unknown>>(res) ?? {};
  t.false('smtpPass' in body, 'a smtpPass key');
  t.is(body['smtpPassSet'], true, 'smtpPassSet');
});

check('recipes/settings/patch-semantics/partial-typed-unknown-400', RECIPES, async (t, c) => {
  const { api } = await start(c);
  const admin = await api.admin();
  const call = (json: unknown) => api.call('PATCH', '/api/admin/settings', { token: admin.token, json });
  const first = await call({ smtpUser: 'first-user' });
  t.is(first.status, 200, shown(first));
  const second = await call({ smtpFrom: SMTP_FROM });
  t.is(second.status, 200, shown(second));
  const after = jsonOf<Record<string, unknown>>(second) ?? {};
  t.is(after['smtpUser'], 'first-user', `smtpUser after a PATCH of smtpFrom only: ${shown(second)}`);
  t.deepEqual(after, jsonOf(await api.call('GET', '/api/admin/settings', { token: admin.token })), 'the PATCH answer is the settings as GET shows them');
  for (const bad of [{ unknownKey: 1 }, { allowRegistration: 'yes' }, { smtpPort: 70000 }, { smtpPort: 25.5 }, { smtpHost: 7 }]) {
    const res = await call(bad);
    t.is(res.status, 400, `PATCH ${JSON.stringify(bad)}: ${shown(res)}`);
  }
  const cleared = await call({ smtpUser: '' });
  t.is(jsonOf<Record<string, unknown>>(cleared)?.['smtpUser'], '', 'an empty string clears');
  t.deepEqual(jsonOf<Record<string, unknown>>(await call({ smtpPort: null }))?.['smtpPort'], null, 'smtpPort null');
});

check('recipes/settings/defaults/fresh-values', RECIPES, async (t, c) => {
  const { api } = await start(c);
  // The settings as the install made them: registration is not opened (api.registrationOpen).
  const admin = await api.setupAdmin(newEmail('admin'), false);
  const res = await api.call('GET', '/api/admin/settings', { token: admin.token });
  t.deepEqual(jsonOf(res), { allowRegistration: true, smtpHost: '', smtpPort: null, smtpUser: '', smtpPassSet: false, smtpFrom: '' }, shown(res));
});

check('recipes/email/smtp-empty-definition/host-empty-means-unconfigured', RECIPES, async (t, c) => {
  const { api } = await start(c);
  const admin = await api.admin();
  await patchSettings(api, admin.token, { smtpPort: 2525, smtpUser: 'someone', smtpFrom: SMTP_FROM });
  const res = await register(api, newEmail('host-empty'));
  t.is(res.status, 201, shown(res));
  t.true(api.linksIn(res, 'verify').length > 0, `no link in the answer with smtpHost empty and the other SMTP keys set: ${shown(res)}`);
});

check('recipes/email/link-fields/verification-url-and-reset-url', RECIPES, async (t, c) => {
  const { api } = await sharedInstance(c);
  await api.admin();
  const { email, answer } = await registered(api, 'link-fields');
  const body = jsonOf<Record<string, unknown>>(answer) ?? {};
  t.regex(String(body['verificationUrl']), new RegExp(`^${api.url.replace(/[.:/]/g, '\\$&')}/api/auth/verify-email\\?token=[^&]+$`), `verificationUrl: ${shown(answer)}`);
  await c.need('verifying', () => api.verified(linkOf(api, answer, 'verify', 'the registration answer')));
  await loggedIn(api, email);
  const forgot = await api.call('POST', '/api/auth/forgot-password', { json: { email } });
  const resetUrl = jsonOf<Record<string, unknown>>(forgot)?.['resetUrl'];
  t.regex(String(resetUrl), new RegExp(`^${api.url.replace(/[.:/]/g, '\\$&')}/reset-password\\?token=[^&]+$`), `resetUrl: ${shown(forgot)}`);
});

check('recipes/email/send-failure/502-account-not-kept', RECIPES, async (t, c) => {
  const { api } = await start(c);
  const admin = await api.admin();
  // A port of the suite's where nothing listens: the connection is refused.
  const [closed] = await freePorts(1);
  c.defer(() => releasePorts([closed!]));
  await patchSettings(api, admin.token, { smtpHost: '127.0.0.1', smtpPort: closed, smtpFrom: SMTP_FROM });
  const email = newEmail('mail-fails');
  const res = await register(api, email);
  t.is(res.status, 502, shown(res));
  t.is(userByEmail(await usersOf(api, admin.token), email), undefined, 'the account is kept after the failed mail');
});
