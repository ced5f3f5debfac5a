// `gateway run [-c FILE]` (catalog gateway/cli/run-server): loads the config (an invalid one: `error:
// <field>: <reason>` on stderr, exit 1), starts the gateway and, when global.admin is set, the admin server,
// then prints one ready line. POST /shutdown, SIGTERM and SIGINT all take the same way out: stop accepting,
// drain (bounded by global.shutdownTimeoutSecs), exit 0; a second signal exits at once. With `workers` > 1
// this process is the primary of that many worker processes (node:cluster; runtime/cluster-runtime.ts),
// and a worker, started from the same entry, serves as its primary says (runtime/cluster-worker.ts).
import { listenFailure } from '../../shared/listen-failure.ts';
import { createAdminServer } from '../admin/admin-server.ts';
import { coldChange } from '../config/cold-change.ts';
import { loadConfig } from '../config/load-config.ts';
import { canFork, isGatewayWorker, startCluster } from '../runtime/cluster-runtime.ts';
import { runClusterWorker } from '../runtime/cluster-worker.ts';
import { createGateway } from '../runtime/create-gateway.ts';
import type { GatewayRuntime } from '../runtime/gateway-runtime.ts';
import type { CliIo } from './admin-commands.ts';
import { loadConfigArg } from './load-config-arg.ts';

const hostPort = (host: string, port: number) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

/** The line saying the gateway serves: its public ports, and the admin address when there is one. */
export function readyLine(ports: number[], admin: { host: string; port: number } | undefined): string {
  return `gateway listening on ${ports.join(', ')}${admin === undefined ? '' : ` (admin ${hostPort(admin.host, admin.port)})`}\n`;
}

/** From here on a fault in one request must never end the process: one line, and carry on. */
function keepRunning(log: (line: string) => void): void {
  process.on('uncaughtException', (err) => log(`error: uncaught: ${err.message}`));
  process.on('unhandledRejection', (reason) => log(`error: unhandled rejection: ${reason instanceof Error ? reason.message : String(reason)}`));
}

/** Starts serving and returns undefined (the process then lives until shut down), or an exit code when it
 * cannot start. */
export async function runGateway(args: string[], io: CliIo): Promise<number | undefined> {
  const log = (line: string) => io.stderr(`${line}\n`);
  if (isGatewayWorker()) {
    runClusterWorker(log);
    keepRunning(log);
    return undefined;
  }
  const config = loadConfigArg('run', args, io);
  if (config === undefined) return 1;

  let gateway: (GatewayRuntime & { ports(): number[] }) | undefined;
  let stopping = false;
  let stopAdmin: () => Promise<void> = async () => {};
  const stop = () => {
    // A second signal while draining, or a signal before the gateway is up, means "now".
    if (stopping || gateway === undefined) process.exit(0);
    stopping = true;
    void stopAdmin();
    gateway.shutdown().then(
      () => process.exit(0),
      () => process.exit(0),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  try {
    const options = { loadConfig: (path: string) => loadConfig(path, io.env), coldChange, log };
    const several = config.workers > 1 && canFork();
    if (config.workers > 1 && !several) {
      log(`warning: workers: ${config.workers} needs the gateway to run its own workers, and this process is a worker of another cluster; serving in this process`);
    }
    gateway = several ? await startCluster(config, options) : await createGateway(config, options);
  } catch (err) {
    io.stderr(`error: cannot start the gateway: ${(err as Error).message}\n`);
    return 1;
  }
  let adminAddress: { host: string; port: number } | undefined;
  const adminConfig = config.global.admin;
  if (adminConfig !== undefined) {
    const admin = createAdminServer(gateway, { ...adminConfig, onShutdown: () => stop(), log });
    try {
      adminAddress = await admin.listen();
    } catch (err) {
      await gateway.shutdown();
      io.stderr(`error: global.admin.bind: ${listenFailure(err, adminConfig).reason}\n`);
      return 1;
    }
    stopAdmin = () => admin.close();
  }
  keepRunning(log);
  io.stdout(readyLine(gateway.ports(), adminAddress));
  return undefined;
}
