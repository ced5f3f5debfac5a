// Starting a static/proxy target for one case: the config is written as `server-config.json` in the
// target's working directory (the documented default name), so `{config}` in a command template is optional.
import type { ExecutionContext } from 'ava';
import { claimForCase } from '../harness/fixed-port.ts';
import type { CaseContext, FileContent, HttpClient, Launched } from '../harness/index.ts';
import { portOpen } from '../harness/launch.ts';

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

/** Starts the target's command expecting nothing in particular (a cluster manager may return at once or
 * stay in the foreground): the caller watches `exited` and the ports itself. */
export function startCommand(c: CaseContext, spec: SiteSpec): Promise<Launched> {
  return c.launch(launchSpec(spec, 'exit'), spec.command ?? c.target.command);
}

export interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The target's directory (still there until the case ends) and reserved ports. */
  dir: string;
  ports: number[];
}

export interface ExitOptions {
  /** Whether the target listening on its reserved port counts as serving instead of ending (default true);
   * off where the case itself holds that port (a port-in-use check). */
  servingCheck?: boolean;
  /** Further ports whose opening also means the target is serving instead of ending (a fallback to the
   * documented default port 8000). Only ports the case has claimed. */
  alsoServing?: number[];
}

const EXIT_WAIT_MS = 30_000;
/** Once a command expected to end is listening on its port instead, how long it still has to end. */
const SERVING_GRACE_MS = 1_000;
const POLL_MS = 100;

/** Resolves 'serving' once one of `ports` accepts connections (a second after), never if none does. */
async function watchPorts(ports: number[], ended: () => boolean): Promise<'serving'> {
  // A port already open (something else on the machine) tells nothing.
  const watched = (await Promise.all(ports.map(async (p) => ((await portOpen(p)) ? undefined : p)))).filter((p) => p !== undefined);
  while (!ended()) {
    for (const p of watched) {
      if (await portOpen(p)) return new Promise((done) => setTimeout(() => done('serving'), SERVING_GRACE_MS));
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  return new Promise<never>(() => {});
}

/** Starts the target expecting it to end by itself (startup errors, --help). It did not when it is still
 * running after 30 s, or when it listens on its port (or one of `alsoServing`) and has not ended a second
 * later (it is serving): then `code` is null and `stderr` starts with a line in parentheses saying which. */
export async function runToExit(c: CaseContext, spec: SiteSpec, options: ExitOptions = {}): Promise<Exit> {
  const launched = await c.launch(launchSpec(spec, 'exit'), spec.command ?? c.target.command);
  let over = false;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((done) => {
    timer = setTimeout(() => done('timeout'), EXIT_WAIT_MS);
  });
  const never = new Promise<never>(() => {});
  const serving =
    options.servingCheck === false
      ? never
      : launched.started.then((how) =>
          how === 'listening' ? new Promise<'serving'>((done) => setTimeout(() => done('serving'), SERVING_GRACE_MS)) : never,
        );
  const fallback = options.alsoServing?.length ? watchPorts(options.alsoServing, () => over) : never;
  const ended = await Promise.race([launched.exited, timeout, serving, fallback]);
  over = true;
  clearTimeout(timer);
  if (typeof ended === 'string') {
    const why = ended === 'timeout' ? `still running after ${EXIT_WAIT_MS} ms` : `still running, serving on port ${[...launched.ports, ...(options.alsoServing ?? [])].join(' or ')}`;
    return { code: null, stdout: launched.stdout(), stderr: `(${why})\n${launched.stderr()}`, dir: launched.dir, ports: launched.ports };
  }
  return { code: ended.code, stdout: launched.stdout(), stderr: launched.stderr(), dir: launched.dir, ports: launched.ports };
}

/** The verdict of a startup-error clause: the process ended with a non-zero status. A target still running
 * (serving instead) did not refuse the configuration, and the failure says so in those words. */
export function refused(t: ExecutionContext, exit: Exit, what: string): boolean {
  if (exit.code === null) {
    const why = /^\((.*)\)$/m.exec(exit.stderr)?.[1] ?? 'did not end';
    t.fail(`${what} was not refused: the target started anyway (${why})\n${exit.stderr.split('\n').slice(1).join('\n').slice(0, 800)}`);
    return false;
  }
  return t.not(exit.code, 0, `${what}: the process ended with status 0; stderr: ${exit.stderr.slice(0, 800)}`);
}

/** The documented default port: claimed in the port registry for the whole case (cases of other workers
 * wait), without asking it to be free. For cases where a wrong target may fall back to it. */
export async function holdDefaultPort(c: CaseContext): Promise<number> {
  await claimForCase(c, DEFAULT_PORT);
  return DEFAULT_PORT;
}

export const DEFAULT_PORT = 8000;

export type Mode = 'development' | 'production';

/** The environment added to a start in `mode`: the values of NODE_ENV that select a mode are not given
 * (static/config/node-env-mode), so a description may name them as `modeEnv`; without one, NODE_ENV is the
 * mode's name. */
export function modeEnv(c: CaseContext, mode: Mode): Record<string, string> {
  const described = (c.target.description?.modeEnv as Partial<Record<Mode, Record<string, string>>> | undefined)?.[mode];
  return described ?? { NODE_ENV: mode };
}

/** A path no step of a case's site answers. */
export const NOTHING_HERE = '/conform-nothing-here.txt';

/** The status `site` gives a path no step handles: whatever it is, static/unhandled/default-404 judges it. A
 * case about a path falling through ("like any other path") compares with it, so a target whose built-in
 * not-found answer is not 404 turns that clause red, not this one. */
export async function fallThroughStatus(c: CaseContext, site: Site): Promise<number> {
  return (await c.need(`GET ${NOTHING_HERE} (a path no step handles, to compare with)`, site.http.get(NOTHING_HERE))).status;
}

// ---------------------------------------------------------------- interactive commands on a terminal

export interface TerminalSpec extends Omit<SiteSpec, 'stdin'> {
  /** [regular expression source, flags, answer]: the first whose expression finds the question answers. */
  answers?: [string, string, string][];
  /** The answer to any other question. */
  otherwise?: string;
  /** After this many answers the terminal is closed (end of input). */
  maxAnswers?: number;
}

export interface Conversation extends Exit {
  /** The questions in the order asked (their last line, without terminal codes), with the answers given. */
  questions: { asked: string; answered: string }[];
}

/** Runs the target's command on a pseudo-terminal (tty-driver.mjs), answering each question as it
 * appears, and waits for it to end as runToExit does. */
export async function converse(c: CaseContext, spec: TerminalSpec): Promise<Conversation> {
  const { answers = [], otherwise = '', maxAnswers = 12, ...site } = spec;
  const command = `{node} {root}/conformance/static/tty-driver.mjs -- ${site.command ?? c.target.command}`;
  const settings = JSON.stringify({ answers, otherwise, maxAnswers });
  const exit = await runToExit(c, { ...site, command, env: { ...site.env, CONFORM_TTY: settings } });
  const questions = [...exit.stderr.matchAll(/^tty-driver: asked (".*") answered (".*")$/gm)].map((m) => ({
    asked: JSON.parse(m[1]!) as string,
    answered: JSON.parse(m[2]!) as string,
  }));
  return { ...exit, questions };
}
