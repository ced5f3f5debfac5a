// Authentication on the data plane (document 001, "What the service does": basic, API key, JWT, forward
// auth). Each kind is a capability; the section shapes are the neutral form's (catalog
// gateway/site-auth/section-shapes), rendered by the target's adapter. A refusal is judged by its status
// and by the recording upstream: a refused request must never arrive there.
import type { ExecutionContext } from 'ava';
import fc from 'fast-check';
import { type CaseContext, check } from '../harness/index.ts';
import { basic, bearer, type JwtKeys, jwtKeys, type TokenKind } from './credentials.ts';
import { clientAddress, type Gateway, sharedGateway, startGateway } from './gateway.ts';
import type { SiteSetup } from './setup.ts';
import { needs, offers } from './target.ts';
import { fared, type Sent, send } from './traffic.ts';
import { sharedUpstreams, startUpstreams, type Upstream } from './upstream.ts';

const USERS = [
  { username: 'alice', password: 'wonder-land' },
  { username: 'bob', password: 'p:ss w0rd' },
];
const KEYS = ['key-7f3a9c', 'key-e21b04'];

const CONSUMERS = [
  { name: 'alice', apiKeys: ['ck-alice-1f2e'] },
  { name: 'bob', basicAuth: { username: 'bob', password: 'bob-secret' } },
];

let keys: Promise<JwtKeys> | undefined;
const theKeys = (): Promise<JwtKeys> => (keys ??= jwtKeys());

/** One site per auth kind the target offers (sites with the kind missing are plain), all routing / to `a`. */
async function authGateway(c: CaseContext): Promise<{ g: Gateway; a: Upstream; site: Record<string, number> }> {
  const [a] = await sharedUpstreams('site-auth', 'a');
  const k = await theKeys();
  const sections: [string, Partial<SiteSetup>][] = [
    ['basic-auth', { basicAuth: { realm: 'suite', users: USERS } }],
    ['api-key', { apiKey: { header: 'X-API-Key', keys: KEYS } }],
    ['jwt-auth', { jwtAuth: { secret: k.secret, publicKey: k.publicKey, jwksFile: 'jwks.json' } }],
    ['consumers', { consumers: CONSUMERS }],
  ];
  const offered = sections.filter(([feature]) => offers(feature as never));
  const g = await sharedGateway(
    c,
    'site-auth',
    () => ({ sites: offered.map(([, section]) => ({ routes: [{ path: '/', targets: [a!.url] }], ...section })) }),
    { files: { 'jwks.json': k.jwks } },
  );
  return { g, a: a!, site: Object.fromEntries(offered.map(([feature], i) => [feature, i])) };
}

/** A request that must have been refused with one of `statuses` and reach no upstream. */
function refused(t: ExecutionContext, sent: Sent, statuses: number[], what: string): void {
  t.true(sent.res !== undefined && statuses.includes(sent.res.status), `${what}: answered ${statuses.join(' or ')}? ${fared(sent)}`);
  t.false(sent.reached, `${what}: reached the upstream: ${fared(sent)}`);
}

// ---------------------------------------------------------------- basic

check('gateway/site-auth/basic/refused-without-or-with-wrong-credentials', needs('basic-auth'), async (t, c) => {
  const { g, a, site } = await authGateway(c);
  const i = site['basic-auth']!;
  const cases: [string, Record<string, string>][] = [
    ['no Authorization', {}],
    ['a wrong password', { authorization: basic('alice', 'wrong') }],
    ['an unknown user', { authorization: basic('mallory', 'wonder-land') }],
    ['an unknown user and password', { authorization: basic('mallory', 'no-such-password') }],
    ["another user's password", { authorization: basic('alice', 'p:ss w0rd') }],
    ['a Basic value that is not base64 user:password', { authorization: 'Basic !!!not-base64' }],
    ['another scheme', { authorization: `Bearer ${USERS[0]!.password}` }],
  ];
  for (const [what, headers] of cases) {
    const sent = await send(g.site(i), '/', [a], headers);
    refused(t, sent, [401], what);
    const challenge = String(sent.res?.headers['www-authenticate'] ?? '');
    t.regex(challenge, /^basic\b/i, `${what}: the 401 carries a Basic challenge (WWW-Authenticate: ${challenge || 'none'})`);
  }
});

