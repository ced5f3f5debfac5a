// The command line of the permitted-variant gateway other than the server. The commands that read a config
// read the variant's own (variant-gateway-config.ts). Without `own-cli` they word their output as the
// reference does, and the admin shortcuts, version and help are the reference's (reference/gateway/main.ts).
// With `own-cli` every command is the variant's: text output, its own exit codes (3 an error answer, 4 an
// unreachable admin API, 64 a usage error), GATEWAY_ADMIN before --admin (host:port only), no --site for
// remove and weight, its own table (addresses as host:port), validate/fmt/init/probe wording, edge.yaml as the
// default file, the version as `-V` only.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { send, UnreachableError } from '../../../reference/gateway/cli/admin-client.ts';
import { probeLine, probeUrl, upstreamUrls } from '../../../reference/gateway/cli/probe.ts';
import { writeFileAtomic } from '../../../reference/gateway/cli/write-file-atomic.ts';
import { runFmt } from '../../../reference/gateway/cli/fmt.ts';
import { ConfigError } from '../../../reference/gateway/config/config-error.ts';
import type { GatewayConfig } from '../../../reference/gateway/config/gateway-config.ts';
import { notCompiledInWarnings } from '../../../reference/gateway/config/load-config.ts';
import { configFormat, parseConfigText, readConfigText } from '../../../reference/gateway/config/read-config-file.ts';
import { VARIANT_NAME, VARIANT_VERSION } from './variant-gateway-admin.ts';
import { loadVariantConfig, VARIANT_CONFIG_FILE } from './variant-gateway-config.ts';
import { sortKeys } from './variant-gateway-http.ts';
import type { GatewayVariant } from './variant-gateway-variants.ts';

type On = (v: GatewayVariant) => boolean;

const EXIT = { ok: 0, failed: 1, answer: 3, unreachable: 4, usage: 64 } as const;

export class VariantUsageError extends Error {}

const USAGE = `usage: ${VARIANT_NAME} <command> [options]

  serve [-c FILE]                 run the gateway (FILE defaults to ${VARIANT_CONFIG_FILE})
  status [--upstream]             the gateway's status, or its upstreams as a table
  reload | shutdown               reload the config file | stop the gateway
  upstreams                       routes and upstreams
  upstreams add --route P --target URL [--weight N] [--site LABEL]
  upstreams remove --route P --target URL
  upstreams weight --route P --target URL --weight N
  validate | probe [-c FILE]      check the config | try every upstream (TCP)
  fmt [-c FILE] [--write]         print the config with sorted keys, or rewrite it
  init [--yes] [-o FILE]          write a starter config
  -V                              the version

The admin API: $GATEWAY_ADMIN, else --admin HOST:PORT, else 127.0.0.1:2019; token: $GATEWAY_ADMIN_TOKEN.
Exit status: 0 done, 1 invalid or unreachable upstream, 3 the admin API refused, 4 admin API unreachable, 64 usage.
`;

const out = (text: string) => process.stdout.write(text);
const err = (text: string) => process.stderr.write(text);

function flags<T extends NonNullable<Parameters<typeof parseArgs>[0]>['options']>(args: string[], options: T, positionals = false) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: positionals });
  } catch (e) {
    throw new VariantUsageError((e as Error).message);
  }
}

const loadCtx = (on: On) => ({ on, env: process.env, warn: (line: string) => err(`${line}\n`) });
const defaultFile = (on: On) => (on('own-cli') ? VARIANT_CONFIG_FILE : 'gateway.yaml');

// ---------------------------------------------------------------- the admin shortcuts (own-cli)

function adminAddress(flag: string | undefined): string {
  const fromEnv = process.env.GATEWAY_ADMIN || undefined;
  const address = fromEnv ?? flag ?? '127.0.0.1:2019';
  if (!/^([^\s/:[\]]+|\[[0-9A-Fa-f:.]+\]):\d{1,5}$/.test(address)) throw new VariantUsageError(`admin address "${address}" is not HOST:PORT`);
  return address;
}

