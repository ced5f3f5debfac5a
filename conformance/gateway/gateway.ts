// Starting the target gateway for a case (or once for a test file): its ports reserved (one per site, then
// the admin server's), the neutral setup rendered into the target's config file, the command started with
// `{config}` and `{port}` (the first site's port), ready once every site port and the admin port accept
// connections. The gateway object gives data-plane clients (also from other loopback source addresses)
// and an admin client with the setup's token.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientOptions } from '../harness/http-client.ts';
import { reportStart } from '../harness/events.ts';
import { type CaseContext, type FileContent, type HttpClient, launch, type Launched, type LaunchSpec } from '../harness/index.ts';
import { perFile } from '../harness/per-file.ts';
import { AdminClient } from './admin-client.ts';
import { type GatewaySetup, neutralOf, portsOf, type Rendered, renderConfig, tokenOf } from './setup.ts';
import { CONFIG_NAME, target } from './target.ts';

export interface StartOptions {
  /** Files beside the config (certificates, say). */
  files?: Record<string, FileContent>;
  env?: Record<string, string | undefined>;
  /** The config file's name instead of the description's (and `{config}` naming it). */
  configName?: string;
  /** Rewrites the rendered config text before it is written (another format of the same config). */
  transform?: (text: string) => string;
}

export interface Gateway {
  launched: Launched;
  rendered: Rendered;
  dir: string;
  configPath: string;
  /** A data-plane client of site `i` (https for a site with tls). */
  site(i?: number, options?: ClientOptions): HttpClient;
  /** Site 0's data plane. */
  http: HttpClient;
  /** Site `i`'s data plane, connecting from another loopback address (127.0.0.2…). */
  from(address: string, i?: number): HttpClient;
  /** The Host header that reaches site `i` (its host and port; none for a site of any host). */
  hostHeader(i?: number): Record<string, string>;
  /** The admin API with the setup's token (a setup without admin has none: calling it is a case error). */
  admin: AdminClient;
  /** Rewrites the config file from `setup` on the same ports and token (for a reload). */
  rewrite(setup: GatewaySetup): Promise<Rendered>;
}

function launchSpec(setup: GatewaySetup, options: StartOptions, token: string | undefined, keep: (r: Rendered) => void): LaunchSpec {
  return {
    files: options.files ?? {},
    config: {
      name: options.configName ?? CONFIG_NAME,
      content: async (ports) => {
        const partial = neutralOf(setup, ports, token);
        const text = await renderConfig(partial.neutral);
        const rendered = { ...partial, text: options.transform ? options.transform(text) : text };
        keep(rendered);
        return rendered.text;
      },
    },
    ports: portsOf(setup),
    env: options.env ?? {},
  };
}

function gatewayOf(c: CaseContext, launched: Launched, setup: GatewaySetup, rendered: Rendered): Gateway {
  const protocolOf = (i: number): 'http' | 'https' => (setup.sites[i]?.tls ? 'https' : 'http');
  const site = (i = 0, options: ClientOptions = {}): HttpClient => c.http(`${protocolOf(i)}://127.0.0.1:${rendered.sitePorts[i]}`, options);
  const adminAddress = `127.0.0.1:${rendered.adminPort ?? 0}`;
  const configPath = launched.configPath ?? join(launched.dir, CONFIG_NAME);
  return {
    launched,
    rendered,
    dir: launched.dir,
    configPath,
    site,
    http: site(0),
    from: (address, i = 0) => site(i, { localAddress: address }),
    hostHeader: (i = 0): Record<string, string> => {
      const host = setup.sites[i]?.host;
      return host === undefined || host === '*' ? {} : { host: `${host}:${rendered.sitePorts[i]}` };
    },
    admin: new AdminClient(c.http(`http://${adminAddress}`), adminAddress, rendered.token),
    rewrite: async (next) => {
      const partial = neutralOf(next, [...rendered.sitePorts, ...(rendered.adminPort === undefined ? [] : [rendered.adminPort])], rendered.token);
      const again = { ...partial, text: await renderConfig(partial.neutral) };
      writeFileSync(configPath, again.text);
      c.note(`# ${CONFIG_NAME} rewritten: ${again.text.replace(/\s*\n\s*/g, ' ')}`);
      return again;
    },
  };
}

/** A gateway of the case's own, stopped when the case ends. */
export async function startGateway(c: CaseContext, setup: GatewaySetup, options: StartOptions = {}): Promise<Gateway> {
  let rendered: Rendered | undefined;
  const launched = await c.launch(launchSpec(setup, options, tokenOf(setup), (r) => (rendered = r)));
  const g = gatewayOf(c, launched, setup, rendered!);
  setups.set(g, { setup, options });
  return g;
}

