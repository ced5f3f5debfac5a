// The config file as far as the document describes it (document 001, "Admin configuration", "Config sections
// named by the API"): one file in YAML or JSON, the admin keys, the token from the environment, hot and cold
// sections, the rejected TLS keys, the other keys a config may hold; and what runs without the admin server.
import { extname } from 'node:path';
import { parse, stringify } from 'yaml';
import { type CaseContext, check, freePorts, releasePorts } from '../harness/index.ts';
import { is2xx, shown, status, successBody } from './admin-client.ts';
import { type Gateway, sharedGateway, startGateway, startRefused } from './gateway.ts';
import { portOpen } from '../harness/launch.ts';
import { pollUntil, waitFor } from './poll.ts';
import type { GatewaySetup, SiteSetup } from './setup.ts';
import { CONFIG_NAME, GATEWAY, needs, offers } from './target.ts';
import { tlsFiles } from './tls.ts';
import { fared, send } from './traffic.ts';
import { PROBE_PATH, sharedUpstreams, startUpstreams, type Upstream } from './upstream.ts';

const plain = (up: Upstream, extra: Partial<SiteSetup> = {}): GatewaySetup => ({ sites: [{ routes: [{ path: '/', targets: [up.url] }], ...extra }] });

/** The file's gateway with a plain setup (admin with a token, one route), for cases that only look. */
async function plainGateway(c: CaseContext): Promise<{ g: Gateway; up: Upstream }> {
  const [up] = await sharedUpstreams('config', 'up');
  return { g: await sharedGateway(c, 'config', () => plain(up!)), up: up! };
}

check('gateway/config/single-file-yaml-or-json/either-format-serves', GATEWAY, async (t, c) => {
  const [up] = await startUpstreams(c, 'up');
  const base = CONFIG_NAME.slice(0, CONFIG_NAME.length - extname(CONFIG_NAME).length) || CONFIG_NAME;
  // The target's config (as its adapter renders it) written once as YAML and once as JSON.
  for (const [format, name, transform] of [
    ['YAML', `${base}.yaml`, (text: string) => stringify(parse(text))],
    ['JSON', `${base}.json`, (text: string) => JSON.stringify(parse(text), null, 2)],
  ] as const) {
    const g = await c.need(`the gateway started on a ${format} config (${name})`, startGateway(c, plain(up!), { configName: name, transform }));
    const s = await send(g.http, '/', [up!]);
    t.true(s.reached, `${format}: ${fared(s)}`);
  }
});

check('gateway/config/admin-bind-required/listens-on-bind-refused-without', GATEWAY, async (t, c) => {
  const { g, up } = await plainGateway(c);
  t.true(is2xx(await g.admin.get('/status')), `the admin server on global.admin.bind ${g.admin.address}`);
  const refused = await startRefused(c, { ...plain(up), admin: false, global: { admin: { token: 'some-token' } } });
  t.true(refused.code !== null && refused.code !== 0, `global.admin without bind was not refused: ${refused.stderr.slice(0, 600)}`);
});

check('gateway/config/admin-token-optional/open-without-guarded-with', GATEWAY, async (t, c) => {
  const [up] = await startUpstreams(c, 'up');
  const open = await startGateway(c, { ...plain(up!), admin: { token: null } });
  t.true(is2xx(await open.admin.get('/status', { token: null })), 'without global.admin.token: GET /status without a token');
  const { g: guarded } = await plainGateway(c);
  t.is((await guarded.admin.get('/status', { token: null })).status, 401, 'with global.admin.token: GET /status without a token');
  t.true(is2xx(await guarded.admin.get('/status')), 'with global.admin.token: GET /status with it');
});

