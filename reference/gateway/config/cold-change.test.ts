// Which reloads need a restart: each case is the running file, the reloaded file and the cold field named
// (undefined: the reload may apply it).
import test from 'ava';
import { coldChange } from './cold-change.ts';
import { validateConfig } from './load-config.ts';

type Raw = { global?: object; workers?: number; backlog?: number; hotReload?: boolean; sites: object[] };
const load = (raw: Raw) => validateConfig(raw, '/etc/gateway/gateway.yaml', 'yaml', { T1: 'one', T2: 'two' });
const route = (path = '/', port = 9001) => ({ path, targets: [{ url: `http://127.0.0.1:${port}` }] });
const plain = (port: number, host?: string, extra: object = {}) => ({ port, host, routes: [route()], ...extra });
const tls = (port: number, host?: string, cert = 'cert.pem', key = 'key.pem') => plain(port, host, { tls: { cert, key } });
const admin = (bind: string, token?: string) => ({ admin: { bind, token } });
const h2 = (port: number, host?: string) => plain(port, host, { http2: true });

const cases: [string, Raw, Raw, string | undefined][] = [
  ['nothing changed', { sites: [plain(80)] }, { sites: [plain(80)] }, undefined],
  ['routes, targets, strategies are hot', { sites: [plain(80)] }, { sites: [{ port: 80, routes: [route('/a', 1), { ...route('/b', 2), strategy: 'least-conn' }] }] }, undefined],
  [
    'feature sections are hot',
    { sites: [plain(80)] },
    { sites: [plain(80, undefined, { rateLimit: { requests: 5 }, cache: {}, outlierDetection: {}, healthCheck: {}, ipFilter: { deny: ['10.0.0.0/8'] }, cors: { allowOrigins: ['*'] }, securityHeaders: true })] },
    undefined,
  ],
  ['shutdown timeout and hotReload are hot', { sites: [plain(80)] }, { global: { shutdownTimeoutSecs: 5 }, hotReload: true, sites: [plain(80)] }, undefined],
  ['the admin token changed', { global: admin('127.0.0.1:2019', '$T1'), sites: [plain(80)] }, { global: admin('127.0.0.1:2019', '$T2'), sites: [plain(80)] }, 'global.admin.token'],
  ['the same admin token', { global: admin('127.0.0.1:2019', '$T1'), sites: [plain(80)] }, { global: admin('127.0.0.1:2019', '$T1'), sites: [plain(80)] }, undefined],
  ['admin bind changed', { global: admin('127.0.0.1:2019'), sites: [plain(80)] }, { global: admin('127.0.0.1:2020'), sites: [plain(80)] }, 'global.admin.bind'],
  ['admin added', { sites: [plain(80)] }, { global: admin('127.0.0.1:2019'), sites: [plain(80)] }, 'global.admin.bind'],
  ['admin removed', { global: admin('127.0.0.1:2019'), sites: [plain(80)] }, { sites: [plain(80)] }, 'global.admin.bind'],
  ['workers changed', { sites: [plain(80)] }, { workers: 2, sites: [plain(80)] }, 'workers'],
  ['workers written as its default', { sites: [plain(80)] }, { workers: 1, sites: [plain(80)] }, undefined],
  ['backlog set', { sites: [plain(80)] }, { backlog: 100, sites: [plain(80)] }, 'backlog'],
  ['backlog removed', { backlog: 100, sites: [plain(80)] }, { sites: [plain(80)] }, 'backlog'],
  ['port changed', { sites: [plain(80), plain(81)] }, { sites: [plain(80), plain(82)] }, 'sites[1].port'],
  ['site added on a new port', { sites: [plain(80)] }, { sites: [plain(80), plain(81)] }, 'sites[1].port'],
  ['site removed, its port closed', { sites: [plain(80), plain(81)] }, { sites: [plain(80)] }, 'port'],
  ['site added on an open port (new host)', { sites: [plain(80)] }, { sites: [plain(80), plain(80, 'b.test')] }, undefined],
  ['site removed, its port still open', { sites: [plain(80), plain(80, 'b.test')] }, { sites: [plain(80, 'b.test')] }, undefined],
  ['sites reordered', { sites: [plain(80), plain(81)] }, { sites: [plain(81), plain(80)] }, undefined],
  ['host changed on the same port', { sites: [plain(80, 'a.test')] }, { sites: [plain(80, 'b.test')] }, undefined],
  ['host case only', { sites: [tls(443, 'A.test')] }, { sites: [tls(443, 'a.test')] }, undefined],
  ['tls.cert changed', { sites: [tls(443)] }, { sites: [tls(443, undefined, 'new.pem')] }, 'sites[0].tls.cert'],
  ['tls.key changed', { sites: [tls(443)] }, { sites: [tls(443, undefined, 'cert.pem', 'new.pem')] }, 'sites[0].tls.key'],
  ['same file written another way', { sites: [tls(443)] }, { sites: [tls(443, undefined, './cert.pem', '/etc/gateway/key.pem')] }, undefined],
  ['TLS switched on', { sites: [plain(443)] }, { sites: [tls(443)] }, 'sites[0].tls.cert'],
  ['TLS switched off', { sites: [tls(443)] }, { sites: [plain(443)] }, 'sites[0].tls.cert'],
  ['new TLS host, same certificate', { sites: [tls(443, 'a.test')] }, { sites: [tls(443, 'a.test'), tls(443, 'b.test')] }, undefined],
  ['new TLS host, new certificate', { sites: [tls(443, 'a.test')] }, { sites: [tls(443, 'a.test'), tls(443, 'b.test', 'b.pem', 'b.key')] }, 'sites[1].tls.cert'],
  ['new TLS host, same cert, other key', { sites: [tls(443, 'a.test')] }, { sites: [tls(443, 'a.test'), tls(443, 'b.test', 'cert.pem', 'b.key')] }, 'sites[1].tls.key'],
  ['plain site replaces the TLS one on its port', { sites: [tls(443, 'a.test')] }, { sites: [plain(443, 'b.test')] }, 'sites[0].tls.cert'],
  ['http2 switched on', { sites: [plain(80)] }, { sites: [h2(80)] }, 'sites[0].http2'],
  ['http2 switched off', { sites: [h2(80)] }, { sites: [plain(80)] }, 'sites[0].http2'],
  ['http2 written as its default', { sites: [plain(80)] }, { sites: [plain(80, undefined, { http2: false })] }, undefined],
  ['http2 switched on over TLS', { sites: [tls(443)] }, { sites: [{ ...tls(443), http2: true }] }, 'sites[0].http2'],
  ['http2 switched on for a site of a port already speaking it', { sites: [h2(80, 'a.test'), plain(80, 'b.test')] }, { sites: [h2(80, 'a.test'), h2(80, 'b.test')] }, 'sites[1].http2'],
  ['new http2 site on a port without it', { sites: [plain(80, 'a.test')] }, { sites: [plain(80, 'a.test'), h2(80, 'b.test')] }, 'sites[1].http2'],
  ['new http2 site on a port speaking it', { sites: [h2(80, 'a.test')] }, { sites: [h2(80, 'a.test'), h2(80, 'b.test')] }, undefined],
  ['new site without http2 on a port still speaking it', { sites: [h2(80, 'a.test')] }, { sites: [h2(80, 'a.test'), plain(80, 'b.test')] }, undefined],
  ['the http2 site removed, its port would stop speaking it', { sites: [h2(80, 'a.test'), plain(80, 'b.test')] }, { sites: [plain(80, 'b.test')] }, 'sites[0].http2'],
  ['the http2 site replaced by one without', { sites: [h2(80, 'a.test')] }, { sites: [plain(80, 'b.test')] }, 'sites[0].http2'],
  ['an http2 site removed, another keeps the port speaking it', { sites: [h2(80, 'a.test'), h2(80, 'b.test')] }, { sites: [h2(80, 'b.test')] }, undefined],
  ['http2 site added on a new port', { sites: [plain(80)] }, { sites: [plain(80), h2(81)] }, 'sites[1].port'],
  ['first cold field wins', { sites: [plain(80)] }, { global: admin('127.0.0.1:2019'), workers: 3, sites: [plain(81)] }, 'global.admin.bind'],
];

for (const [what, before, after, field] of cases) {
  test(`cold change ${field ?? 'none'}: ${what}`, (t) => {
    t.is(coldChange(load(before), load(after)), field);
  });
}

test('a config compared with itself never has a cold change', (t) => {
  for (const [, before, after] of cases) {
    t.is(coldChange(load(before), load(before)), undefined);
    t.is(coldChange(load(after), load(after)), undefined);
  }
});
