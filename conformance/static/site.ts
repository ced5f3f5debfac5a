// Starting a static/proxy target for one case: the config is written as `server-config.json` in the
// target's working directory (the documented default name), so `{config}` in a command template is optional.
import type { CaseContext, FileContent, HttpClient, Launched } from '../harness/index.ts';

export const CONFIG_NAME = 'server-config.json';

export type SiteConfig = Record<string, unknown>;

export interface SiteSpec {
  /** One site object, an array of sites, or a function of the reserved ports. A single site object without
   * `port` gets the first reserved port. `null` means: write no config file at all. */
  config: SiteConfig | SiteConfig[] | ((ports: number[]) => unknown) | null;
  files?: Record<string, FileContent>;
  ports?: number;
  env?: Record<string, string | undefined>;
  args?: string[];
  stdin?: string;
  /** Ports the target must listen on before it counts as ready (default: the reserved ones). */
  listen?: number[];
  /** Use this command template instead of the target's (its alias, for example). */
  command?: string;
  /** Reuse the directory of an earlier launch. */
  dir?: string;
  /** Where to write the config, relative to the target directory (default `server-config.json`). */
  configName?: string;
}

export interface Site {
  launched: Launched;
  port: number;
  dir: string;
  http: HttpClient;
  /** A client for another reserved port or protocol. */
  client(port: number, protocol?: 'http' | 'https'): HttpClient;
}

function configText(config: SiteSpec['config'], ports: number[]): string {
  if (typeof config === 'function') return JSON.stringify(config(ports), null, 2);
  if (config !== null && !Array.isArray(config) && config.port === undefined) {
    return JSON.stringify({ port: ports[0], ...config }, null, 2);
  }
  return JSON.stringify(config, null, 2);
}

function launchSpec(spec: SiteSpec, wait: 'ports' | 'exit') {
  return {
    files: spec.files ?? {},
    ...(spec.config === null ? {} : { config: { name: spec.configName ?? CONFIG_NAME, content: (ports: number[]) => configText(spec.config, ports) } }),
    ports: spec.ports ?? 1,
    env: spec.env ?? {},
    args: spec.args ?? [],
    ...(spec.stdin === undefined ? {} : { stdin: spec.stdin }),
    ...(spec.listen ? { listen: spec.listen } : {}),
    ...(spec.dir ? { dir: spec.dir } : {}),
    wait,
  };
}

export async function startSite(c: CaseContext, spec: SiteSpec, protocol: 'http' | 'https' = 'http'): Promise<Site> {
  const launched = await c.launch(launchSpec(spec, 'ports'), spec.command ?? c.target.command);
  const client = (port: number, proto: 'http' | 'https' = 'http'): HttpClient => c.http(`${proto}://127.0.0.1:${port}`);
  return { launched, port: launched.port, dir: launched.dir, http: client(launched.port, protocol), client };
}

export interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The target's directory (still there until the case ends) and reserved ports. */
  dir: string;
  ports: number[];
}

const EXIT_WAIT_MS = 30_000;
/** Once a command expected to end is listening on its port instead, how long it still has to end. */
const SERVING_GRACE_MS = 1_000;

/** Starts the target expecting it to end by itself (startup errors, --help). It did not when it is still
 * running after 30 s, or when it listens on its port and has not ended a second later (it is serving):
 * then `code` is null and `stderr` says which. */
export async function runToExit(c: CaseContext, spec: SiteSpec): Promise<Exit> {
  const launched = await c.launch(launchSpec(spec, 'exit'), spec.command ?? c.target.command);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((done) => {
    timer = setTimeout(() => done('timeout'), EXIT_WAIT_MS);
  });
  const serving = launched.started.then((how) =>
    how === 'listening' ? new Promise<'serving'>((done) => setTimeout(() => done('serving'), SERVING_GRACE_MS)) : new Promise<never>(() => {}),
  );
  const ended = await Promise.race([launched.exited, timeout, serving]);
  clearTimeout(timer);
  if (typeof ended === 'string') {
    const why = ended === 'timeout' ? `still running after ${EXIT_WAIT_MS} ms` : `still running, listening on port ${launched.ports.join(', ')}`;
    return { code: null, stdout: launched.stdout(), stderr: `(${why})\n${launched.stderr()}`, dir: launched.dir, ports: launched.ports };
  }
  return { code: ended.code, stdout: launched.stdout(), stderr: launched.stderr(), dir: launched.dir, ports: launched.ports };
}