check('gateway/config/token-env-substitution/variable-value-is-token', GATEWAY, async (t, c) => {
  const [up] = await startUpstreams(c, 'up');
  const value = 'from-the-environment-7f3a';
  const g = await startGateway(c, { ...plain(up!), admin: { token: value, tokenValue: '$GW_ADMIN_SECRET' } }, { env: { GW_ADMIN_SECRET: value } });
  t.true(is2xx(await g.admin.get('/status')), 'Bearer <value of GW_ADMIN_SECRET>');
  t.is((await g.admin.get('/status', { token: '$GW_ADMIN_SECRET' })).status, 401, 'Bearer $GW_ADMIN_SECRET (the text of the file)');
});

check('gateway/config/shutdown-timeout-optional/with-and-without', GATEWAY, async (t, c) => {
  const { g: without, up } = await plainGateway(c);
  t.true((await send(without.http, '/', [up])).reached, 'a config without global.shutdownTimeoutSecs serves');
  const withIt = await startGateway(c, { ...plain(up), global: { shutdownTimeoutSecs: 5 } });
  t.true((await send(withIt.http, '/', [up])).reached, 'a config with global.shutdownTimeoutSecs serves');
});

check('gateway/config/hot-sections/applied-by-reload-same-process', GATEWAY, async (t, c) => {
  const [a, b] = await startUpstreams(c, 'a', 'b');
  const g = await startGateway(c, plain(a!));
  let exited = false;
  void g.launched.exited.then(() => (exited = true));
  const before = await status(c, g.admin);
  // routes changed, and each hot section the target offers switched on.
  const sections: Partial<SiteSetup> = {
    ...(offers('rate-limit') ? { rateLimit: { requests: 1000, windowMs: 60_000, routes: { '/': { requests: 1, windowMs: 60_000 } } } } : {}),
    ...(offers('cache') ? { cache: { ttlMs: 60_000, maxEntries: 10 } } : {}),
    ...(offers('outlier-detection') ? { outlierDetection: { consecutive5xx: 3, baseEjectionMs: 1000, maxEjectionMs: 5000 } } : {}),
  };
  await g.rewrite({ sites: [{ routes: [{ path: '/', targets: [b!.url] }], ...sections }] });
  successBody(t, await g.admin.post('/reload'), `POST /reload changing routes${Object.keys(sections).map((k) => `, ${k}`).join('')}`);
  const first = await send(g.http, '/', [a!, b!]);
  t.deepEqual(first.by, ['b'], `routes: ${fared(first)}`);
  if (offers('rate-limit')) {
    const second = await send(g.http, '/', [a!, b!]);
    t.false(second.reached, `rateLimit (one request a minute on /): the second request ${fared(second)}`);
  }
  t.false(exited, 'the process ended');
  t.is((await status(c, g.admin, 'GET /status after the reload')).config_path, before.config_path);
});

check('gateway/config/cold-sections/reload-refused-change-not-applied', GATEWAY, async (t, c) => {
  const [up] = await startUpstreams(c, 'up');
  const setup = plain(up!);
  const g = await startGateway(c, setup);
  const [otherPort, otherAdmin] = await freePorts(2);
  c.defer(() => releasePorts([otherPort!, otherAdmin!]));
  const routes = setup.sites[0]!.routes!;
  const changes: [string, GatewaySetup][] = [
    ['port', { sites: [{ port: otherPort!, routes }] }],
    ['workers', { ...setup, top: { workers: 2 } }],
    ['backlog', { ...setup, top: { backlog: 64 } }],
    ['global.admin.bind', { ...setup, admin: false, global: { admin: { bind: `127.0.0.1:${otherAdmin}`, token: g.admin.token } } }],
  ];
  for (const [field, next] of changes) {
    await g.rewrite(next);
    const res = await g.admin.post('/reload');
    t.false(is2xx(res), `a reload changing ${field}: ${shown(res)}`);
  }
  await g.rewrite(setup);
  t.true((await send(g.http, '/', [up!])).reached, 'the original port still serves');
  t.false(await portOpen(otherPort!), 'the refused port change opened the new port');
  t.false(await portOpen(otherAdmin!), 'the refused admin bind change opened the new admin port');
});

