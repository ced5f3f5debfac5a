// The packages a config needs are imported before it is built, and only those: a config without the
// sections leaves them unloaded (the accessor says so rather than returning nothing).
import test from 'ava';
import { validateConfig } from '../config/load-config.ts';
import { importPackagesFor, optionalPackage } from './optional-packages.ts';

const load = (site: object, global: object = {}) =>
  validateConfig({ global, sites: [{ port: 80, routes: [{ path: '/', targets: [{ url: 'http://127.0.0.1:9001' }] }], ...site }] }, '/etc/gateway/gateway.yaml', 'yaml', {});

// One test: the packages a process imported stay imported, so the order of the steps matters.
test('a plain config imports nothing; each serving section and a Redis store import their package', async (t) => {
  await importPackagesFor(load({}));
  for (const name of ['morgan', 'compression', 'serveStatic', 'Redis'] as const) {
    t.throws(() => optionalPackage(name), { message: /not imported/ }, name);
  }
  await importPackagesFor(load({ logging: true, compression: true, static: { root: 'www' } }));
  t.is(typeof optionalPackage('morgan'), 'function');
  t.is(typeof optionalPackage('compression'), 'function');
  t.is(typeof optionalPackage('serveStatic'), 'function');
  t.throws(() => optionalPackage('Redis'), { message: /not imported/ }, 'a memory store needs no Redis');
  await importPackagesFor(load({ rateLimit: { requests: 5, store: 'redis' } }, { redis: { url: 'redis://127.0.0.1:6379' } }));
  t.is(typeof optionalPackage('Redis'), 'function');
});
