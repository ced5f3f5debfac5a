// One-time tokens with an injected clock: single use (also under concurrent redemption), expiry at exactly the
// documented lifetime, kinds kept apart, only hashes stored, invites listable and revocable.
import test from 'ava';
import fc from 'fast-check';
import { AuthError, type AuthErrorCode } from './auth-error.ts';
import { hashToken, ONE_TIME_LIFETIMES_MS, OneTimeTokens } from './one-time-tokens.ts';
import { MemoryTokenRepository, ONE_TIME_KINDS, type OneTimeKind } from './token-repository.ts';

const HOUR = 3_600_000;
const T0 = Date.UTC(2025, 0, 15, 12, 0, 0);

function setup() {
  const clock = { now: T0 };
  const repository = new MemoryTokenRepository();
  const tokens = new OneTimeTokens(repository, { now: () => clock.now });
  return { clock, repository, tokens };
}

const subjectOf = (kind: OneTimeKind) => (kind === 'invite' ? null : 'user-1');

async function outcome(run: Promise<unknown>): Promise<AuthErrorCode | 'ok'> {
  try {
    await run;
    return 'ok';
  } catch (err) {
    if (err instanceof AuthError) return err.code;
    throw err;
  }
}

test('lifetimes: verification 24 h, reset 1 h, invite 7 days', (t) => {
  t.deepEqual(ONE_TIME_LIFETIMES_MS, { 'verify-email': 24 * HOUR, 'reset-password': HOUR, invite: 7 * 24 * HOUR });
});

test('a token is 43 URL-safe characters; the repository holds its SHA-256 only', async (t) => {
  const { repository, tokens } = setup();
  for (const kind of ONE_TIME_KINDS) {
    const { token, record } = await tokens.issue(kind, subjectOf(kind), 'admin-1');
    t.regex(token, /^[A-Za-z0-9_-]{43}$/);
    t.is(record.tokenHash, hashToken(token));
    t.regex(record.tokenHash, /^[0-9a-f]{64}$/);
    t.is(record.expiresAt - record.createdAt, ONE_TIME_LIFETIMES_MS[kind]);
    t.false(JSON.stringify(await repository.list(kind)).includes(token));
  }
});

test('property: a token redeems exactly once, whatever the kind', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...ONE_TIME_KINDS), fc.integer({ min: 2, max: 5 }), async (kind, attempts) => {
      const { tokens } = setup();
      const { token, record } = await tokens.issue(kind, subjectOf(kind));
      t.deepEqual(await tokens.redeem(kind, token), record);
      for (let i = 1; i < attempts; i++) t.is(await outcome(tokens.redeem(kind, token)), 'one-time-invalid');
    }),
  );
});

test('concurrent redemptions of one token: exactly one succeeds', async (t) => {
  const { tokens } = setup();
  const { token } = await tokens.issue('invite', null);
  const results = await Promise.all(Array.from({ length: 8 }, () => outcome(tokens.redeem('invite', token))));
  t.is(results.filter((r) => r === 'ok').length, 1);
  t.is(results.filter((r) => r === 'one-time-invalid').length, 7);
});

test('property: usable strictly before its lifetime ends, one-time-expired from then on (and gone after)', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...ONE_TIME_KINDS), fc.integer({ min: 0, max: 8 * 24 * HOUR }), async (kind, elapsed) => {
      const { clock, tokens } = setup();
      const { token } = await tokens.issue(kind, subjectOf(kind));
      clock.now = T0 + elapsed;
      const expected = elapsed < ONE_TIME_LIFETIMES_MS[kind] ? 'ok' : 'one-time-expired';
      t.is(await outcome(tokens.check(kind, token)), expected);
      t.is(await outcome(tokens.redeem(kind, token)), expected);
      t.is(await outcome(tokens.redeem(kind, token)), 'one-time-invalid');
    }),
  );
});

test('a token of one kind is refused as another kind and stays usable as its own', async (t) => {
  const { tokens } = setup();
  const { token } = await tokens.issue('verify-email', 'user-1');
  t.is(await outcome(tokens.redeem('reset-password', token)), 'one-time-invalid');
  t.is(await outcome(tokens.redeem('invite', token)), 'one-time-invalid');
  t.is(await outcome(tokens.redeem('verify-email', token)), 'ok');
});

