// Issue 31's bounds, in process: the per-address limit of forgot-password, the quota variables, the storage
// errors' table, and the quota and size bound through the API with small quotas.
import test from 'ava';
import { StoreError } from '../store/index.ts';
import { AddressLimit } from './address-limit.ts';
import { ApiError } from './api-error.ts';
import { DEFAULT_QUOTA, RECIPE_MAX_BYTES } from './recipe-quota.ts';
import { startWithAccounts } from './recipes-test-support.ts';
import { ConfigError, parseQuota } from './server-options.ts';
import { STORAGE_FAULTS, storageRefusal } from './storage-errors.ts';

test('forgot-password: 3 per address in 15 minutes, then 429 with Retry-After; other addresses apart', (t) => {
  let now = 1_000_000;
  const limit = new AddressLimit(3, 15 * 60_000, () => now);
  for (let i = 0; i < 3; i++) limit.take('a@x.test');
  const refused = t.throws(() => limit.take('a@x.test'), { instanceOf: ApiError });
  t.is(refused.status, 429);
  t.is(refused.headers['Retry-After'], String(15 * 60));
  t.notThrows(() => limit.take('b@x.test'));
  now += 15 * 60_000 + 1;
  t.notThrows(() => limit.take('a@x.test'), 'the window passed');
});

test('quota variables: a whole number from 1, else a ConfigError naming the variable', (t) => {
  t.is(parseQuota('RECIPES_QUOTA_RECIPES', undefined, 1000), 1000);
  t.is(parseQuota('RECIPES_QUOTA_RECIPES', ' 25 ', 1000), 25);
  for (const bad of ['0', '-1', '1.5', 'lots', '1e6']) {
    const error = t.throws(() => parseQuota('RECIPES_QUOTA_BYTES', bad, 1), { instanceOf: ConfigError });
    t.regex(error.message, /^RECIPES_QUOTA_BYTES: /);
  }
});

test('storage errors: each code of the table answers its status, in plain words; others are not mapped', (t) => {
  for (const [code, { status, words }] of Object.entries(STORAGE_FAULTS)) {
    const cause = Object.assign(new Error(`${code}: failed`), { code });
    const answer = storageRefusal(new StoreError('io', '/d/recipes.json', 'cannot write', { cause }));
    t.deepEqual(answer, { status, message: `Not saved: ${words} (${code}); nothing was changed, try again later` });
    t.is(storageRefusal(cause)?.status, status, `${code} of a photo file`);
  }
  t.is(storageRefusal(Object.assign(new Error('EIO'), { code: 'EIO' })), undefined);
  t.is(storageRefusal(new StoreError('closed', '/d', 'closed'))?.status, 503);
});

test('quota and size bound through the API: 403 past the count or the bytes, 413 past the size; a shrink always passes', async (t) => {
  const { s, cook, other } = await startWithAccounts({ RECIPES_QUOTA_RECIPES: '2', RECIPES_QUOTA_BYTES: '20000' });
  try {
    const post = (json: unknown, headers = cook.headers) => s.api('POST', '/api/recipes', { json, headers });
    const first = await post({ title: 'One', description: 'x'.repeat(4000) });
    t.is(first.status, 201);
    t.is((await post({ title: 'Two' })).status, 201);
    const third = await post({ title: 'Three' });
    t.is(third.status, 403);
    t.regex(third.body.error, /at most 2 recipes per user/);
    t.is((await post({ title: 'Theirs' }, other.headers)).status, 201, 'another user has a quota of their own');
    const grow = await s.api('PATCH', `/api/recipes/${first.body.id}`, { json: { steps: Array.from({ length: 4 }, () => ({ text: 's'.repeat(4000) })) }, headers: cook.headers });
    t.is(grow.status, 403);
    t.regex(grow.body.error, /at most 20000 bytes of recipes per user/);
    t.is((await s.api('PATCH', `/api/recipes/${first.body.id}`, { json: { description: '' }, headers: cook.headers })).status, 200, 'a shrink');
    const huge = await post({ title: 'Huge', steps: Array.from({ length: 20 }, () => ({ text: 's'.repeat(5000) })) }, other.headers);
    t.is(huge.status, 413);
    t.regex(huge.body.error, new RegExp(`at most ${RECIPE_MAX_BYTES} bytes per recipe`));
    t.true(DEFAULT_QUOTA.recipes >= 1000 && DEFAULT_QUOTA.bytes >= 8 * 2 ** 20);
  } finally {
    await s.close();
  }
});