interface Call {
  method: 'GET' | 'POST';
  path: string;
  body?: Record<string, unknown>;
  print: (json: Record<string, unknown>) => string;
}

const lines = (json: Record<string, unknown>) =>
  Object.entries(json)
    .map(([k, v]) => `${`${k}:`.padEnd(24)}${typeof v === 'object' ? JSON.stringify(v) : String(v)}\n`)
    .join('');

function table(json: Record<string, unknown>): string {
  const rows = [['TARGET', 'STATE', 'OK', 'LAST_MS', 'CONNS', 'PICKED']];
  for (const e of (json.upstreams ?? []) as Record<string, unknown>[]) {
    const picked = (e.selected as { total?: unknown } | undefined)?.total;
    // The address column names host:port, without the scheme (gateway/cli/status-upstream-columns).
    const address = typeof e.url === 'string' && URL.canParse(e.url) ? new URL(e.url).host : e.url;
    rows.push([address, e.state, e.healthy === true ? 'yes' : 'no', e.latency_ms ?? '-', e.active_connections ?? '-', picked ?? '-'].map(String));
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => `${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')}\n`).join('');
}

function listingText(json: Record<string, unknown>): string {
  return ((json.routes ?? []) as Record<string, unknown>[])
    .map((r) => `${String(r.site)} ${String(r.path)} (${String(r.strategy)})\n${((r.targets ?? []) as Record<string, unknown>[]).map((t) => `  -> ${String(t.url)} weight ${String(t.weight)}\n`).join('')}`)
    .join('');
}

function shortcut(command: string, args: string[]): { call: Call; admin: string | undefined } {
  const { values, positionals } = flags(
    args,
    { admin: { type: 'string' }, upstream: { type: 'boolean' }, route: { type: 'string' }, target: { type: 'string' }, weight: { type: 'string' }, site: { type: 'string' } },
    true,
  );
  const [action, ...rest] = positionals;
  if (rest.length > 0 || (action !== undefined && command !== 'upstreams')) throw new VariantUsageError(`unexpected argument "${rest[0] ?? action}"`);
  const allowed = (...names: string[]) => {
    const extra = Object.keys(values).find((k) => k !== 'admin' && !names.includes(k));
    if (extra !== undefined) throw new VariantUsageError(`${command}${action ? ` ${action}` : ''} does not take --${extra}`);
  };
  const need = (...names: (keyof typeof values)[]) => {
    for (const n of names) if (values[n] === undefined) throw new VariantUsageError(`${command} ${action} needs --${n}`);
  };
  let call: Call;
  if (command === 'status') {
    allowed('upstream');
    call = values.upstream ? { method: 'GET', path: '/upstreams', print: table } : { method: 'GET', path: '/status', print: lines };
  } else if (command === 'reload') {
    allowed();
    call = { method: 'POST', path: '/reload', print: (j) => `reloaded: ${String(j.message ?? '')}\n${((j.warnings ?? []) as string[]).map((w) => `warning: ${w}\n`).join('')}` };
  } else if (command === 'shutdown') {
    allowed();
    call = { method: 'POST', path: '/shutdown', print: () => 'the gateway is shutting down\n' };
  } else if (action === undefined) {
    allowed();
    call = { method: 'GET', path: '/upstreams', print: listingText };
  } else if (action === 'add' || action === 'remove' || action === 'weight') {
    // remove and weight take no --site: they change the route on every site having it.
    allowed(...(action === 'add' ? ['route', 'target', 'weight', 'site'] : action === 'weight' ? ['route', 'target', 'weight'] : ['route', 'target']));
    need(...(action === 'weight' ? (['route', 'target', 'weight'] as const) : (['route', 'target'] as const)));
    const body: Record<string, unknown> = { route: values.route, target: values.target };
    if (values.weight !== undefined) {
      if (!/^\d+$/.test(values.weight)) throw new VariantUsageError(`--weight wants a whole number, not "${values.weight}"`);
      body.weight = Number(values.weight);
    }
    if (values.site !== undefined) body.site = values.site;
    call = { method: 'POST', path: `/upstreams/${action}`, body, print: (j) => `${action}: ${String(j.target)} on ${String(j.route)} (${String(j.site)})${j.weight === undefined ? '' : ` weight ${String(j.weight)}`}${j.removed === false ? ' - not found' : ''}\n` };
  } else throw new VariantUsageError(`unknown upstreams action "${action}"`);
  return { call, admin: values.admin };
}

