import test from 'ava';
import fc from 'fast-check';
import { AuthError } from './auth-error.ts';
import { hashPassword, needsRehash, PASSWORD_MAX_CHARS, PASSWORD_MIN_CHARS, passwordProblem, verifyPassword } from './passwords.ts';
import { hash } from '@node-rs/argon2';

test('hash is argon2id with the documented parameters; the right password verifies, others do not', async (t) => {
  const stored = await hashPassword('correct horse battery staple');
  t.regex(stored, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
  t.true(await verifyPassword(stored, 'correct horse battery staple'));
  t.false(await verifyPassword(stored, 'correct horse battery stapler'));
  t.false(await verifyPassword(stored, 'Correct horse battery staple'));
  t.false(needsRehash(stored));
});

test('two hashes of one password differ (random salt)', async (t) => {
  t.not(await hashPassword('same password'), await hashPassword('same password'));
});

test('passwords are NFKC-normalised: composed and decomposed spellings match', async (t) => {
  const stored = await hashPassword('Crème brûlée!');
  t.true(await verifyPassword(stored, 'Cre\u0300me bru\u0302le\u0301e!'));
});

test('length bounds: 8 to 128 characters, counted in code points', (t) => {
  t.is(PASSWORD_MIN_CHARS, 8);
  t.is(PASSWORD_MAX_CHARS, 128);
  t.regex(passwordProblem('1234567') ?? '', /^password: shorter than 8 characters$/);
  t.is(passwordProblem('12345678'), undefined);
  t.is(passwordProblem('x'.repeat(128)), undefined);
  t.regex(passwordProblem('x'.repeat(129)) ?? '', /^password: longer than 128 characters$/);
  t.is(passwordProblem('🍅'.repeat(128)), undefined, '128 astral characters are 256 UTF-16 units');
  t.truthy(passwordProblem('🍅'.repeat(129)));
  t.truthy(passwordProblem('🍅'.repeat(7)));
  t.regex(passwordProblem(12345678) ?? '', /must be a string/);
  t.truthy(passwordProblem(undefined));
});

test('property: an ASCII password meets the policy exactly when it has 8 to 128 characters', (t) => {
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom(...'abcXYZ019 !~'), maxLength: 300 }), (password) => {
      const ok = password.length >= PASSWORD_MIN_CHARS && password.length <= PASSWORD_MAX_CHARS;
      return (passwordProblem(password) === undefined) === ok;
    }),
  );
  t.pass();
});

test('a 10 MB password is refused cheaply by hashPassword and verifyPassword', async (t) => {
  const huge = 'a'.repeat(10 * 1024 * 1024);
  const stored = await hashPassword('a'.repeat(8));
  const started = performance.now();
  const err = await t.throwsAsync(hashPassword(huge), { instanceOf: AuthError });
  t.false(await verifyPassword(stored, huge));
  const elapsed = performance.now() - started;
  t.is(err?.code, 'password-policy');
  t.true(elapsed < 20, `took ${elapsed.toFixed(1)} ms`);
});

test('hashPassword refuses a password outside the policy with password-policy', async (t) => {
  for (const bad of ['short', 'x'.repeat(129), 42, null]) {
    const err = await t.throwsAsync(hashPassword(bad), { instanceOf: AuthError });
    t.is(err?.code, 'password-policy');
  }
});

test('an unknown account (no stored hash) or a non-string candidate never verifies', async (t) => {
  t.false(await verifyPassword(undefined, 'dummy password for unknown accounts'));
  const stored = await hashPassword('12345678');
  t.false(await verifyPassword(stored, 12345678));
  t.false(await verifyPassword(stored, undefined));
});

test('needsRehash: a hash made with other parameters', async (t) => {
  t.true(needsRehash(await hash('12345678', { timeCost: 3, memoryCost: 8192 })));
});