check('gateway/site-auth/basic/configured-users-forwarded', needs('basic-auth'), async (t, c) => {
  const { g, a, site } = await authGateway(c);
  for (const user of USERS) {
    const sent = await send(g.site(site['basic-auth']), '/', [a], { authorization: basic(user.username, user.password) });
    t.true(sent.reached, `${user.username}: ${fared(sent)}`);
  }
});

check('gateway/site-auth/basic/any-other-pair-refused', needs('basic-auth'), async (t, c) => {
  const { g, a, site } = await authGateway(c);
  const known = new Set(USERS.map((u) => `${u.username}:${u.password}`));
  const user = fc.oneof(fc.constantFrom(...USERS.map((u) => u.username)), fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !s.includes(':')));
  const password = fc.oneof(fc.constantFrom(...USERS.map((u) => u.password)), fc.string({ maxLength: 16 }));
  await c.property(
    fc.tuple(user, password).filter(([u, p]) => !known.has(`${u}:${p}`)),
    async ([u, p]) => {
      const sent = await send(g.site(site['basic-auth']), '/', [a], { authorization: basic(u, p) });
      if (sent.reached || sent.res?.status !== 401) throw new Error(`${JSON.stringify(`${u}:${p}`)}: ${fared(sent)}`);
    },
    { numRuns: 25 },
  );
  t.pass();
});

// ---------------------------------------------------------------- API key

check('gateway/site-auth/api-key/refused-without-or-with-unknown-key', needs('api-key'), async (t, c) => {
  const { g, a, site } = await authGateway(c);
  const cases: [string, Record<string, string>][] = [
    ['no key', {}],
    ['an unknown key', { 'x-api-key': 'key-000000' }],
    ['a configured key with a character more', { 'x-api-key': `${KEYS[0]}x` }],
    ['an empty key', { 'x-api-key': '' }],
  ];
  for (const [what, headers] of cases) refused(t, await send(g.site(site['api-key']), '/', [a], headers), [401, 403], what);
});

check('gateway/site-auth/api-key/configured-keys-forwarded', needs('api-key'), async (t, c) => {
  const { g, a, site } = await authGateway(c);
  for (const key of KEYS) {
    const sent = await send(g.site(site['api-key']), '/', [a], { 'x-api-key': key });
    t.true(sent.reached, `${key}: ${fared(sent)}`);
  }
});

// ---------------------------------------------------------------- JWT

const BAD_TOKENS: [TokenKind, string][] = [
  ['other-key', 'signed with another secret'],
  ['tampered', 'its claims altered after signing'],
  ['expired', 'expired an hour ago'],
  ['none', 'unsigned (alg: none)'],
  ['malformed', 'not a JWT'],
];

check('gateway/site-auth/jwt/refused-missing-bad-expired-or-unsigned', needs('jwt-auth'), async (t, c) => {
  const { g, a, site } = await authGateway(c);
  const k = await theKeys();
  const client = g.site(site['jwt-auth']);
  refused(t, await send(client, '/', [a]), [401, 403], 'no token');
  for (const [kind, what] of BAD_TOKENS) refused(t, await send(client, '/', [a], bearer(await k.token(kind))), [401, 403], `a token ${what}`);
});

check('gateway/site-auth/jwt/valid-tokens-of-each-key-forwarded', needs('jwt-auth'), async (t, c) => {
  const { g, a, site } = await authGateway(c);
  const k = await theKeys();
  const kinds: [TokenKind, string][] = [
    ['hs256', 'HS256 with the secret'],
    ['rs256', 'RS256 with the public key'],
    ['jwks', 'RS256 with the key of the JWKS file'],
  ];
  for (const [kind, what] of kinds) {
    const sent = await send(g.site(site['jwt-auth']), '/', [a], bearer(await k.token(kind)));
    t.true(sent.reached, `a token signed ${what}: ${fared(sent)}`);
  }
});

// ---------------------------------------------------------------- named consumers

check('gateway/site-auth/consumers/identified-forwarded', needs('consumers'), async (t, c) => {
  const { g, a, site } = await authGateway(c);
  const byKey = await send(g.site(site.consumers), '/', [a], { 'x-api-key': 'ck-alice-1f2e' });
  t.true(byKey.reached, `alice's API key: ${fared(byKey)}`);
  const byUser = await send(g.site(site.consumers), '/', [a], { authorization: basic('bob', 'bob-secret') });
  t.true(byUser.reached, `bob's basic credentials: ${fared(byUser)}`);
});

