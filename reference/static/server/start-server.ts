// Startup from config to listening sockets, in the order that makes failures cheap: read and check the
// whole config, build every site (files read, middleware created), then bind the ports.
import { checkSites } from '../config/check-sites.ts';
import { loadConfig } from '../config/load-config.ts';
import { normalizeSites } from '../config/normalize-site.ts';
import { type BuiltSite, buildSite } from '../site/build-site.ts';
import { closeAll, listenAll } from './listen.ts';
import { createServers, type PlannedServer } from './create-servers.ts';

export interface StartOptions {
  /** `--config` as given (file or directory), or undefined to look in `cwd`. */
  config: string | undefined;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Ready lines (stdout). */
  print(line: string): void;
  /** Warning lines (stderr). */
  warn(message: string): void;
}

export interface RunningServer {
  close(): Promise<void>;
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const warn = (message: string) => options.warn(`warning: ${message}`);
  const loaded = loadConfig(options.config, options.cwd, warn);
  const normalized = normalizeSites(loaded.raw, {
    baseDir: loaded.baseDir,
    mode: options.env.NODE_ENV === 'production' ? 'production' : 'development',
    envPort: options.env.PORT,
    warn,
  });
  checkSites(normalized.map((site) => site.config));

  const sites: BuiltSite[] = [];
  let planned: PlannedServer[] = [];
  try {
    for (const site of normalized) sites.push(await buildSite(site));
    planned = createServers(sites);
    await listenAll(planned, options.env.STATIC_BIND || undefined, options.print);
  } catch (error) {
    // Watchers and half-bound servers would keep the process alive after a startup error.
    await closeAll(planned);
    await Promise.all(sites.map((site) => site.close()));
    throw error;
  }

  let closing: Promise<void> | null = null;
  return {
    close() {
      closing ??= (async () => {
        await Promise.all(sites.map((site) => site.close()));
        await closeAll(planned);
      })();
      return closing;
    },
  };
}
