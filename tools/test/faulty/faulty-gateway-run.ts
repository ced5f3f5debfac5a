// `run` of the faulty gateway: the reference's gateway (createGateway) and admin server (createAdminServer),
// put together as `gateway run` does, with the faulty pieces in between — the config loader, the runtime
// decorator the admin server is given, a layer in front of the admin server and of the public listeners —
// and the faults of the process (how POST /shutdown ends it).
import type { IncomingMessage } from 'node:http';
import { createAdminServer } from '../../../reference/gateway/admin/admin-server.ts';
import { readyLine } from '../../../reference/gateway/cli/run.ts';
import { parseFlags } from '../../../reference/gateway/cli/parse-flags.ts';
import { ConfigError, resolveConfigPath } from '../../../reference/gateway/config/load-config.ts';
import type { GatewayConfig } from '../../../reference/gateway/config/gateway-config.ts';
import { createGateway, type Gateway } from '../../../reference/gateway/runtime/create-gateway.ts';
import { adminLayer } from './faulty-gateway-admin.ts';
import { faultyColdChange, loadFaultyConfig } from './faulty-gateway-config.ts';
import { faultsOf, type GatewayFault } from './faulty-gateway-faults.ts';
import { capturing, type Layer, putInFront, sendJson } from './faulty-gateway-http.ts';
import { FaultyRuntime, type RuntimeContext } from './faulty-gateway-runtime.ts';

const faults = faultsOf(process.env);
const on = (f: GatewayFault): boolean => faults.has(f);
const log = (line: string) => process.stderr.write(`${line}\n`);
/** How long after start-up the admin-always-on fault opens its admin server. */
const ADMIN_LATE_MS = 500;

/** The data plane's layer: what it records for the runtime's faults, and its own faults. */
function publicLayer(traffic: RuntimeContext['traffic'], config: () => GatewayConfig): Layer {
  return (req: IncomingMessage, res, next) => {
    const address = req.socket.remoteAddress;
    traffic.lastClient = address?.startsWith('::ffff:') ? address.slice(7) : address;
    if (req.method === 'GET' && req.url !== undefined) traffic.urls.add(req.url);
    if (on('health-status-up') && req.url === '/__health__') return sendJson(res, 200, { status: 'up' });
    if (on('basic-auth-any-password') || on('api-key-prefix') || on('consumer-unknown-admitted')) credentialFaults(req, config());
    next();
  };
}

/** Puts the configured secret in place of one the faults let pass (the auth sections of the sites on the
 * port the request came to). */
function credentialFaults(req: IncomingMessage, config: GatewayConfig): void {
  for (const site of config.sites.filter((s) => s.port === req.socket.localPort)) {
    const basic = /^basic +(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (on('basic-auth-any-password') && basic !== undefined && site.auth?.basic !== undefined) {
      const name = Buffer.from(basic, 'base64').toString('utf8').split(':')[0];
      const user = site.auth.basic.users.find((u) => u.username === name);
      if (user !== undefined) req.headers.authorization = `Basic ${Buffer.from(`${name}:${user.password}`).toString('base64')}`;
    }
    const consumers = site.auth?.consumers;
    const header = site.auth?.apiKey?.header ?? 'x-api-key';
    const sent = req.headers[header];
    if (on('consumer-unknown-admitted') && consumers !== undefined && typeof sent === 'string' && sent !== '') {
      const keys = consumers.flatMap((c) => c.apiKeys);
      if (!keys.includes(sent) && keys[0] !== undefined) req.headers[header] = keys[0];
    }
    const apiKey = site.auth?.apiKey;
    const given = apiKey === undefined ? undefined : req.headers[apiKey.header];
    if (on('api-key-prefix') && typeof given === 'string') {
      const key = apiKey!.keys.find((k) => given.startsWith(k));
      if (key !== undefined) req.headers[apiKey!.header] = key;
    }
  }
}

/** Serves until shut down (undefined), or the exit code when it cannot start. */
export async function runFaultyGateway(args: string[]): Promise<number | undefined> {
  const { config: file } = parseFlags('run', args, { config: { type: 'string', short: 'c' } });
  let config: GatewayConfig;
  try {
    config = loadFaultyConfig(resolveConfigPath(file, process.cwd()), process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`error: ${error.message}\n`);
    return 1;
  }
  let running = config;
  let pending = config;
  const loadConfig = (path: string) => {
    pending = loadFaultyConfig(path, process.env, running);
    return pending;
  };
  let gateway: Gateway;
  let servers: RuntimeContext['servers'];
  try {
    ({ value: gateway, servers } = await capturing(() => createGateway(config, { loadConfig, coldChange: faultyColdChange, log })));
  } catch (error) {
    process.stderr.write(`error: cannot start the gateway: ${(error as Error).message}\n`);
    return 1;
  }
  const traffic: RuntimeContext['traffic'] = { lastClient: undefined, urls: new Set() };
  for (const server of servers) putInFront(server, publicLayer(traffic, () => running));
  const runtime = new FaultyRuntime(gateway, {
    config: () => running,
    reloaded: () => {
      running = pending;
    },
    servers,
    traffic,
  });

  let stopping = false;
  let closeAdmin = async () => {};
  const stop = () => {
    if (stopping) process.exit(0);
    stopping = true;
    void closeAdmin();
    gateway.shutdown().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  const openAdmin = async (admin: { host: string; port: number; token: string | undefined }): Promise<{ host: string; port: number }> => {
    const server = createAdminServer(runtime, { ...admin, onShutdown: () => shutdownAsked(runtime, gateway, running.global.shutdownTimeoutSecs, stop, () => closeAdmin()), log });
    const listened = await capturing(() => server.listen());
    for (const s of listened.servers) putInFront(s, adminLayer(runtime, admin.token));
    closeAdmin = () => server.close();
    return listened.value;
  };
  let adminAddress: { host: string; port: number } | undefined;
  if (config.global.admin !== undefined) {
    try {
      adminAddress = await openAdmin(config.global.admin);
    } catch (error) {
      await gateway.shutdown();
      process.stderr.write(`error: global.admin.bind: cannot listen: ${(error as Error).message}\n`);
      return 1;
    }
  } else if (on('admin-always-on')) {
    // Late in start-up, well after the sites accept connections.
    setTimeout(() => void openAdmin({ host: '127.0.0.1', port: 0, token: undefined }).catch(() => {}), ADMIN_LATE_MS);
  }
  process.on('uncaughtException', (err) => log(`error: uncaught: ${err.message}`));
  process.stdout.write(readyLine(gateway.ports(), adminAddress));
  process.stderr.write(`faulty gateway, faults: ${[...faults].join(', ') || 'none'}\n`);
  return undefined;
}

/** POST /shutdown has been answered: what the faults of the process make of it. */
function shutdownAsked(runtime: FaultyRuntime, gateway: Gateway, timeoutSecs: number, stop: () => void, closeAdmin: () => Promise<void>): void {
  if (on('shutdown-noop')) return;
  if (on('shutdown-no-drain')) process.exit(0);
  if (on('shutdown-stays-up')) {
    void closeAdmin();
    void gateway.shutdown();
    setInterval(() => {}, 60_000);
    return;
  }
  if (on('shutdown-listens-while-draining')) {
    // The drain is still bounded by shutdownTimeoutSecs; only the listeners stay open during it.
    const until = Date.now() + timeoutSecs * 1000;
    const wait = setInterval(() => {
      if (runtime.status().inflight > 0 && Date.now() < until) return;
      clearInterval(wait);
      stop();
    }, 50);
    return;
  }
  stop();
}