async function runShortcut(command: string, args: string[]): Promise<number> {
  const { call, admin } = shortcut(command, args);
  const address = adminAddress(admin);
  const token = process.env.GATEWAY_ADMIN_TOKEN || undefined;
  const headers: Record<string, string> = { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  let answer: { status: number; text: string };
  try {
    answer = await send(new URL(`http://${address}${call.path}`), { method: call.method, headers, ...(call.body ? { body: JSON.stringify(call.body) } : {}), timeoutMs: 15_000 });
  } catch (e) {
    if (!(e instanceof UnreachableError)) throw e;
    err(`${VARIANT_NAME}: cannot reach the admin API at ${address}: ${e.message}\n`);
    return EXIT.unreachable;
  }
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(answer.text) as Record<string, unknown>;
  } catch {
    // shown as text below
  }
  if (answer.status < 200 || answer.status > 299) {
    const why = json.message ?? json.error_description ?? (answer.text.trim() || 'no reason given');
    err(`${VARIANT_NAME}: the admin API refused (${answer.status}): ${String(why)}${answer.status === 401 ? ' - is GATEWAY_ADMIN_TOKEN right?' : ''}\n`);
    return EXIT.answer;
  }
  out(call.print(json));
  return EXIT.ok;
}

// ---------------------------------------------------------------- the offline commands

function validate(args: string[], on: On): number {
  const { values } = flags(args, { config: { type: 'string', short: 'c' } });
  const path = resolve(values.config ?? defaultFile(on));
  let config: GatewayConfig;
  try {
    config = loadVariantConfig(path, loadCtx(on));
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    err(on('own-cli') ? `${VARIANT_NAME}: invalid configuration in ${path}:\n  ${e.message}\n` : `error: ${e.message}\n`);
    return EXIT.failed;
  }
  for (const warning of notCompiledInWarnings(config)) err(`warning: ${warning}\n`);
  const routes = config.sites.flatMap((s) => s.routes);
  if (on('own-cli')) out(`configuration OK\n  ${config.sites.length} site(s), ${routes.length} route(s) in ${path}\n`);
  else out(`${path}: valid (${config.sites.length} sites, ${routes.length} routes)\n`);
  return EXIT.ok;
}

async function probe(args: string[], on: On): Promise<number> {
  const { values } = flags(args, { config: { type: 'string', short: 'c' } });
  let config: GatewayConfig;
  try {
    config = loadVariantConfig(resolve(values.config ?? defaultFile(on)), loadCtx(on));
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    err(`${on('own-cli') ? `${VARIANT_NAME}: ` : 'error: '}${e.message}\n`);
    return EXIT.failed;
  }
  const urls = upstreamUrls(config);
  if (!on('own-cli')) {
    const results = await Promise.all(urls.map((url) => probeUrl(url)));
    for (const result of results) out(probeLine(result));
    return results.every((r) => r.status !== undefined) ? EXIT.ok : EXIT.failed;
  }
  // Reachable: a TCP connection to the upstream's host and port within 3 s.
  const results = await Promise.all(
    urls.map(
      (url) =>
        new Promise<string | undefined>((done) => {
          const u = new URL(url);
          const socket = connect({ host: u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port || (u.protocol === 'https:' ? 443 : 80)), timeout: 3000 });
          socket.once('connect', () => {
            socket.destroy();
            done(undefined);
          });
          socket.once('timeout', () => {
            socket.destroy();
            done('no connection within 3 s');
          });
          socket.once('error', (e) => done(e.message));
        }),
    ),
  );
  for (const [i, url] of urls.entries()) out(results[i] === undefined ? `UP    ${url}\n` : `DOWN  ${url}  (${results[i]})\n`);
  return results.every((r) => r === undefined) ? EXIT.ok : EXIT.failed;
}

