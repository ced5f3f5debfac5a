import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { ConfigError } from '../config/config-error.ts';
import type { GatewayConfig } from '../config/gateway-config.ts';
import { GatewayError } from './gateway-runtime.ts';
import { ask, askMany, config, route, site, startGateway, startUpstream, until } from './test-support.ts';

/** A loadConfig reading from a variable: what the "file" holds now. */
function fileOf(initial: GatewayConfig) {
  const file = { current: initial as GatewayConfig | Error };
  const loadConfig = (): GatewayConfig => {
    if (file.current instanceof Error) throw file.current;
    return file.current;
  };
  return { file, loadConfig };
}

const limits = { site: { requests: 100, windowMs: 60_000 }, routes: {}, store: 'memory' as const };

test('reload resets runtime target changes and rate-limit counters, keeps runtime denies and the stats of URLs still configured', async (t) => {
  const a = await startUpstream('a');
  const b = await startUpstream('b');
  const c = await startUpstream('c');
  const first = config([site({ routes: [route('/', [a.url, b.url])], rateLimit: limits })]);
  const { file, loadConfig } = fileOf(first);
  const { gateway, port } = await startGateway(first, { loadConfig });
  try {
    await askMany(port, '/', 4);
    gateway.addTarget({ site: undefined, route: '/', target: c.url, weight: 1 });
    gateway.setWeight({ site: undefined, route: '/', target: a.url, weight: 9 });
    gateway.denyAdd('127.0.0.2');
    t.is(gateway.rateLimits()['*:0']!['*']!.passed, 4);

    file.current = config([
      site({ routes: [route('/', [a.url])], rateLimit: limits, notCompiledIn: ['tls.acme'] }),
      site({ host: 'x.test', routes: [], notCompiledIn: ['tls.acme'] }),
    ]);
    const { warnings } = await gateway.reload();
    t.deepEqual(warnings, ['tls.acme: configured but not compiled in']);
    const { upstreams, routes } = gateway.upstreams();
    t.deepEqual(
      routes[0]!.targets.map((x) => [x.url, x.weight]),
      [[a.url, 1]],
    );
    t.deepEqual(
      upstreams.map((u) => [u.url, u.selected.total]),
      [[a.url, 2]],
      'a keeps its stats; b and the runtime addition are gone',
    );
    t.deepEqual(gateway.rateLimits(), { '*:0': { '*': { passed: 0, rejected: 0 } } });
    t.is(gateway.status().sites, 2);
    t.is((await ask(port, '/', { localAddress: '127.0.0.2' })).status, 403, 'runtime denies persist');
    t.is((await ask(port, '/')).body, 'a');
  } finally {
    await gateway.shutdown();
    await Promise.all([a, b, c].map((u) => u.close()));
  }
});

test('a reload that drops healthCheck makes its upstreams healthy and unprobed again', async (t) => {
  const a = await startUpstream('a', (_req, res) => res.writeHead(500).end());
  const hc = { path: '/health', intervalMs: 20, timeoutMs: 200, healthyThreshold: 1, unhealthyThreshold: 1 };
  const first = config([site({ routes: [route('/', [a.url])], healthCheck: hc })]);
  const { file, loadConfig } = fileOf(first);
  const { gateway } = await startGateway(first, { loadConfig });
  try {
    await until(() => gateway.upstreams().upstreams[0]!.state === 'unhealthy', 3000, 'a unhealthy');
    file.current = config([site({ routes: [route('/', [a.url])] })]);
    await gateway.reload();
    t.like(gateway.upstreams().upstreams[0], { healthy: true, state: 'healthy', latency_ms: null, consecutive_failures: 0 });
    t.is(gateway.status().total_probed_upstreams, 0);
  } finally {
    await gateway.shutdown();
    await a.close();
  }
});