check('gateway/config/tls-versions-rejected/start-refused', needs('tls'), async (t, c) => {
  const [up] = await startUpstreams(c, 'up');
  const refused = await startRefused(c, plain(up!, { tls: { cert: 'cert.pem', key: 'key.pem', versions: ['TLSv1.2', 'TLSv1.3'] } }), { files: tlsFiles() });
  t.true(refused.code !== null && refused.code !== 0, `a config with tls.versions was not refused: ${refused.stderr.slice(0, 600)}`);
});

check('gateway/config/tls-ciphers-rejected/start-refused', needs('tls'), async (t, c) => {
  const [up] = await startUpstreams(c, 'up');
  const refused = await startRefused(c, plain(up!, { tls: { cert: 'cert.pem', key: 'key.pem', ciphers: 'ECDHE-RSA-AES128-GCM-SHA256' } }), { files: tlsFiles() });
  t.true(refused.code !== null && refused.code !== 0, `a config with tls.ciphers was not refused: ${refused.stderr.slice(0, 600)}`);
});

check('gateway/config/other-known-keys/accepted', GATEWAY, async (t, c) => {
  const [up] = await startUpstreams(c, 'up');
  const g = await c.need(
    'the gateway started with http2, compression, healthCheck, metrics, ipFilter.deny, tls.acme, upload, fallback and hotReload',
    startGateway(c, {
      top: { hotReload: false },
      sites: [
        {
          host: 'known.test',
          routes: [{ path: '/', targets: [up!.url] }],
          http2: false,
          compression: {},
          // Generous bounds: the case is about the keys being accepted, not about probes on a loaded machine.
          healthCheck: { path: PROBE_PATH, intervalMs: 1000, timeoutMs: 5000, unhealthyThreshold: 10 },
          metrics: { path: '/metrics' },
          ipFilter: { deny: ['198.51.100.0/24'] },
          upload: { path: '/upload', dir: 'uploads' },
          fallback: {},
        },
        { routes: [{ path: '/', targets: [up!.url] }], tls: { acme: {} } as never },
      ],
    }),
  );
  const s = await send(g.site(0), '/', [up!], g.hostHeader(0));
  t.true(s.reached, fared(s));
});

check('gateway/admin/background-tasks-without-admin/probes-continue', needs('health-checks'), async (t, c) => {
  const [up] = await startUpstreams(c, 'up');
  await startGateway(c, { ...plain(up!, { healthCheck: { path: PROBE_PATH, intervalMs: 100, timeoutMs: 2000 } }), admin: false });
  t.true(await waitFor(() => up!.probes.length >= 2, 5000), `probes without global.admin: ${up!.probes.length} in 5 s`);
});

check('gateway/admin/background-tasks-without-admin/file-watcher-continues', GATEWAY, async (t, c) => {
  const [a, b] = await startUpstreams(c, 'a', 'b');
  const g = await startGateway(c, { ...plain(a!), admin: false, top: { hotReload: true } });
  await c.need('a request before the edit', send(g.http, '/', [a!, b!]));
  await g.rewrite({ ...plain(b!), admin: false, top: { hotReload: true } });
  const polled = await pollUntil(() => send(g.http, '/', [a!, b!]), (s) => s.by.join() === 'b', 8000, 200);
  t.true(polled.met, `eight seconds after the file was changed, without global.admin: ${fared(polled.value)}`);
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('gateway/config/token-env-unset/start-refused', GATEWAY, async (t, c) => {
  const [up] = await startUpstreams(c, 'up');
  const refused = await startRefused(c, { ...plain(up!), admin: { token: 'unused', tokenValue: '$GW_UNSET_ADMIN_TOKEN' } }, { env: { GW_UNSET_ADMIN_TOKEN: undefined } });
  t.true(refused.code !== null && refused.code !== 0, `a token naming an unset variable was not refused: ${refused.stderr.slice(0, 600)}`);
  t.regex(refused.stderr, /global\.admin\.token/);
});
