// Packages only some configs use: the access log (morgan), compression, static files (serve-static, with send
// and mime-db) and Redis (ioredis). Each is a chunk of the bundle, imported before a config that needs it is
// built (at start and at each reload), so a start, and every command of the CLI, evaluates none it does not
// use: they were a third of the bundle a start compiled and ran. Building the site table stays synchronous
// (a reload swaps the whole table at once).
import type { GatewayConfig } from '../config/gateway-config.ts';

interface Packages {
  morgan: typeof import('morgan');
  compression: typeof import('compression');
  serveStatic: typeof import('serve-static');
  Redis: typeof import('ioredis').Redis;
}

const loaded: Partial<Packages> = {};

const importers: { [K in keyof Packages]: () => Promise<Packages[K]> } = {
  morgan: async () => (await import('morgan')).default,
  compression: async () => (await import('compression')).default,
  serveStatic: async () => (await import('serve-static')).default,
  // A CommonJS package imported as a chunk of the bundle has only its default export (module.exports).
  Redis: async () => {
    const ioredis = await import('ioredis');
    return ioredis.Redis ?? (ioredis.default as unknown as typeof ioredis).Redis;
  },
};

/** The packages `config` needs. */
function neededBy(config: GatewayConfig): (keyof Packages)[] {
  const needed = new Set<keyof Packages>();
  for (const site of config.sites) {
    const serving = site.serving;
    if (serving?.logging !== undefined) needed.add('morgan');
    if (serving?.compression !== undefined) needed.add('compression');
    if (serving?.static !== undefined) needed.add('serveStatic');
    if (config.global.redis !== undefined && (site.rateLimit?.store === 'redis' || site.cache?.store === 'redis')) needed.add('Redis');
  }
  return [...needed];
}

/** Imports what `config` needs and is not imported yet. */
export async function importPackagesFor(config: GatewayConfig): Promise<void> {
  await Promise.all(
    neededBy(config)
      .filter((name) => loaded[name] === undefined)
      .map(async (name) => {
        (loaded as Record<string, unknown>)[name] = await importers[name]();
      }),
  );
}

/** A package importPackagesFor imported for the config being built. */
export function optionalPackage<K extends keyof Packages>(name: K): Packages[K] {
  const found = loaded[name];
  if (found === undefined) throw new Error(`${name}: not imported before the config that uses it was built (importPackagesFor)`);
  return found as Packages[K];
}