test('a rejected reload (invalid file, unreadable file, cold change) is bad-request and changes nothing', async (t) => {
  const a = await startUpstream('a');
  const b = await startUpstream('b');
  const first = config([site({ routes: [route('/', [a.url])], rateLimit: limits })]);
  const { file, loadConfig } = fileOf(first);
  const { gateway, port } = await startGateway(first, {
    loadConfig,
    coldChange: (old, next) => (old.workers === next.workers ? undefined : 'workers'),
  });
  try {
    gateway.addTarget({ site: undefined, route: '/', target: b.url, weight: 1 });
    await ask(port, '/');
    file.current = new ConfigError('sites[0].routes[0].strategy', 'must be one of round-robin, …');
    const invalid = await t.throwsAsync(gateway.reload(), { instanceOf: GatewayError });
    t.is(invalid?.code, 'bad-request');
    t.is(invalid?.message, 'sites[0].routes[0].strategy: must be one of round-robin, …');
    file.current = new Error('ENOENT: no such file or directory');
    const unreadable = await t.throwsAsync(gateway.reload(), { instanceOf: GatewayError });
    t.is(unreadable?.code, 'bad-request');
    t.true(unreadable?.message.startsWith(`${first.path}: `));
    file.current = { ...first, workers: 4 };
    const cold = await t.throwsAsync(gateway.reload(), { instanceOf: GatewayError });
    t.is(cold?.code, 'bad-request');
    t.regex(cold?.message ?? '', /^workers: .*restart is required/);
    t.is(gateway.upstreams().routes[0]!.targets.length, 2, 'the runtime change is kept');
    t.is(gateway.rateLimits()['*:0']!['*']!.passed, 1, 'the counters are kept');
  } finally {
    await gateway.shutdown();
    await a.close();
    await b.close();
  }
});

test('requests under way finish on the config they started with', async (t) => {
  const held: Array<() => void> = [];
  const a = await startUpstream('a', (_req, res) => held.push(() => res.end('a')));
  const b = await startUpstream('b');
  const first = config([site({ routes: [route('/', [a.url])] })]);
  const { file, loadConfig } = fileOf(first);
  const { gateway, port } = await startGateway(first, { loadConfig });
  try {
    const pending = ask(port, '/');
    await until(() => held.length === 1, 3000, 'the request to reach a');
    file.current = config([site({ routes: [route('/', [b.url])] })]);
    await gateway.reload();
    t.is((await ask(port, '/')).body, 'b');
    held[0]!();
    t.is((await pending).body, 'a');
  } finally {
    for (const release of held) release();
    await gateway.shutdown();
    await a.close();
    await b.close();
  }
});

test('hotReload: a change to the file reloads; a bad edit is logged and the running config kept', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-watch-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'gateway.json');
  const a = await startUpstream('a');
  const b = await startUpstream('b');
  const write = (url: string | undefined) =>
    writeFileSync(path, url === undefined ? '{ broken' : JSON.stringify(config([site({ routes: [route('/', [url])] })], { path, hotReload: true })));
  write(a.url);
  const loadConfig = (p: string): GatewayConfig => {
    try {
      return JSON.parse(readFileSync(p, 'utf8')) as GatewayConfig;
    } catch (error) {
      throw new ConfigError(p, (error as Error).message);
    }
  };
  const { gateway, port, logs } = await startGateway(loadConfig(path), { loadConfig });
  try {
    t.is((await ask(port, '/')).body, 'a');
    await new Promise((resolve) => setTimeout(resolve, 200));
    write(b.url);
    await until(() => logs.some((line) => line.startsWith('config reloaded')), 5000, 'the reload');
    t.is((await ask(port, '/')).body, 'b');
    write(undefined);
    await until(() => logs.some((line) => line.startsWith('config reload failed')), 5000, 'the failed reload');
    t.is((await ask(port, '/')).body, 'b');
  } finally {
    await gateway.shutdown();
    await a.close();
    await b.close();
  }
});

test('reloads run one at a time: one waiting for a package to be imported never applies its file over a newer one', async (t) => {
  const a = await startUpstream('a');
  const b = await startUpstream('b');
  const first = config([site({ routes: [route('/', [a.url])] })]);
  const { file, loadConfig } = fileOf(first);
  const { gateway, port } = await startGateway(first, { loadConfig });
  try {
    // This file's compression section needs its package imported (not yet, in this process), the next one nothing.
    const serving = { proxy: { preserveHost: false, forwardedHeaders: true }, static: undefined, middleware: [], logging: undefined, compression: { minBytes: 1024 }, upload: undefined };
    file.current = config([site({ routes: [route('/', [a.url])], serving })]);
    const older = gateway.reload();
    file.current = config([site({ routes: [route('/', [b.url])] })]);
    const newer = gateway.reload();
    await Promise.all([older, newer]);
    t.is((await ask(port, '/')).body, 'b', 'the file as it was last read is the one in force');
  } finally {
    await gateway.shutdown();
    await Promise.all([a, b].map((u) => u.close()));
  }
});
