// Bearer-token verification (catalog recipes/auth/jwt-signed-with-secret, jwt-expiry, jwt-claims): whatever is
// done to a token — any character changed, added or dropped, claims rewritten, alg none or another alg, another
// secret, its time run out — verify refuses it with a token-* AuthError.
import test from 'ava';
import fc from 'fast-check';
import { SignJWT } from 'jose';
import type { AuthConfig } from './auth-config.ts';
import { type AuthErrorCode, isTokenRefusal } from './auth-error.ts';
import { JwtTokens, type TokenSubject } from './jwt-tokens.ts';

const SECRET = new TextEncoder().encode('a test secret that is long enough: 0123456789');
const CONFIG: AuthConfig = { jwtSecret: SECRET, jwtLifetimeSeconds: 3600 };
const T0 = Date.UTC(2025, 0, 15, 12, 0, 0);
const USER: TokenSubject = { id: 'u-1', role: 'user', tokenVersion: 0 };
const B64URL = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'];

const fixed = (now: number) => new JwtTokens(CONFIG, { now: () => now });
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function refusal(tokens: JwtTokens, token: unknown): Promise<AuthErrorCode | 'accepted' | 'other error'> {
  try {
    await tokens.verify(token);
    return 'accepted';
  } catch (err) {
    return isTokenRefusal(err) ? err.code : 'other error';
  }
}

const subjects = fc.record({
  id: fc.string({ minLength: 1, maxLength: 40 }),
  role: fc.constantFrom('admin' as const, 'user' as const),
  tokenVersion: fc.nat({ max: 1000 }),
});

test('an issued token verifies to its claims: sub, role, tv, iat, exp = iat + lifetime', async (t) => {
  const token = await fixed(T0).issue({ id: 'ü-42', role: 'admin', tokenVersion: 3 });
  const [header] = token.split('.');
  t.deepEqual(JSON.parse(Buffer.from(header!, 'base64url').toString()), { alg: 'HS256', typ: 'JWT' });
  t.deepEqual(await fixed(T0 + 1000).verify(token), { sub: 'ü-42', role: 'admin', tv: 3, iat: T0 / 1000, exp: T0 / 1000 + 3600 });
});

test('property: any change to a token (substitute, insert or drop a character anywhere) is refused', async (t) => {
  await fc.assert(
    fc.asyncProperty(
      subjects,
      fc.nat(),
      fc.constantFrom('substitute', 'insert', 'drop'),
      fc.constantFrom(...B64URL, '.', '=', ' '),
      async (subject, at, how, char) => {
        const token = await fixed(T0).issue(subject);
        const i = at % token.length;
        const changed =
          how === 'substitute'
            ? token.slice(0, i) + char + token.slice(i + 1)
            : how === 'insert'
              ? token.slice(0, i) + char + token.slice(i)
              : token.slice(0, i) + token.slice(i + 1);
        fc.pre(changed !== token);
        const outcome = await refusal(fixed(T0), changed);
        return outcome !== 'accepted' && outcome !== 'other error';
      },
    ),
  );
  t.pass();
});

test('property: rewritten claims (role, sub, tv, exp) under the original signature are refused', async (t) => {
  await fc.assert(
    fc.asyncProperty(
      subjects,
      fc.record({ role: fc.constantFrom('admin', 'user', 'root'), sub: fc.string(), tv: fc.integer(), exp: fc.integer() }, { requiredKeys: [] }),
      async (subject, rewrite) => {
        const token = await fixed(T0).issue(subject);
        const [header, payload, signature] = token.split('.');
        const claims = { ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), ...rewrite };
        const forged = `${header}.${b64(claims)}.${signature}`;
        fc.pre(forged !== token);
        return (await refusal(fixed(T0), forged)) === 'token-signature';
      },
    ),
  );
  t.pass();
});

test('property: alg none (any case, with or without a signature) is refused as token-algorithm', async (t) => {
  await fc.assert(
    fc.asyncProperty(subjects, fc.constantFrom('none', 'None', 'NONE', 'nOnE'), fc.boolean(), async (subject, alg, keepSig) => {
      const token = await fixed(T0).issue(subject);
      const [, payload, signature] = token.split('.');
      const unsigned = `${b64({ alg, typ: 'JWT' })}.${payload}.${keepSig ? signature : ''}`;
      return (await refusal(fixed(T0), unsigned)) === 'token-algorithm';
    }),
  );
  t.pass();
});