/** fmt with own-cli: the config with its keys sorted, in its own format (comments are not kept). */
function fmt(args: string[], on: On): number {
  const { values } = flags(args, { config: { type: 'string', short: 'c' }, write: { type: 'boolean', short: 'w' } });
  const path = resolve(values.config ?? defaultFile(on));
  let text: string;
  try {
    const format = configFormat(path);
    const value = sortKeys(parseConfigText(readConfigText(path), format, path));
    text = format === 'json' ? `${JSON.stringify(value, null, 2)}\n` : stringify(value);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    err(`${VARIANT_NAME}: cannot format: ${e.message}\n`);
    return EXIT.failed;
  }
  if (!values.write) out(text);
  else {
    writeFileAtomic(path, text);
    out(`${path} rewritten\n`);
  }
  return EXIT.ok;
}

const STARTER = {
  global: { admin: { bind: '127.0.0.1:2019' } },
  sites: [{ port: 8080, routes: [{ prefix: '/', upstreams: [{ address: 'http://127.0.0.1:3000' }] }] }],
};

async function init(args: string[], on: On): Promise<number> {
  const { values } = flags(args, { yes: { type: 'boolean', short: 'y' }, output: { type: 'string', short: 'o' } });
  const path = resolve(values.output ?? defaultFile(on));
  if (existsSync(path) && !values.yes) {
    out(`${path} exists. Replace it? Type "yes" to confirm: `);
    const rl = createInterface({ input: process.stdin, terminal: false });
    const answer = await new Promise<string>((done) => {
      rl.once('line', (line) => done(line.trim()));
      rl.once('close', () => done(''));
    });
    rl.close();
    out('\n');
    if (answer !== 'yes') {
      err(`${path} kept as it was\n`);
      return EXIT.failed;
    }
  }
  const json = configFormat(path) === 'json';
  const text = json
    ? `${JSON.stringify(STARTER, null, 2)}\n`
    : `# ${VARIANT_NAME} configuration (durations are written with a unit: 500ms, 2s, 1m)\n${stringify(STARTER)}`;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  out(on('own-cli') ? `created ${path}\n` : `wrote ${path}\n`);
  return EXIT.ok;
}

/** Runs a command other than `serve`; the exit code. */
export async function runVariantCli(argv: string[], on: On): Promise<number | undefined> {
  const [command = '', ...args] = argv;
  try {
    switch (command) {
      case 'validate':
        return validate(args, on);
      case 'probe':
        return await probe(args, on);
      case 'init':
        return await init(args, on);
      case 'fmt':
        if (!on('own-cli')) {
          const io = { env: process.env, cwd: process.cwd(), stdout: out, stderr: err };
          return await runFmt(args, io);
        }
        return fmt(args, on);
    }
    if (!on('own-cli')) {
      // The reference's shortcuts, version and help.
      process.argv = [...process.argv.slice(0, 2), ...argv];
      await import('../../../reference/gateway/main.ts');
      return undefined;
    }
    switch (command) {
      case 'status':
      case 'reload':
      case 'shutdown':
      case 'upstreams':
        return await runShortcut(command, args);
      // Its version as `-V` only, as some tools have it (gateway/versioning/version-command; the description's
      // versionArgs says so).
      case '-V':
        out(`${VARIANT_NAME} ${VARIANT_VERSION}\n`);
        return EXIT.ok;
      case 'help':
      case '--help':
      case '-h':
        out(USAGE);
        return EXIT.ok;
      default:
        throw new VariantUsageError(`unknown command "${command}"`);
    }
  } catch (e) {
    if (!(e instanceof VariantUsageError)) throw e;
    err(`${VARIANT_NAME}: ${e.message}\n\n${USAGE}`);
    return on('own-cli') ? EXIT.usage : 2;
  }
}