check('gateway/site-auth/consumers/unidentified-refused', needs('consumers'), async (t, c) => {
  const { g, a, site } = await authGateway(c);
  const cases: [string, Record<string, string>][] = [
    ['no credentials', {}],
    ['a key no consumer has', { 'x-api-key': 'ck-mallory' }],
    ["bob's user name with a wrong password", { authorization: basic('bob', 'wrong') }],
    ["alice's key as a password", { authorization: basic('alice', 'ck-alice-1f2e') }],
  ];
  for (const [what, headers] of cases) refused(t, await send(g.site(site.consumers), '/', [a], headers), [401, 403], what);
});

// ---------------------------------------------------------------- forward auth

/** A gateway whose site asks the auth service `auth` (a recording upstream) about every request. */
async function forwardAuthGateway(c: CaseContext, decide: Upstream['answer']): Promise<{ g: Gateway; a: Upstream; auth: Upstream }> {
  const [a, auth] = await startUpstreams(c, 'a', 'auth');
  auth!.answer = decide;
  const g = await startGateway(c, { sites: [{ routes: [{ path: '/', targets: [a!.url] }], forwardAuth: { url: `${auth!.url}/verify` } }] });
  return { g, a: a!, auth: auth! };
}

check('gateway/site-auth/forward-auth/2xx-lets-through', needs('forward-auth'), async (t, c) => {
  const { g, a, auth } = await forwardAuthGateway(c, () => ({ status: 200, body: '{}' }));
  for (let i = 0; i < 2; i++) {
    const asked = auth.received.length;
    const sent = await send(g.http, '/', [a]);
    t.true(sent.reached, `the auth service answered 200: ${fared(sent)}`);
    t.true(auth.received.length > asked, 'the auth service was asked about the request');
  }
});

check('gateway/site-auth/forward-auth/401-or-403-is-the-answer', needs('forward-auth'), async (t, c) => {
  let status = 401;
  const { g, a, auth } = await forwardAuthGateway(c, () => ({ status, body: '{"error":"denied"}' }));
  for (status of [401, 403]) {
    const asked = auth.received.length;
    const sent = await send(g.http, '/', [a]);
    refused(t, sent, [status], `the auth service answered ${status}`);
    t.true(auth.received.length > asked, 'the auth service was asked about the request');
  }
});

