// Table-driven checks of the startup normalisation: defaults filled in, key paths named in errors.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { checkSites } from './check-sites.ts';
import { ConfigError } from './config-error.ts';
import { normalizeProxy } from './normalize-proxy.ts';
import { normalizeRedirects } from './normalize-redirects.ts';
import { type NormalizeOptions, normalizeSites } from './normalize-site.ts';

const baseDir = mkdtempSync(join(tmpdir(), 'sp-normalize-'));
mkdirSync(join(baseDir, 'public'));
test.after.always(() => rmSync(baseDir, { recursive: true, force: true }));
const options: NormalizeOptions = { baseDir, mode: 'development', envPort: undefined, warn: () => {} };

const errorCases: [string, unknown, string][] = [
  ['redirect status outside the set', [{}, { redirects: [{ from: '/a', to: '/b' }, { from: '/c', to: '/d', status: 303 }] }], 'sites[1].redirects[1].status'],
  ['redirect without to', { redirects: [{ from: '/a' }] }, 'redirects[0].to'],
  ['port out of range', { port: 70000 }, 'port'],
  ['proxy target not http', { proxy: { '/api': 'ftp://x' } }, 'proxy["/api"]'],
  ['unknown unhandled key', { unhandled: { text: {} } }, 'unhandled.text'],
  ['logging format', { logging: { format: 'fancy' } }, 'logging.format'],
  ['basicAuth without users', { basicAuth: {} }, 'basicAuth.users'],
  ['empty site array', [], 'sites'],
];

for (const [name, raw, key] of errorCases) {
  test(`error names ${key}: ${name}`, (t) => {
    const error = t.throws(() => normalizeSites(raw, options), { instanceOf: ConfigError });
    t.is(error?.key, key);
  });
}

test('defaults: catch-all, PORT fallback, dev logging, nothing else configured', (t) => {
  const [site] = normalizeSites({ folders: 'public' }, { ...options, envPort: '9123' });
  t.is(site?.config.port, 9123);
  t.is(site?.config.host, null);
  t.deepEqual(site?.config.logging, { format: 'dev', file: null });
  t.is(site?.config.proxy, null);
  t.is(site?.config.rateLimit, null);
  t.deepEqual(site?.config.folders?.map((f) => f.dir), [join(baseDir, 'public')]);
});

test('hotReload is dropped in production', (t) => {
  const [site] = normalizeSites({ hotReload: true }, { ...options, mode: 'production' });
  t.false(site?.config.hotReload);
});

test('folders: nested mounts are joined and sorted longest first', (t) => {
  const [site] = normalizeSites({ folders: ['public', { '/docs': { api: 'public' } }] }, options);
  t.deepEqual(site?.config.folders?.map((f) => f.mount), ['/docs/api', '/']);
});

test('proxy: longest prefix first, trailing slash dropped, arrays kept in order', (t) => {
  const rules = normalizeProxy({ '/api/': ['http://a', 'http://b'], '/api/v2': 'http://c' }, 'proxy');
  t.deepEqual(
    rules.map((r) => [r.prefix, r.targets.map((x) => x.href)]),
    [
      ['/api/v2', ['http://c']],
      ['/api', ['http://a', 'http://b']],
    ],
  );
});

test('redirects: object form defaults to 301', (t) => {
  t.deepEqual(normalizeRedirects({ '/a': '/b', '/c': { to: '/d', status: 308 } }, 'redirects'), [
    { from: '/a', to: '/b', status: 301 },
    { from: '/c', to: '/d', status: 308 },
  ]);
});

test('check-sites: duplicate host (case-insensitive) and mixed ssl on one port', (t) => {
  const dup = normalizeSites([{ host: 'A.test' }, { host: 'a.test' }], options).map((s) => s.config);
  t.is(t.throws(() => checkSites(dup), { instanceOf: ConfigError })?.key, 'sites[1].host');
  const mixed = normalizeSites([{ ssl: { key: 'k', cert: 'c' } }, { host: 'x' }], options).map((s) => s.config);
  t.is(t.throws(() => checkSites(mixed), { instanceOf: ConfigError })?.key, 'sites[1].ssl');
});
