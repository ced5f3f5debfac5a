import { check } from '../harness/index.ts';
import { basic } from './fixtures.ts';
import { refused, runToExit, startSite } from './site.ts';

const launch = { needs: ['launch'] };
const USERS = { ann: 'open sesame', 'bob.b': 'p@ss:word' };
const FILES = { 'p/a.txt': 'A' };

check('static/basic-auth/missing-401/no-authorization-header', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'p', basicAuth: { users: USERS } }, files: FILES });
  t.is((await site.http.get('/a.txt')).status, 401);
});

check('static/basic-auth/wrong-401/unknown-user-or-wrong-password', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'p', basicAuth: { users: USERS } }, files: FILES });
  t.is((await site.http.get('/a.txt', { authorization: basic('ann', 'wrong') })).status, 401);
  t.is((await site.http.get('/a.txt', { authorization: basic('eve', 'open sesame') })).status, 401);
  t.is((await site.http.get('/a.txt', { authorization: 'Basic !!!not-base64' })).status, 401);
  t.is((await site.http.get('/a.txt', { authorization: 'Bearer abc' })).status, 401);
});

check('static/basic-auth/valid-passes/file-served', launch, async (t, c) => {
  const site = await startSite(c, { config: { folders: 'p', basicAuth: { users: USERS } }, files: FILES });
  const res = await site.http.get('/a.txt', { authorization: basic('ann', 'open sesame') });
  t.is(res.status, 200);
  t.is(res.text, 'A');
});

check('static/basic-auth/plain-text-compare/colon-and-hash-like-values', launch, async (t, c) => {
  const hashLike = '$2b$10$abcdefghijklmnopqrstuu8Yb1oQ0nP4bB0wH8mUq1mYqg0pQ9y6';
  const site = await startSite(c, { config: { folders: 'p', basicAuth: { users: { ...USERS, carl: hashLike } } }, files: FILES });
  t.is((await site.http.get('/a.txt', { authorization: basic('bob.b', 'p@ss:word') })).status, 200);
  t.is((await site.http.get('/a.txt', { authorization: basic('carl', hashLike) })).status, 200);
});

check('static/basic-auth/users-required/startup-error', launch, async (t, c) => {
  const exit = await runToExit(c, { config: { basicAuth: { challenge: true } } });
  refused(t, exit, 'basicAuth without users');
});

check('static/basic-auth/challenge-default-false/no-www-authenticate', launch, async (t, c) => {
  const site = await startSite(c, { config: { basicAuth: { users: USERS } } });
  const res = await site.http.get('/x');
  t.is(res.status, 401);
  t.is(res.headers['www-authenticate'], undefined);
});

check('static/basic-auth/challenge-true/www-authenticate-basic', launch, async (t, c) => {
  const site = await startSite(c, { config: { basicAuth: { users: USERS, challenge: true } } });
  const res = await site.http.get('/x');
  t.is(res.status, 401);
  t.regex(String(res.headers['www-authenticate']), /^Basic\b/i);
});

check('static/basic-auth/realm/named-in-challenge', launch, async (t, c) => {
  const site = await startSite(c, { config: { basicAuth: { users: USERS, challenge: true, realm: 'Staff Area' } } });
  t.regex(String((await site.http.get('/x')).headers['www-authenticate']), /realm="Staff Area"/);
});

check('static/basic-auth/realm-default/restricted', launch, async (t, c) => {
  const site = await startSite(c, { config: { basicAuth: { users: USERS, challenge: true } } });
  t.is((await site.http.get('/x')).headers['www-authenticate'], 'Basic realm="Restricted"');
});

check('static/basic-auth/401-body/unauthorized-text', launch, async (t, c) => {
  const site = await startSite(c, { config: { basicAuth: { users: USERS } } });
  t.is((await site.http.get('/x')).text, 'Unauthorized');
});