test('property: any string other than the issued token is refused, and the token survives', async (t) => {
  const { tokens } = setup();
  const { token } = await tokens.issue('reset-password', 'user-1');
  await fc.assert(
    fc.asyncProperty(fc.oneof(fc.string(), fc.base64String(), fc.stringMatching(/^[A-Za-z0-9_-]{43}$/)), async (guess) => {
      fc.pre(guess !== token);
      return (await outcome(tokens.redeem('reset-password', guess))) === 'one-time-invalid';
    }),
  );
  t.is(await outcome(tokens.redeem('reset-password', token)), 'ok');
});

test('non-string or huge input is refused as one-time-invalid', async (t) => {
  const { tokens } = setup();
  for (const input of [undefined, null, 42, {}, 'x'.repeat(10_000_000)]) {
    t.is(await outcome(tokens.redeem('invite', input)), 'one-time-invalid');
  }
});

test('check leaves the token usable', async (t) => {
  const { tokens } = setup();
  const { token, record } = await tokens.issue('invite', null);
  t.deepEqual(await tokens.check('invite', token), record);
  t.deepEqual(await tokens.check('invite', token), record);
  t.deepEqual(await tokens.redeem('invite', token), record);
  t.is(await outcome(tokens.check('invite', token)), 'one-time-invalid');
});

test('a new reset or verification token replaces the user\'s earlier one; other users keep theirs', async (t) => {
  const { tokens } = setup();
  for (const kind of ['reset-password', 'verify-email'] as const) {
    const first = await tokens.issue(kind, 'user-1');
    const other = await tokens.issue(kind, 'user-2');
    const second = await tokens.issue(kind, 'user-1');
    t.is(await outcome(tokens.redeem(kind, first.token)), 'one-time-invalid');
    t.is(await outcome(tokens.redeem(kind, second.token)), 'ok');
    t.is(await outcome(tokens.redeem(kind, other.token)), 'ok');
  }
});

test('issuing a reset token does not drop the user\'s verification token', async (t) => {
  const { tokens } = setup();
  const verify = await tokens.issue('verify-email', 'user-1');
  await tokens.issue('reset-password', 'user-1');
  t.is(await outcome(tokens.redeem('verify-email', verify.token)), 'ok');
});

test('invites: listed newest first without used, revoked or expired ones; revoked tokens no longer redeem', async (t) => {
  const { clock, tokens } = setup();
  const issued = [];
  for (let i = 0; i < 5; i++) {
    issued.push(await tokens.issue('invite', null, 'admin-1'));
    clock.now += HOUR;
  }
  const [expired, used, revoked, kept1, kept2] = issued;
  clock.now = expired!.record.expiresAt; // the first is now exactly at its end
  await tokens.redeem('invite', used!.token);
  t.true(await tokens.revoke('invite', revoked!.record.id));
  t.deepEqual(await tokens.listActive('invite'), [kept2!.record, kept1!.record]);
  t.is(await outcome(tokens.redeem('invite', revoked!.token)), 'one-time-invalid');
  t.false(await tokens.revoke('invite', revoked!.record.id), 'already revoked');
  t.false(await tokens.revoke('invite', used!.record.id), 'used');
  t.false(await tokens.revoke('invite', expired!.record.id), 'expired');
  t.false(await tokens.revoke('invite', 'no-such-id'));
  t.false(await tokens.revoke('verify-email', kept1!.record.id), 'another kind');
  t.is(await outcome(tokens.redeem('invite', kept1!.token)), 'ok');
});

test('issue refuses a subject on an invite and a missing subject on the others', async (t) => {
  const { tokens } = setup();
  await t.throwsAsync(tokens.issue('invite', 'user-1'), { instanceOf: TypeError });
  await t.throwsAsync(tokens.issue('reset-password', null), { instanceOf: TypeError });
});

test('forgetSubject drops a deleted user\'s tokens; sweep drops expired ones', async (t) => {
  const { clock, repository, tokens } = setup();
  const reset = await tokens.issue('reset-password', 'user-1');
  const verify = await tokens.issue('verify-email', 'user-1');
  const invite = await tokens.issue('invite', null);
  await tokens.forgetSubject('user-1');
  t.is(await outcome(tokens.redeem('reset-password', reset.token)), 'one-time-invalid');
  t.is(await outcome(tokens.redeem('verify-email', verify.token)), 'one-time-invalid');
  t.is(repository.size, 1);
  clock.now = invite.record.expiresAt;
  t.is(await tokens.sweep(), 1);
  t.is(repository.size, 0);
});
