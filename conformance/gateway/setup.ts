// A case's gateway setup in ONE neutral form — the reference's config key set (spec/gateway.yaml
// gateway/config/site-key-set) — and its rendering into the target's own config file: through the adapter
// command of the target's description (neutral form as JSON on stdin, config text on stdout), or, without
// one, the neutral form itself written as YAML (JSON when the config name ends in .json).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { stringify } from 'yaml';
import { Inconclusive } from '../harness/inconclusive.ts';
import { expandTemplate, PROJECT_ROOT } from '../harness/launch.ts';
import { CONFIG_NAME, description } from './target.ts';

export interface TargetSetup {
  url: string;
  weight?: number;
}

export interface RouteSetup {
  path: string;
  strategy?: string;
  /** URLs, or {url, weight}. */
  targets: (string | TargetSetup)[];
}

/** A site of the neutral form; `port` is filled from the case's reserved ports when absent. */
export interface SiteSetup {
  host?: string;
  port?: number;
  tls?: { cert: string; key: string } & Record<string, unknown>;
  routes?: RouteSetup[];
  healthCheck?: { path?: string; intervalMs?: number; timeoutMs?: number; healthyThreshold?: number; unhealthyThreshold?: number };
  outlierDetection?: { consecutive5xx?: number; baseEjectionMs?: number; maxEjectionMs?: number };
  retries?: { attempts: number };
  rateLimit?: { requests?: number; windowMs?: number; routes?: Record<string, { requests: number; windowMs: number }> };
  ipFilter?: { deny: string[] };
  cache?: { ttlMs?: number; maxEntries?: number };
  metrics?: { path?: string };
  [section: string]: unknown;
}

export interface AdminSetup {
  /** The bearer token; default a random one; `null`: no token. */
  token?: string | null;
  /** Written as `global.admin.token` instead of the token (a `$NAME` reference, say). */
  tokenValue?: string;
}

export interface GatewaySetup {
  sites: SiteSetup[];
  /** The admin server: default on a reserved loopback port with a random token; `false`: no `global.admin`. */
  admin?: AdminSetup | false;
  /** More `global` keys (shutdownTimeoutSecs). */
  global?: Record<string, unknown>;
  /** More top-level keys (workers, hotReload). */
  top?: Record<string, unknown>;
}

/** The neutral form as written (what the adapter reads). */
export type NeutralConfig = Record<string, unknown> & { sites: SiteSetup[] };

export interface Rendered {
  neutral: NeutralConfig;
  /** The config file's text in the target's format. */
  text: string;
  sitePorts: number[];
  adminPort: number | undefined;
  token: string | undefined;
}

/** How many ports a setup reserves: one per site, then the admin server's. */
export const portsOf = (setup: GatewaySetup): number => setup.sites.length + (setup.admin === false ? 0 : 1);

export const randomToken = (): string => `tok-${randomBytes(12).toString('hex')}`;

/** The neutral form of `setup` on `ports` (from portsOf), with the admin token chosen now. */
export function neutralOf(setup: GatewaySetup, ports: number[], token: string | undefined): Omit<Rendered, 'text'> {
  const sites = setup.sites.map((site, i) => ({
    ...site,
    port: site.port ?? ports[i]!,
    ...(site.routes ? { routes: site.routes.map((r) => ({ ...r, targets: r.targets.map((x) => (typeof x === 'string' ? { url: x } : x)) })) } : {}),
  }));
  const adminPort = setup.admin === false ? undefined : ports[setup.sites.length];
  const global: Record<string, unknown> = { ...setup.global };
  if (setup.admin !== false) {
    const tokenValue = setup.admin?.tokenValue ?? token;
    global.admin = { bind: `127.0.0.1:${adminPort}`, ...(tokenValue === undefined ? {} : { token: tokenValue }) };
  }
  const neutral: NeutralConfig = { ...(Object.keys(global).length > 0 ? { global } : {}), ...setup.top, sites };
  return { neutral, sitePorts: sites.map((s) => s.port), adminPort, token };
}

/** The admin token a setup asks for (random unless given, none when `null` or without admin). */
export function tokenOf(setup: GatewaySetup): string | undefined {
  if (setup.admin === false) return undefined;
  if (setup.admin?.token === null) return undefined;
  return setup.admin?.token ?? randomToken();
}

/** The config file text of the neutral form in the target's format. */
export async function renderConfig(neutral: NeutralConfig | Record<string, unknown>, configName = CONFIG_NAME): Promise<string> {
  if (description.adapter) return runAdapter(description.adapter, neutral);
  return configName.endsWith('.json') ? `${JSON.stringify(neutral, null, 2)}\n` : stringify(neutral);
}

const ADAPTER_TIMEOUT_MS = 15_000;

/** Runs the adapter without blocking: the case's upstreams and clients live in this process's event loop (a
 * synchronous run stalls them for as long as the adapter takes, seconds on a loaded machine). */
function runAdapter(template: string, neutral: unknown): Promise<string> {
  const command = expandTemplate(template, { root: PROJECT_ROOT, node: process.execPath });
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd: PROJECT_ROOT, stdio: ['pipe', 'pipe', 'pipe'], timeout: ADAPTER_TIMEOUT_MS });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdin.on('error', () => {}); // an adapter that exits without reading: its exit status says why
    child.stdin.end(JSON.stringify(neutral));
    const refused = (why: string) =>
      new Inconclusive(`the target's adapter refused the setup (${command}: ${why}): ${stderr.slice(0, 800)}\nsetup: ${JSON.stringify(neutral)}`);
    child.on('error', (error) => reject(refused(error.message)));
    child.on('close', (code, signal) => (code === 0 ? resolve(stdout) : reject(refused(`exit ${code ?? signal}`))));
  });
}

/** A route's targets as {url, weight} as the neutral form writes them. */
export const targetUrl = (t: string | TargetSetup): string => (typeof t === 'string' ? t : t.url);