check('gateway/site-auth/forward-auth/auth-service-down-or-failing-5xx', needs('forward-auth'), async (t, c) => {
  const { g, a, auth } = await forwardAuthGateway(c, () => ({ status: 500, body: 'broken' }));
  const failing = await send(g.http, '/', [a]);
  t.true(failing.res !== undefined && failing.res.status >= 500 && failing.res.status <= 599, `the auth service answered 500: ${fared(failing)}`);
  t.false(failing.reached, `the auth service answered 500: ${fared(failing)}`);
  await auth.kill();
  const down = await send(g.http, '/', [a]);
  t.true(down.res !== undefined && down.res.status >= 500 && down.res.status <= 599, `the auth service refused connections: ${fared(down)}`);
  t.false(down.reached, `the auth service refused connections: ${fared(down)}`);
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('gateway/site-auth/refusal-details/challenges-bodies-502', needs('basic-auth', 'jwt-auth', 'forward-auth'), async (t, c) => {
  const { g, a, site } = await authGateway(c);
  const k = await theKeys();
  const basicRes = (await send(g.site(site['basic-auth']), '/', [a])).res;
  t.is(basicRes?.headers['www-authenticate'], 'Basic realm="suite", charset="UTF-8"', 'the basic challenge');
  const jwtSite = g.site(site['jwt-auth']);
  t.is((await send(jwtSite, '/', [a])).res?.headers['www-authenticate'], 'Bearer', 'no token: a bare Bearer challenge');
  const expired = (await send(jwtSite, '/', [a], bearer(await k.token('expired')))).res;
  t.regex(String(expired?.headers['www-authenticate']), /^Bearer error="invalid_token", error_description="the token has expired"$/, 'an expired token');
  let answer: ReturnType<Upstream['answer']> = { status: 401, headers: { 'www-authenticate': 'Bearer realm="sso"' }, body: '{"login":"needed"}' };
  const forward = await forwardAuthGateway(c, () => answer);
  const denied = await send(forward.g.http, '/', [forward.a]);
  t.is(denied.res?.headers['www-authenticate'], 'Bearer realm="sso"', 'the auth service\'s challenge passed');
  t.is(denied.res?.text, '{"login":"needed"}', 'the auth service\'s body passed');
  answer = { status: 302, headers: { location: 'https://login.test/' }, body: '' };
  const redirected = await send(forward.g.http, '/', [forward.a]);
  t.is(redirected.res?.status, 302, fared(redirected));
  t.is(redirected.res?.headers.location, 'https://login.test/');
  answer = { status: 500, body: 'broken' };
  t.is((await send(forward.g.http, '/', [forward.a])).res?.status, 502, 'a failing auth service: 502');
});

check('gateway/site-auth/forward-auth-request/describes-request-copies-headers', needs('forward-auth'), async (t, c) => {
  const [a, auth] = await startUpstreams(c, 'a', 'auth');
  auth!.answer = () => ({ status: 200, headers: { 'x-user': 'alice' }, body: '{}' });
  const g = await startGateway(c, { sites: [{ routes: [{ path: '/', targets: [a!.url] }], forwardAuth: { url: `${auth!.url}/verify?v=1`, copyHeaders: ['X-User'] } }] });
  const sent = await send(g.http, '/', [a!], { authorization: 'Bearer abc', cookie: 'sid=1', 'x-user': 'mallory' });
  t.true(sent.reached, fared(sent));
  const asked = auth!.received.at(-1);
  t.like(asked, { method: 'GET', url: '/verify?v=1' });
  t.like(asked?.headers, {
    authorization: 'Bearer abc',
    cookie: 'sid=1',
    'x-forwarded-method': 'GET',
    'x-forwarded-uri': sent.path,
    'x-forwarded-proto': 'http',
    'x-forwarded-host': `127.0.0.1:${g.rendered.sitePorts[0]}`,
  });
  t.is(a!.got(sent.path)[0]?.headers['x-user'], 'alice', 'the copied header replaces the client\'s');
});

check('gateway/site-auth/consumer-details/name-upstream-own-limit', needs('consumers'), async (t, c) => {
  const [a] = await startUpstreams(c, 'a');
  const g = await startGateway(c, {
    sites: [{ routes: [{ path: '/', targets: [a!.url] }], consumers: [{ ...CONSUMERS[0]!, rateLimit: { requests: 2, windowMs: 60_000 } }, CONSUMERS[1]!] }],
  });
  const key = { 'x-api-key': 'ck-alice-1f2e' };
  const first = await send(g.http, '/', [a!], { ...key, 'x-consumer-name': 'bob' });
  t.is(a!.got(first.path)[0]?.headers['x-consumer-name'], 'alice', `the upstream learns the consumer (the client's header replaced): ${fared(first)}`);
  await send(g.from(clientAddress()), '/', [a!], key);
  const third = await send(g.from(clientAddress()), '/', [a!], key);
  t.is(third.res?.status, 429, `alice's third request (from a third address), two a minute: ${fared(third)}`);
  t.regex(String(third.res?.headers['retry-after']), /^\d+$/);
  const other = await send(g.http, '/', [a!], { authorization: basic('bob', 'bob-secret') });
  t.true(other.reached, `bob is not held to alice's limit: ${fared(other)}`);
});

check('gateway/site-auth/kinds-combined/each-kind-in-turn-health-open', needs('basic-auth', 'api-key'), async (t, c) => {
  const [a] = await startUpstreams(c, 'a');
  const g = await startGateway(c, {
    sites: [{ routes: [{ path: '/', targets: [a!.url] }], basicAuth: { users: [USERS[0]!] }, apiKey: { header: 'X-API-Key', keys: KEYS } }],
  });
  const user = { authorization: basic(USERS[0]!.username, USERS[0]!.password) };
  t.false((await send(g.http, '/', [a!], user)).reached, 'basic credentials alone');
  t.false((await send(g.http, '/', [a!], { 'x-api-key': KEYS[0]! })).reached, 'an API key alone');
  const both = await send(g.http, '/', [a!], { ...user, 'x-api-key': KEYS[0]! });
  t.true(both.reached, `both: ${fared(both)}`);
  t.is(a!.got(both.path)[0]?.headers.authorization, user.authorization, 'credentials forwarded unchanged');
  t.is((await g.http.request({ path: '/__health__' })).status, 200, 'GET /__health__ without credentials');
});
