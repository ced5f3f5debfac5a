// Table-driven checks of validation: every invalid config names the exact key path at fault; valid configs
// come out with their defaults filled in, the token substituted and paths resolved.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { stringify } from 'yaml';
import { ConfigError } from './config-error.ts';
import { loadConfig, notCompiledInWarnings, validateConfig } from './load-config.ts';

const dir = mkdtempSync(join(tmpdir(), 'gateway-config-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

const env = { GATEWAY_TOKEN: 's3cr3t-token', EMPTY: '', SPACED: 'two words' };
/** `${NAME}`, written without a template string's look. */
const braced = (name: string) => ['$', '{', name, '}'].join('');
const target = (port: number) => ({ url: `http://127.0.0.1:${port}` });
type Raw = Record<string, unknown> & { sites: Record<string, unknown>[] };
const base = (): Raw => ({ sites: [{ port: 8080, routes: [{ path: '/', targets: [target(9001)] }] }] });
/** The base config with the first site's keys replaced. */
const site = (keys: Record<string, unknown>, extra: Record<string, unknown> = {}): Raw => ({
  ...extra,
  sites: [{ ...base().sites[0], ...keys }],
});
const validate = (raw: unknown) => validateConfig(raw, join(dir, 'gateway.yaml'), 'yaml', env);

// [what, config, field named, reason matched]
const invalid: [string, unknown, string, RegExp?][] = [
  ['unknown top-level key', { ...base(), listen: 80 }, 'listen', /unknown key/],
  ['misspelt site key', site({ helthCheck: {} }), 'sites[0].helthCheck', /did you mean "healthCheck"/],
  ['unknown strategy', site({ routes: [{ path: '/', targets: [target(1)] }, { path: '/a', strategy: 'fastest', targets: [target(2)] }] }), 'sites[0].routes[1].strategy', /one of round-robin/],
  ['site without port', { sites: [{ routes: [] }] }, 'sites[0].port', /required/],
  ['site with host, without port', { sites: [{ host: 'a.test' }] }, 'sites[0].port', /required/],
  ['port misspelt', { sites: [{ prot: 80 }] }, 'sites[0].prot', /did you mean "port"/],
  ['port out of range', site({ port: 70000 }), 'sites[0].port', /at most 65535/],
  ['port as a string', site({ port: '8080' }), 'sites[0].port', /integer/],
  ['weight 0', site({ routes: [{ path: '/', targets: [{ url: 'http://a', weight: 0 }] }] }), 'sites[0].routes[0].targets[0].weight', /at least 1/],
  ['weight 1001', site({ routes: [{ path: '/', targets: [{ url: 'http://a', weight: 1001 }] }] }), 'sites[0].routes[0].targets[0].weight', /at most 1000/],
  ['weight 1.5', site({ routes: [{ path: '/', targets: [{ url: 'http://a', weight: 1.5 }] }] }), 'sites[0].routes[0].targets[0].weight', /integer/],
  ['target not http', site({ routes: [{ path: '/', targets: [{ url: 'ftp://a' }] }] }), 'sites[0].routes[0].targets[0].url', /http/],
  ['target without scheme', site({ routes: [{ path: '/', targets: [{ url: 'localhost:9001' }] }] }), 'sites[0].routes[0].targets[0].url', /absolute/],
  ['target with a path', site({ routes: [{ path: '/', targets: [{ url: 'http://a/base' }] }] }), 'sites[0].routes[0].targets[0].url', /path/],
  ['target with credentials', site({ routes: [{ path: '/', targets: [{ url: 'http://u:p@a' }] }] }), 'sites[0].routes[0].targets[0].url', /password/],
  ['duplicate target', site({ routes: [{ path: '/', targets: [{ url: 'http://A:80' }, { url: 'http://a/' }] }] }), 'sites[0].routes[0].targets[1].url', /duplicate/],
  ['route without targets', site({ routes: [{ path: '/', targets: [] }] }), 'sites[0].routes[0].targets', /at least 1/],
  ['route path without slash', site({ routes: [{ path: 'api', targets: [target(1)] }] }), 'sites[0].routes[0].path', /starting with \//],
  ['duplicate route path', site({ routes: [{ path: '/a', targets: [target(1)] }, { path: '/a', targets: [target(2)] }] }), 'sites[0].routes[1].path', /duplicate/],
  ['tls.versions', site({ tls: { cert: 'c.pem', key: 'k.pem', versions: ['1.3'] } }), 'sites[0].tls.versions', /tls\.versions.*not supported|not supported.*tls\.versions/],
  ['tls.ciphers', site({ tls: { cert: 'c.pem', key: 'k.pem', ciphers: 'HIGH' } }), 'sites[0].tls.ciphers', /not supported.*tls\.ciphers/],
  ['tls.cert without key', site({ tls: { cert: 'c.pem' } }), 'sites[0].tls.key', /required when cert/],
  ['empty tls', site({ tls: {} }), 'sites[0].tls.cert', /required/],
  ['duplicate label', { sites: [{ port: 80, host: 'a.test' }, { port: 80, host: 'A.test' }] }, 'sites[1]', /duplicate site label a\.test:80/],
  ['two catch-alls on a port', { sites: [{ port: 80 }, { port: 80, host: '*' }] }, 'sites[1]', /\*:80/],
  ['TLS and plain on one port', { sites: [{ port: 443, host: 'a', tls: { cert: 'c', key: 'k' } }, { port: 443, host: 'b' }] }, 'sites[1].tls', /port 443/],
  ['bad host', site({ host: 'a b' }), 'sites[0].host', /host name/],
  ['admin without bind', site({}, { global: { admin: {} } }), 'global.admin.bind', /required/],
  ['admin bind without port', site({}, { global: { admin: { bind: 'localhost' } } }), 'global.admin.bind', /host:port/],
  ['admin bind without host', site({}, { global: { admin: { bind: ':2019' } } }), 'global.admin.bind', /host:port/],
  ['admin bind port 0', site({}, { global: { admin: { bind: '127.0.0.1:0' } } }), 'global.admin.bind'],
  ['admin bind bad IPv4', site({}, { global: { admin: { bind: '300.1.1.1:2019' } } }), 'global.admin.bind'],
  ['admin bind bare IPv6', site({}, { global: { admin: { bind: '::1:2019' } } }), 'global.admin.bind'],
  ['admin bind as a number', site({}, { global: { admin: { bind: 2019 } } }), 'global.admin.bind', /string/],
  ['admin port taken by a site', site({}, { global: { admin: { bind: '127.0.0.1:8080' } } }), 'global.admin.bind', /sites\[0\]/],
  ['empty literal token', site({}, { global: { admin: { bind: '127.0.0.1:2019', token: '' } } }), 'global.admin.token', /empty/],
  ['token from an unset variable', site({}, { global: { admin: { bind: '127.0.0.1:2019', token: '$NOT_SET_ANYWHERE' } } }), 'global.admin.token', /NOT_SET_ANYWHERE.*not set/],
  ['token from an empty variable', site({}, { global: { admin: { bind: '127.0.0.1:2019', token: braced('EMPTY') } } }), 'global.admin.token', /EMPTY.*empty/],
  ['token with a space', site({}, { global: { admin: { bind: '127.0.0.1:2019', token: '$SPACED' } } }), 'global.admin.token', /Authorization/],
  ['token as a number', site({}, { global: { admin: { bind: '127.0.0.1:2019', token: 1234 } } }), 'global.admin.token', /string/],
  ['negative shutdown timeout', site({}, { global: { shutdownTimeoutSecs: -1 } }), 'global.shutdownTimeoutSecs', /at least 0/],
  ['fractional shutdown timeout', site({}, { global: { shutdownTimeoutSecs: 1.5 } }), 'global.shutdownTimeoutSecs', /integer/],
  ['workers 0', site({}, { workers: 0 }), 'workers'],
  ['backlog as text', site({}, { backlog: 'big' }), 'backlog'],
  ['hotReload as text', site({}, { hotReload: 'yes' }), 'hotReload', /boolean/],
  ['prefix too long', site({ ipFilter: { deny: ['10.0.0.0/8', '10.0.0.0/33'] } }), 'sites[0].ipFilter.deny[1]', /CIDR/],
  ['octal IPv4', site({ ipFilter: { deny: ['010.0.0.1'] } }), 'sites[0].ipFilter.deny[0]'],
  ['IPv6 zone', site({ ipFilter: { deny: ['fe80::1%eth0'] } }), 'sites[0].ipFilter.deny[0]'],
  ['deny not a list', site({ ipFilter: { deny: '10.0.0.0/8' } }), 'sites[0].ipFilter.deny', /list/],
  ['ipFilter.allow', site({ ipFilter: { allow: [] } }), 'sites[0].ipFilter.allow', /unknown key/],
  ['rate limit for no route', site({ rateLimit: { routes: { '/nope': { requests: 1 } } } }), 'sites[0].rateLimit.routes["/nope"]', /no route/],
  ['rate limit key not a path', site({ rateLimit: { routes: { api: { requests: 1 } } } }), 'sites[0].rateLimit.routes.api', /key must be a URL path/],
  ['rate limit rule without requests', site({ rateLimit: { routes: { '/': { windowMs: 5 } } } }), 'sites[0].rateLimit.routes["/"].requests', /required/],
  ['windowMs without requests', site({ rateLimit: { windowMs: 1000 } }), 'sites[0].rateLimit.requests', /required when windowMs/],
  ['max ejection below base', site({ outlierDetection: { baseEjectionMs: 5000, maxEjectionMs: 1000 } }), 'sites[0].outlierDetection.maxEjectionMs', /baseEjectionMs/],
  ['metrics path relative', site({ metrics: { path: 'metrics' } }), 'sites[0].metrics.path'],
  ['metrics on the health path', site({ metrics: { path: '/__health__' } }), 'sites[0].metrics.path', /health/],
  ['probe interval too short', site({ healthCheck: { intervalMs: 10 } }), 'sites[0].healthCheck.intervalMs', /at least 50/],
  ['retries too many', site({ retries: { attempts: 11 } }), 'sites[0].retries.attempts'],
  ['retries as a number', site({ retries: 2 }), 'sites[0].retries', /object/],
  ['cache ttl 0', site({ cache: { ttlMs: 0 } }), 'sites[0].cache.ttlMs'],
  ['feature section as text', site({ logging: 'yes' }), 'sites[0].logging', /object/],
  ['static without a root', site({ static: { path: '/files' } }), 'sites[0].static.root', /required/],
  ['middleware step of two keys', site({ middleware: [{ stripPrefix: '/a', addPrefix: '/b' }] }), 'sites[0].middleware[0].addPrefix', /unknown key/],
  ['middleware pattern not a regular expression', site({ middleware: [{ replacePathRegex: { pattern: '(', replacement: '' } }] }), 'sites[0].middleware[0].replacePathRegex.pattern', /regular expression/],
  ['upload without a folder', site({ upload: { path: '/up' } }), 'sites[0].upload.dir', /required/],
  ['http2 as text', site({ http2: 'on' }), 'sites[0].http2', /boolean/],
  ['no sites', { sites: [] }, 'sites', /at least 1/],
  ['sites missing', { global: {} }, 'sites', /required/],
  ['sites misspelt', { site: [] }, 'site', /did you mean "sites"/],
  ['sites not a list', { sites: { port: 80 } }, 'sites', /list/],
  ['top level a list', [], join(dir, 'gateway.yaml'), /object/],
  ['top level empty', null, join(dir, 'gateway.yaml'), /got nothing/],
  ['too many sites', { sites: Array.from({ length: 101 }, (_, i) => ({ port: 1000 + i })) }, 'sites', /at most 100/],
  ['too many targets in a route', site({ routes: [{ path: '/', targets: Array.from({ length: 257 }, (_, i) => target(i + 1)) }] }), 'sites[0].routes[0].targets', /at most 256/],
  [
    'too many targets in all',
    site({ routes: Array.from({ length: 40 }, (_, r) => ({ path: `/r${r}`, targets: Array.from({ length: 256 }, (_, t) => ({ url: `http://h${r}:${t + 1}` })) })) }),
    'sites[0].routes[39].targets',
    /more than 10000/,
  ],
  ['basicAuth without users', site({ basicAuth: { realm: 'x' } }), 'sites[0].basicAuth.users', /required/],
  ['basicAuth user name with a colon', site({ basicAuth: { users: [{ username: 'a:b', password: 'p' }] } }), 'sites[0].basicAuth.users[0].username', /colon/],
  ['apiKey with no keys', site({ apiKey: { keys: [] } }), 'sites[0].apiKey.keys', /at least 1/],
  ['jwtAuth without a key', site({ jwtAuth: { issuer: 'me' } }), 'sites[0].jwtAuth', /secret, publicKey or jwksFile/],
  ['jwtAuth public key not PEM', site({ jwtAuth: { publicKey: 'MIIB...' } }), 'sites[0].jwtAuth.publicKey', /PEM/],
  ['jwtAuth JWKS file missing', site({ jwtAuth: { jwksFile: 'no-such.json' } }), 'sites[0].jwtAuth.jwksFile', /no-such\.json/],
  ['forwardAuth URL not http', site({ forwardAuth: { url: 'ftp://auth.test/verify' } }), 'sites[0].forwardAuth.url', /http/],
  ['forwardAuth URL with a fragment', site({ forwardAuth: { url: 'http://auth.test/verify#x' } }), 'sites[0].forwardAuth.url', /fragment/],
  ['rateLimit in Redis without global.redis', site({ rateLimit: { requests: 5, store: 'redis' } }), 'sites[0].rateLimit.store', /global\.redis/],
  ['cache in Redis without global.redis', site({ cache: { store: 'redis' } }), 'sites[0].cache.store', /global\.redis/],
  ['global.redis URL not redis', site({}, { global: { redis: { url: 'http://127.0.0.1:6379' } } }), 'global.redis.url', /redis:\/\//],
  ['consumer without a credential', site({ consumers: [{ name: 'a' }] }), 'sites[0].consumers[0]', /apiKeys or basicAuth/],
  ['two consumers of one name', site({ consumers: [{ name: 'a', apiKeys: ['k1'] }, { name: 'a', apiKeys: ['k2'] }] }), 'sites[0].consumers[1].name', /consumers\[0\]/],
  ['two consumers with one key', site({ consumers: [{ name: 'a', apiKeys: ['k1'] }, { name: 'b', apiKeys: ['k2', 'k1'] }] }), 'sites[0].consumers[1].apiKeys[1]', /consumers\[0\]/],
];

for (const [what, raw, field, reason] of invalid) {
  test(`invalid, names ${field.startsWith(dir) ? 'the file' : field}: ${what}`, (t) => {
    const error = t.throws(() => validate(raw), { instanceOf: ConfigError });
    t.is(error?.field, field, error?.message);
    t.is(error?.message, `${error?.field}: ${error?.reason}`);
    if (reason !== undefined) t.regex(error?.reason ?? '', reason);
  });
}

test('defaults: one site, one route', (t) => {
  const config = validate(base());
  t.deepEqual(config.global, { admin: undefined, shutdownTimeoutSecs: 30, redis: undefined });
  t.is(config.workers, 1);
  t.is(config.backlog, undefined);
  t.false(config.hotReload);
  t.deepEqual(config.sites, [
    {
      label: '*:8080',
      host: undefined,
      port: 8080,
      tls: undefined,
      routes: [{ path: '/', strategy: 'round-robin', stripPrefix: false, targets: [{ url: 'http://127.0.0.1:9001', weight: 1 }] }],
      healthCheck: undefined,
      outlierDetection: undefined,
      retries: 0,
      rateLimit: undefined,
      ipDeny: [],
      cache: undefined,
      auth: undefined,
      filters: undefined,
      fallback: undefined,
      metricsPath: undefined,
      serving: undefined,
      http2: false,
      notCompiledIn: [],
    },
  ]);
});

test('empty sections take their defaults', (t) => {
  const [s] = validate(site({ healthCheck: {}, outlierDetection: {}, retries: {}, cache: {}, metrics: {}, rateLimit: {}, routes: [] })).sites;
  t.deepEqual(s?.healthCheck, { path: '/', intervalMs: 10_000, timeoutMs: 2_000, healthyThreshold: 2, unhealthyThreshold: 3 });
  t.deepEqual(s?.outlierDetection, { consecutive5xx: 5, baseEjectionMs: 30_000, maxEjectionMs: 300_000 });
  t.is(s?.retries, 1);
  t.deepEqual(s?.cache, { ttlMs: 60_000, maxEntries: 1_000, store: 'memory' });
  t.is(s?.metricsPath, '/metrics');
  t.is(s?.rateLimit, undefined);
  t.deepEqual(s?.routes, []);
});

test('a long base ejection raises the default maximum with it', (t) => {
  const [s] = validate(site({ outlierDetection: { baseEjectionMs: 600_000 } })).sites;
  t.is(s?.outlierDetection?.maxEjectionMs, 600_000);
});

test('host lower-cased into the label; "*" is any host', (t) => {
  const config = validate({ sites: [{ port: 80, host: 'API.Example.test' }, { port: 80, host: '*' }, { port: 81, host: '[::1]' }] });
  t.deepEqual(
    config.sites.map((s) => [s.label, s.host]),
    [
      ['api.example.test:80', 'api.example.test'],
      ['*:80', undefined],
      ['[::1]:81', '[::1]'],
    ],
  );
});

test('admin: bind parsed, token from $NAME, braced $NAME or literal', (t) => {
  const admin = (bind: string, token?: string) => validate(site({}, { global: { admin: { bind, token } } })).global.admin;
  t.deepEqual(admin('127.0.0.1:2019', '$GATEWAY_TOKEN'), { host: '127.0.0.1', port: 2019, token: 's3cr3t-token' });
  t.deepEqual(admin('[::1]:2020', braced('GATEWAY_TOKEN')), { host: '::1', port: 2020, token: 's3cr3t-token' });
  t.deepEqual(admin('localhost:2019', 'literal$token'), { host: 'localhost', port: 2019, token: 'literal$token' });
  t.deepEqual(admin('localhost:2019'), { host: 'localhost', port: 2019, token: undefined });
});

test('the token value never appears in an error message', (t) => {
  const raw = site({}, { global: { admin: { bind: '127.0.0.1:2019', token: 'has space' } } });
  const error = t.throws(() => validate(raw), { instanceOf: ConfigError });
  t.false(error?.message.includes('has space'));
});

test('authentication sections: defaults, names lower-cased, keys read now, false = off', (t) => {
  writeFileSync(join(dir, 'jwks.json'), JSON.stringify({ keys: [{ kty: 'RSA', n: 'sXchDaQebHnPiGvyDOAT4saGEUetSyo9MKLOoWFsueri23bOdgWp4Dy1WlUzewbgBHod5pcM9H95GQRV3JDXboIRROSBigeC5yjU1hGzHHyXss8UDprecbAYxknTcQkhslANGRUZmdTOQ5qTRsLAt6BTYuyvVRdhS8exSZEy_c4gs_7svlJJQ4H9_NxsiIoLwAEk7-Q3UXERGYw_75IDrGA84-lA_-Ct4eTlXHBIY2EaV7t7LjJaynVJCpkv4LKjTTAumiGUIuQhrNhZLuF_RJLqHpM2kgWFLU7-VTdL1VbC2tejvcI2BlMkEpk1BzBZI0KQB0GaDWFLN-aEAw3vRw', e: 'AQAB', kid: 'k1' }] }));
  const [s] = validate(
    site({
      basicAuth: { users: [{ username: 'alice', password: 'pw' }] },
      apiKey: { header: 'X-Key', keys: ['k'] },
      jwtAuth: { secret: 'x'.repeat(32), jwksFile: 'jwks.json' },
      forwardAuth: { url: 'http://auth.test/verify?x=1', copyHeaders: ['X-User'] },
    }),
  ).sites;
  t.deepEqual(s?.auth?.basic, { realm: 'gateway', users: [{ username: 'alice', password: 'pw' }] });
  t.deepEqual(s?.auth?.apiKey, { header: 'x-key', query: undefined, keys: ['k'] });
  t.like(s?.auth?.jwt, { secret: 'x'.repeat(32), publicKey: undefined, clockToleranceSecs: 0 });
  t.is(s?.auth?.jwt?.jwks?.keys.length, 1);
  t.deepEqual(s?.auth?.forward, { url: 'http://auth.test/verify?x=1', timeoutMs: 5000, copyHeaders: ['x-user'] });
  t.deepEqual(s?.notCompiledIn, []);
  const [off] = validate(site({ basicAuth: false, apiKey: false, jwtAuth: false, forwardAuth: false })).sites;
  t.is(off?.auth, undefined);
});

test('transform, header, CORS, masking and limit sections: defaults, names lower-cased, true and false', (t) => {
  const [s] = validate(
    site({
      requestTransform: { setHeaders: { 'X-Env': 'prod' }, removeHeaders: ['Cookie'] },
      responseTransform: { removeHeaders: ['Server'] },
      securityHeaders: true,
      cors: { allowOrigins: ['https://App.test'] },
      maskErrors: { statuses: [500, 500, 503] },
      limits: { maxBodyBytes: 1024 },
    }),
  ).sites;
  t.deepEqual(s?.filters, {
    requestTransform: { set: [['x-env', 'prod']], remove: ['cookie'] },
    responseTransform: { set: [], remove: ['server'] },
    securityHeaders: {
      headers: [['x-content-type-options', 'nosniff'], ['x-frame-options', 'DENY'], ['referrer-policy', 'no-referrer']],
      hstsMaxAgeSecs: 31_536_000,
    },
    cors: { origins: ['https://app.test'], methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'], headers: undefined, expose: [], credentials: false, maxAgeSecs: 600 },
    maskErrors: { statuses: [500, 503] },
    limits: { maxBodyBytes: 1024, upstreamTimeoutMs: undefined },
  });
  t.deepEqual(s?.notCompiledIn, []);
  const [off] = validate(site({ requestTransform: false, securityHeaders: false, cors: false, maskErrors: false, limits: false, responseTransform: {} })).sites;
  t.is(off?.filters, undefined);
  const [fallback] = validate(site({ fallback: { body: 'gone', headers: { 'Cache-Control': 'no-store', 'Content-Type': 'x/y' } } })).sites;
  t.deepEqual(fallback?.fallback, { status: 404, body: 'gone', headers: [['content-type', 'text/plain; charset=utf-8'], ['cache-control', 'no-store']] });
  t.is(validate(site({ fallback: false })).sites[0]?.fallback, undefined);
  const [masked] = validate(site({ maskErrors: true })).sites;
  t.is(masked?.filters?.maskErrors?.statuses.length, 100);
  const error = t.throws(() => validate(site({ cors: { allowOrigins: ['*', 'https://a.test'] } })), { instanceOf: ConfigError });
  t.is(error?.field, 'sites[0].cors.allowOrigins');
  const header = t.throws(() => validate(site({ requestTransform: { setHeaders: { 'bad name': 'x' } } })), { instanceOf: ConfigError });
  t.regex(header?.field ?? '', /^sites\[0\]\.requestTransform/);
});

test('serving sections: defaults, paths against the config folder, regular expressions, true and false', (t) => {
  const [s] = validate(
    site({
      proxy: { preserveHost: false },
      static: { root: 'public' },
      middleware: [{ stripPrefix: '/v1' }, { addPrefix: '/api' }, { redirectRegex: { pattern: '^/old/(.*)$', replacement: '/new/$1' } }],
      logging: true,
      compression: { minBytes: 10 },
      upload: { path: '/up', dir: 'uploads' },
    }),
  ).sites;
  t.deepEqual(s?.serving, {
    proxy: { preserveHost: false, forwardedHeaders: true },
    static: { root: join(dir, 'public'), path: '/', index: 'index.html', maxAgeSecs: 0 },
    middleware: [
      { kind: 'stripPrefix', prefix: '/v1' },
      { kind: 'addPrefix', prefix: '/api' },
      { kind: 'redirectRegex', pattern: /^\/old\/(.*)$/, replacement: '/new/$1', status: 302 },
    ],
    logging: { format: 'combined', file: undefined },
    compression: { minBytes: 10 },
    upload: { path: '/up', dir: join(dir, 'uploads'), maxBytes: 10 * 1024 * 1024, maxFiles: 10 },
  });
  t.deepEqual(validate(site({ logging: { format: 'tiny', file: 'logs/a.log' } })).sites[0]?.serving?.logging, { format: 'tiny', file: join(dir, 'logs/a.log') });
  const [off] = validate(site({ proxy: false, static: false, middleware: [], logging: false, compression: false, upload: false })).sites;
  t.is(off?.serving, undefined);
  t.is(validate(site({ proxy: { preserveHost: true, forwardedHeaders: true } })).sites[0]?.serving, undefined);
  t.true(validate(site({ http2: true })).sites[0]?.http2);
});

test('rate limits, denies, features not compiled in, hotReload on a site', (t) => {
  const config = validate(
    site({
      routes: [{ path: '/api', strategy: 'weighted-round-robin', targets: [{ url: 'https://a.test', weight: 3 }, target(2)] }],
      rateLimit: { requests: 100, routes: { '/api': { requests: 10, windowMs: 1000 } } },
      ipFilter: { deny: ['10.1.2.3/8', '192.0.2.7', '2001:DB8:0:0::1', '10.0.0.0/8'] },
      logging: {},
      http2: false,
      tls: { acme: { email: 'a@b.test' } },
      compression: true,
      hotReload: true,
    }),
  );
  const [s] = config.sites;
  t.deepEqual(s?.rateLimit, { site: { requests: 100, windowMs: 60_000 }, routes: { '/api': { requests: 10, windowMs: 1000 } }, store: 'memory' });
  t.deepEqual(s?.ipDeny, ['10.0.0.0/8', '192.0.2.7/32', '2001:db8::1/128']);
  t.deepEqual(s?.notCompiledIn, ['tls.acme']);
  t.is(s?.tls, undefined);
  t.true(config.hotReload);
  t.deepEqual(notCompiledInWarnings(config), ['tls.acme: configured but not compiled in']);
});

test('TLS paths resolve against the config file folder, awkward names included', (t) => {
  const folder = join(dir, 'with space', 'fünke #1');
  mkdirSync(folder, { recursive: true });
  const file = join(folder, 'gâteway config.yaml');
  writeFileSync(file, stringify(site({ tls: { cert: 'certs/cert file.pem', key: '/abs/kéy.pem' } })));
  const config = loadConfig(file, env);
  t.is(config.path, file);
  t.is(config.format, 'yaml');
  t.deepEqual(config.sites[0]?.tls, { cert: join(folder, 'certs', 'cert file.pem'), key: '/abs/kéy.pem' });
});

test('sites may share a port under different hosts, all TLS', (t) => {
  const tls = { cert: 'c.pem', key: 'k.pem' };
  const config = validate({ sites: [{ port: 443, host: 'a.test', tls }, { port: 443, host: 'b.test', tls }] });
  t.deepEqual(
    config.sites.map((s) => s.label),
    ['a.test:443', 'b.test:443'],
  );
});