test('property: another HMAC algorithm with the right secret is refused as token-algorithm', async (t) => {
  await fc.assert(
    fc.asyncProperty(subjects, fc.constantFrom('HS384', 'HS512'), async (subject, alg) => {
      const token = await new SignJWT({ role: subject.role, tv: subject.tokenVersion })
        .setProtectedHeader({ alg, typ: 'JWT' })
        .setSubject(subject.id)
        .setIssuedAt(T0 / 1000)
        .setExpirationTime(T0 / 1000 + 3600)
        .sign(SECRET);
      return (await refusal(fixed(T0), token)) === 'token-algorithm';
    }),
  );
  t.pass();
});

test('property: a token signed with any other secret is refused as token-signature', async (t) => {
  await fc.assert(
    fc.asyncProperty(subjects, fc.uint8Array({ minLength: 32, maxLength: 64 }), async (subject, otherSecret) => {
      fc.pre(Buffer.compare(Buffer.from(otherSecret), Buffer.from(SECRET)) !== 0);
      const token = await new JwtTokens({ ...CONFIG, jwtSecret: otherSecret }, { now: () => T0 }).issue(subject);
      return (await refusal(fixed(T0), token)) === 'token-signature';
    }),
  );
  t.pass();
});

test('property: a token is accepted strictly before iat + lifetime and refused as token-expired from then on', async (t) => {
  await fc.assert(
    fc.asyncProperty(subjects, fc.integer({ min: 1, max: 400 * 86_400 }), fc.integer({ min: 0, max: 800 * 86_400_000 }), async (subject, lifetime, elapsedMs) => {
      const issuer = new JwtTokens({ ...CONFIG, jwtLifetimeSeconds: lifetime }, { now: () => T0 });
      const token = await issuer.issue(subject);
      const outcome = await refusal(fixed(T0 + elapsedMs), token);
      return elapsedMs < lifetime * 1000 ? outcome === 'accepted' : outcome === 'token-expired';
    }),
  );
  t.pass();
});

test('the other spellings of a signature (same bytes, other low bits in the last character) are refused', async (t) => {
  const token = await fixed(T0).issue(USER);
  const head = token.slice(0, -1);
  const outcomes = await Promise.all(B64URL.filter((c) => c !== token.at(-1)).map((c) => refusal(fixed(T0), head + c)));
  t.deepEqual(new Set(outcomes), new Set(['token-signature']));
});

test('a token with our signature but wrong or missing claims is refused as token-claims', async (t) => {
  const sign = (claims: Record<string, unknown>) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(T0 / 1000).setExpirationTime(T0 / 1000 + 60).sign(SECRET);
  const cases: Record<string, unknown>[] = [
    { sub: 'u', role: 'root', tv: 0 },
    { sub: 'u', tv: 0 },
    { sub: 'u', role: 'user' },
    { sub: 'u', role: 'user', tv: -1 },
    { sub: 'u', role: 'user', tv: '0' },
    { sub: '', role: 'user', tv: 0 },
    { role: 'user', tv: 0 },
  ];
  for (const claims of cases) t.is(await refusal(fixed(T0), await sign(claims)), 'token-claims', JSON.stringify(claims));
  const noExp = await new SignJWT({ sub: 'u', role: 'user', tv: 0 }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(T0 / 1000).sign(SECRET);
  t.is(await refusal(fixed(T0), noExp), 'token-claims');
});

test('malformed input is refused as token-malformed before any crypto', async (t) => {
  const token = await fixed(T0).issue(USER);
  const inputs: unknown[] = [undefined, null, 42, {}, '', 'abc', 'a.b', 'a.b.c.d', `${token} `, `Bearer ${token}`, 'x'.repeat(5000), `${'a'.repeat(4096)}.b.c`];
  for (const input of inputs) t.is(await refusal(fixed(T0), input), 'token-malformed', String(input).slice(0, 40));
  t.is(await refusal(fixed(T0), `${b64({ alg: 'HS256' }).slice(0, -2)}.${token.split('.')[1]}.${token.split('.')[2]}`), 'token-malformed');
});
