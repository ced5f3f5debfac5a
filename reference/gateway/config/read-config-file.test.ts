// The file layer: format by extension, read and parse errors naming the file, the size bound, and the
// property that a config written as JSON and as YAML loads to the same model.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import test from 'ava';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { ConfigError } from './config-error.ts';
import { loadConfig, resolveConfigPath } from './load-config.ts';
import { FILTER_DEFAULTS } from './normalize-filters.ts';
import { SERVING_DEFAULTS } from './normalize-serving.ts';
import { SITE_DEFAULTS } from './normalize-site.ts';
import { GLOBAL_DEFAULTS } from './normalize-config.ts';
import { MAX_CONFIG_BYTES } from './read-config-file.ts';
import SCHEMA from '../gateway-config.schema.json' with { type: 'json' };

const dir = mkdtempSync(join(tmpdir(), 'gateway-read-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

let count = 0;
function write(name: string, content: string | Buffer): string {
  const folder = join(dir, String(count++));
  mkdirSync(folder);
  const path = join(folder, name);
  writeFileSync(path, content);
  return path;
}

const minimal = { sites: [{ port: 8080, routes: [{ path: '/', targets: [{ url: 'http://127.0.0.1:9001' }] }] }] };

// [what, file name, content, reason matched]
const fileErrors: [string, string, string | Buffer, RegExp][] = [
  ['YAML syntax', 'gateway.yaml', 'sites: [\n  {port: 1\n', /^invalid YAML: .*line \d+, column \d+$/],
  ['YAML duplicate key', 'gateway.yml', 'sites: []\nsites: []\n', /invalid YAML: Map keys must be unique/],
  ['two YAML documents', 'gateway.yaml', 'sites: []\n---\nsites: []\n', /multiple documents/],
  ['YAML alias to nothing', 'gateway.yaml', 'sites: *nowhere\n', /invalid YAML/],
  ['JSON syntax', 'gateway.json', '{\n  "sites": [,]\n}', /^invalid JSON: ValueExpected at line 2, column 13$/],
  ['empty JSON', 'gateway.json', '', /invalid JSON/],
  ['JSON comment', 'gateway.JSON', '// hi\n{}', /invalid JSON/],
  ['not UTF-8', 'gateway.yaml', Buffer.from([0x73, 0x69, 0x74, 0x65, 0x73, 0x3a, 0x20, 0xff, 0x0a]), /not valid UTF-8/],
  ['too large', 'gateway.yaml', `# ${'x'.repeat(MAX_CONFIG_BYTES)}\n`, /larger than 1048576 bytes/],
];

for (const [what, name, content, reason] of fileErrors) {
  test(`file error names the file: ${what}`, (t) => {
    const path = write(name, content);
    const error = t.throws(() => loadConfig(path, {}), { instanceOf: ConfigError });
    t.is(error?.field, path);
    t.regex(error?.reason ?? '', reason);
  });
}

test('missing file and directory name the path and the reason', (t) => {
  const missing = join(dir, 'nowhere', 'gateway.yaml');
  const a = t.throws(() => loadConfig(missing, {}), { instanceOf: ConfigError });
  t.is(a?.message, `${missing}: cannot read the config file: no such file (ENOENT)`);
  const b = t.throws(() => loadConfig(dir, {}), { instanceOf: ConfigError });
  t.is(b?.field, dir);
  t.regex(b?.reason ?? '', /directory/);
});

test('a duplicate JSON key is named by its path', (t) => {
  const path = write('gateway.json', '{"sites": [{"port": 1, "routes": [], "port": 2}]}');
  t.is(t.throws(() => loadConfig(path, {}), { instanceOf: ConfigError })?.message, 'sites[0].port: duplicate key');
});

test('format by extension: .json is JSON, anything else YAML; a byte order mark is skipped', (t) => {
  t.is(loadConfig(write('gateway.json', `\ufeff${JSON.stringify(minimal)}`), {}).format, 'json');
  t.is(loadConfig(write('gateway.conf', stringify(minimal)), {}).format, 'yaml');
  t.is(loadConfig(write('gateway', JSON.stringify(minimal)), {}).format, 'yaml');
});

test('YAML merge keys and anchors', (t) => {
  const text = 'x-target: &t {url: "http://127.0.0.1:9001"}\n';
  const path = write('gateway.yaml', `${text}sites:\n  - port: 80\n    routes: [{path: /, targets: [*t]}]\n`);
  t.deepEqual(loadConfig(path, {}).sites[0]?.routes[0]?.targets, [{ url: 'http://127.0.0.1:9001', weight: 1 }]);
  const unknown = write('gateway.yaml', `y-${text}sites:\n  - port: 80\n`);
  t.is(t.throws(() => loadConfig(unknown, {}), { instanceOf: ConfigError })?.field, '["y-x-target"]');
  const merged = write(
    'gateway.yaml',
    'sites:\n  - &s {port: 80, routes: [{path: /, targets: [{url: "http://a"}]}]}\n  - {<<: *s, port: 81}\n',
  );
  t.deepEqual(
    loadConfig(merged, {}).sites.map((s) => s.label),
    ['*:80', '*:81'],
  );
});

test('resolveConfigPath: -c relative to the working directory, else gateway.yaml there', (t) => {
  t.is(resolveConfigPath(undefined, '/srv/a b'), '/srv/a b/gateway.yaml');
  t.is(resolveConfigPath('conf/gw.json', '/srv'), '/srv/conf/gw.json');
  t.is(resolveConfigPath('/etc/gw.yaml', '/srv'), '/etc/gw.yaml');
});

test("the schema's defaults are the loader's", (t) => {
  const schema = structuredClone(SCHEMA);
  const site = schema.$defs.site.properties;
  const defaults = (props: Record<string, { default?: unknown }>) =>
    Object.fromEntries(Object.entries(props).flatMap(([k, v]) => (v.default === undefined ? [] : [[k, v.default]])));
  t.deepEqual(defaults(site.healthCheck.properties), { ...SITE_DEFAULTS.healthCheck });
  t.deepEqual(defaults(site.outlierDetection.properties), { ...SITE_DEFAULTS.outlierDetection });
  t.deepEqual(defaults(site.cache.properties), { ...SITE_DEFAULTS.cache });
  t.is(site.retries.properties.attempts.default, SITE_DEFAULTS.retryAttempts);
  t.is(site.rateLimit.properties.windowMs.default, SITE_DEFAULTS.rateLimitWindowMs);
  t.is(schema.$defs.rateLimitRule.properties.windowMs.default, SITE_DEFAULTS.rateLimitWindowMs);
  t.is(site.metrics.properties.path.default, SITE_DEFAULTS.metricsPath);
  t.is(site.routes.items.properties.strategy.default, SITE_DEFAULTS.strategy);
  t.is(site.routes.items.properties.targets.items.properties.weight.default, SITE_DEFAULTS.weight);
  t.is(schema.properties.global.properties.shutdownTimeoutSecs.default, GLOBAL_DEFAULTS.shutdownTimeoutSecs);
  t.is(schema.properties.workers.default, GLOBAL_DEFAULTS.workers);
  t.is(schema.properties.hotReload.default, GLOBAL_DEFAULTS.hotReload);
  const security = site.securityHeaders.oneOf[0]!.properties!;
  t.is(security.frameOptions.default, FILTER_DEFAULTS.frameOptions);
  t.is(security.referrerPolicy.default, FILTER_DEFAULTS.referrerPolicy);
  t.is(security.hstsMaxAgeSecs.default, FILTER_DEFAULTS.hstsMaxAgeSecs);
  const fallback = site.fallback.oneOf[0]!.properties!;
  t.deepEqual(
    { status: fallback.status.default, body: fallback.body.default, contentType: fallback.contentType.default },
    { ...SITE_DEFAULTS.fallback },
  );
  const proxy = site.proxy.oneOf[0]!.properties!;
  const files = site.static.oneOf[0]!.properties!;
  const upload = site.upload.oneOf[0]!.properties!;
  const redirect = site.middleware.items.oneOf[3]!.properties!.redirectRegex!.properties!;
  t.deepEqual(
    {
      preserveHost: proxy.preserveHost.default,
      forwardedHeaders: proxy.forwardedHeaders.default,
      staticPath: files.path.default,
      staticIndex: files.index.default,
      staticMaxAgeSecs: files.maxAgeSecs.default,
      redirectStatus: redirect.status.default,
      logFormat: site.logging.oneOf[0]!.properties!.format.default,
      compressionMinBytes: site.compression.oneOf[0]!.properties!.minBytes.default,
      uploadMaxBytes: upload.maxBytes.default,
      uploadMaxFiles: upload.maxFiles.default,
    },
    { ...SERVING_DEFAULTS },
  );
  const cors = site.cors.oneOf[0]!.properties!;
  t.deepEqual(cors.allowMethods.default, [...FILTER_DEFAULTS.corsMethods]);
  t.is(cors.maxAgeSecs.default, FILTER_DEFAULTS.corsMaxAgeSecs);
});

test('every property of the schema has a description', (t) => {
  const missing: string[] = [];
  const walk = (node: unknown, path: string) => {
    if (node === null || typeof node !== 'object') return;
    const properties = (node as { properties?: Record<string, unknown> }).properties;
    for (const [key, value] of Object.entries(properties ?? {})) {
      if (typeof (value as { description?: unknown }).description !== 'string') missing.push(`${path}.${key}`);
    }
    for (const [key, value] of Object.entries(node)) walk(value, `${path}.${key}`);
  };
  walk(structuredClone(SCHEMA), '');
  t.deepEqual(missing, []);
});

// Valid configs built from the schema's own ranges: written as JSON and as YAML they load to one model.
const url = fc.record({ host: fc.constantFrom('127.0.0.1', 'up.test', '[::1]'), port: fc.integer({ min: 1, max: 65535 }) });
const route = (path: string) =>
  fc.record(
    {
      path: fc.constant(path),
      strategy: fc.constantFrom('round-robin', 'weighted-round-robin', 'least-conn', 'random'),
      targets: fc
        .uniqueArray(url, { minLength: 1, maxLength: 4, selector: (u) => `${u.host}:${u.port}` })
        .chain((urls) =>
          fc.tuple(...urls.map((u) => fc.record({ url: fc.constant(`http://${u.host}:${u.port}`), weight: fc.integer({ min: 1, max: 1000 }) }, { requiredKeys: ['url'] }))),
        ),
    },
    { requiredKeys: ['path', 'targets'] },
  );
const site = (port: number) =>
  fc.record(
    {
      host: fc.constantFrom('a.test', 'funf.test', '*', 'B.example'),
      port: fc.constant(port),
      routes: fc.uniqueArray(fc.constantFrom('/', '/api', '/a_b', '/ü'), { maxLength: 3 }).chain((paths) => fc.tuple(...paths.map(route))),
      healthCheck: fc.record({ path: fc.constant('/health'), intervalMs: fc.integer({ min: 50, max: 60_000 }) }, { requiredKeys: [] }),
      retries: fc.record({ attempts: fc.integer({ min: 0, max: 10 }) }, { requiredKeys: [] }),
      ipFilter: fc.record({ deny: fc.array(fc.oneof(fc.ipV4(), fc.ipV6().map((ip) => `${ip}/64`)), { maxLength: 3 }) }),
      cache: fc.record({ ttlMs: fc.integer({ min: 1, max: 600_000 }) }, { requiredKeys: [] }),
      cors: fc.oneof(fc.constant(false), fc.constant({ allowOrigins: ['*'] })),
      hotReload: fc.boolean(),
    },
    { requiredKeys: ['port'] },
  );
const config = fc.record(
  {
    global: fc.record({ admin: fc.constant({ bind: '127.0.0.1:2019', token: '$TOKEN' }), shutdownTimeoutSecs: fc.nat(600) }, { requiredKeys: [] }),
    workers: fc.integer({ min: 1, max: 64 }),
    sites: fc.uniqueArray(fc.integer({ min: 3000, max: 3999 }), { minLength: 1, maxLength: 3 }).chain((ports) => fc.tuple(...ports.map(site))),
  },
  { requiredKeys: ['sites'] },
);

test('property: a valid config written as JSON and as YAML loads to the same model', (t) => {
  fc.assert(
    fc.property(config, (raw) => {
      const folder = join(dir, `prop ${count++} ü`);
      mkdirSync(folder);
      writeFileSync(join(folder, 'gw.json'), JSON.stringify(raw, null, 2));
      writeFileSync(join(folder, 'gw.yaml'), stringify(raw));
      const fromJson = loadConfig(join(folder, 'gw.json'), { TOKEN: 't0ken' });
      const fromYaml = loadConfig(join(folder, 'gw.yaml'), { TOKEN: 't0ken' });
      rmSync(folder, { recursive: true });
      return fromJson.sites.length === raw.sites.length && isDeepStrictEqual({ ...fromJson, path: '', format: '' }, { ...fromYaml, path: '', format: '' });
    }),
    { numRuns: 60 },
  );
  t.pass();
});