const setups = new WeakMap<Gateway, { setup: GatewaySetup; options: StartOptions }>();
const STOP_WAIT_MS = 10_000;

/** Ends the process of a gateway of the case (SIGTERM, SIGKILL after 10 s); its folder and ports stay. */
export async function stopProcess(g: Gateway): Promise<void> {
  g.launched.kill('SIGTERM');
  const timer = setTimeout(() => g.launched.kill('SIGKILL'), STOP_WAIT_MS);
  await g.launched.exited;
  clearTimeout(timer);
}

/** A restart: ends `g`'s process and starts the target again in the same folder with the config file as
 * it is now, on the same ports (still reserved for the case; `{port}` is a fresh one). */
export async function restartGateway(c: CaseContext, g: Gateway): Promise<Gateway> {
  const known = setups.get(g);
  if (!known) throw new Error('restartGateway: not a gateway of startGateway');
  await stopProcess(g);
  const text = readFileSync(g.configPath, 'utf8');
  const ports = [...g.rendered.sitePorts, ...(g.rendered.adminPort === undefined ? [] : [g.rendered.adminPort])];
  const launched = await c.launch({ dir: g.dir, config: { name: CONFIG_NAME, content: text }, ports: 1, listen: ports, env: known.options.env ?? {} });
  const again = gatewayOf(c, launched, known.setup, { ...g.rendered, text });
  setups.set(again, known);
  return again;
}

interface Shared {
  launched: Launched;
  setup: GatewaySetup;
  rendered: Rendered;
}

const sharedGateways = perFile<Shared>((s) => s.launched.stop());

/** A gateway of the test file, started once under `key` from the setup `make` gives (for cases that
 * leave its configuration and state as they found them, or change only what is theirs). */
export async function sharedGateway(c: CaseContext, key: string, make: () => Promise<GatewaySetup> | GatewaySetup, options: StartOptions = {}): Promise<Gateway> {
  const shared = await reportStart(
    c.id,
    sharedGateways(key, async () => {
      const setup = await make();
      let rendered: Rendered | undefined;
      const launched = await launch(target.command!, target.env ?? {}, launchSpec(setup, options, tokenOf(setup), (r) => (rendered = r)));
      return { launched, setup, rendered: rendered! };
    }),
  );
  c.note(`# gateway shared by the test file (${key}): ${shared.rendered.text.replace(/\s*\n\s*/g, ' ')}`);
  c.note(`# started as: (cd ${shared.launched.dir} && ${shared.launched.envLine} ${shared.launched.commandLine})`);
  return gatewayOf(c, shared.launched, shared.setup, shared.rendered);
}

export interface Refusal {
  /** Exit code; null when the target served instead of ending (or did not end in time). */
  code: number | null;
  serving: boolean;
  stderr: string;
}

const REFUSAL_WAIT_MS = 20_000;
/** Once the target listens, how long it still has to end before it counts as serving. */
const SERVING_GRACE_MS = 1000;

/** Starts the target on a setup it should refuse (an invalid config): it must end with a non-zero status
 * instead of serving. */
export async function startRefused(c: CaseContext, setup: GatewaySetup, options: StartOptions = {}): Promise<Refusal> {
  const spec = { ...launchSpec(setup, options, tokenOf(setup), () => undefined), wait: 'exit' as const };
  const launched = await c.launch(spec);
  const timers: NodeJS.Timeout[] = [];
  const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => timers.push(setTimeout(() => resolve(value), ms)));
  const serving = launched.started.then((how) => (how === 'listening' ? after(SERVING_GRACE_MS, 'serving' as const) : new Promise<never>(() => {})));
  const ended = await Promise.race([launched.exited, serving, after(REFUSAL_WAIT_MS, 'timeout' as const)]);
  // Timers left running would keep the test file's process alive after its cases.
  for (const timer of timers) clearTimeout(timer);
  if (typeof ended === 'string') return { code: null, serving: ended === 'serving', stderr: `(${ended === 'serving' ? 'serving' : `still running after ${REFUSAL_WAIT_MS} ms`})\n${launched.stderr()}` };
  return { code: ended.code, serving: false, stderr: launched.stderr() };
}

/** Loopback source addresses other than 127.0.0.1, a fresh one per call in this worker (each case or
 * property run that denies a client uses its own, so a deny never touches another case's requests). */
let nextAddress = 1;
export function clientAddress(): string {
  nextAddress++;
  return `127.0.${Math.floor(nextAddress / 250)}.${(nextAddress % 250) + 2}`;
}
