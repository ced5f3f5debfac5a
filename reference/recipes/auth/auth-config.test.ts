import test from 'ava';
import { DEFAULT_JWT_EXPIRES_IN, loadAuthConfig, parseJwtExpiresIn } from './auth-config.ts';
import { AuthError } from './auth-error.ts';

const SECRET = 'k'.repeat(32);

const VALID_DURATIONS: ReadonlyArray<[string, number]> = [
  ['7d', 7 * 86_400],
  ['12h', 12 * 3600],
  ['15m', 900],
  ['90s', 90],
  ['3600', 3600],
  ['1', 1],
  [' 7d ', 7 * 86_400],
  ['365d', 365 * 86_400],
];
const INVALID_DURATIONS = ['', '0', '0d', '-1', '7w', '1.5h', '7 d', 'abc', '7D', '366d', '1e3', '99999999999999'];

for (const [value, seconds] of VALID_DURATIONS) {
  test(`JWT_EXPIRES_IN ${JSON.stringify(value)} is ${seconds} s`, (t) => {
    t.is(parseJwtExpiresIn(value), seconds);
    t.is(loadAuthConfig({ JWT_SECRET: SECRET, JWT_EXPIRES_IN: value }).jwtLifetimeSeconds, seconds);
  });
}

for (const value of INVALID_DURATIONS.filter((v) => v !== '')) {
  test(`JWT_EXPIRES_IN ${JSON.stringify(value)} is refused, naming the variable and the value`, (t) => {
    const err = t.throws(() => loadAuthConfig({ JWT_SECRET: SECRET, JWT_EXPIRES_IN: value }), { instanceOf: AuthError });
    t.is(err?.code, 'config');
    t.true(err?.message.startsWith(`JWT_EXPIRES_IN: ${JSON.stringify(value)} `));
  });
}

test('JWT_EXPIRES_IN unset or empty: the default, 7 days', (t) => {
  t.is(DEFAULT_JWT_EXPIRES_IN, '7d');
  t.is(loadAuthConfig({ JWT_SECRET: SECRET }).jwtLifetimeSeconds, 7 * 86_400);
  t.is(loadAuthConfig({ JWT_SECRET: SECRET, JWT_EXPIRES_IN: '' }).jwtLifetimeSeconds, 7 * 86_400);
});

test('JWT_SECRET missing or empty: refused', (t) => {
  for (const env of [{}, { JWT_SECRET: '' }]) {
    const err = t.throws(() => loadAuthConfig(env), { instanceOf: AuthError });
    t.is(err?.code, 'config');
    t.regex(err?.message ?? '', /^JWT_SECRET: not set/);
  }
});

test('JWT_SECRET shorter than 32 bytes (UTF-8) is refused without echoing it; 32 bytes are enough', (t) => {
  const short = 'ä'.repeat(15) + 'x'; // 31 bytes, 16 characters
  const err = t.throws(() => loadAuthConfig({ JWT_SECRET: short }), { instanceOf: AuthError });
  t.is(err?.code, 'config');
  t.is(err?.message.includes(short), false);
  t.regex(err?.message ?? '', /31 bytes long, needs at least 32/);
  const enough = 'ä'.repeat(16); // 32 bytes, 16 characters
  t.deepEqual(loadAuthConfig({ JWT_SECRET: enough }).jwtSecret, new TextEncoder().encode(enough));
});
