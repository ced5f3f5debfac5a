// Command-line entry of the static/proxy server (`static-proxy`, alias `sp`). Parses flags, runs one of
// help / init / cluster / serve, and turns every startup failure into one `error: <key>: <reason>` line.
// Exit codes: 0 done or stopped by a signal, 1 startup error, 2 bad command line (one line on stderr).
import { failureMessage, parseCommandLine, USAGE_EXIT_CODE, usageErrorLine } from '../shared/command-line.ts';
import { ConfigError } from './config/config-error.ts';
import { resolveConfigPath } from './config/load-config.ts';
import { CLUSTER_ACTIONS, COMMAND, type ClusterAction, USAGE, UsageError } from './cli/help.ts';
import { startServer } from './server/start-server.ts';

interface Command {
  help: boolean;
  init: boolean;
  cluster: ClusterAction | null;
  config: string | undefined;
  clusterConfig: string | undefined;
}

const print = (line: string) => process.stdout.write(`${line}\n`);
const printError = (line: string) => process.stderr.write(`${line}\n`);

function parseCommand(argv: string[]): Command {
  // `--cluster=status` is accepted as well as `--cluster status`; the action is an optional positional.
  const args = argv.flatMap((arg) => (arg.startsWith('--cluster=') ? ['--cluster', arg.slice(10)] : [arg]));
  const { values, positionals } = parseFlags(args);
  let cluster: ClusterAction | null = null;
  if (values.cluster) {
    if (positionals.length > 1) throw new UsageError(`--cluster takes one action, got: ${positionals.join(' ')}`);
    const action = positionals[0] ?? 'start';
    if (!CLUSTER_ACTIONS.includes(action as ClusterAction)) {
      throw new UsageError(`unknown --cluster action "${action}"; allowed: ${CLUSTER_ACTIONS.join(', ')}`);
    }
    cluster = action as ClusterAction;
  } else if (positionals.length > 0) {
    throw new UsageError(`unexpected argument '${positionals[0]}'`);
  }
  if (values.config === '') throw new UsageError('--config needs a file or directory');
  if (values['cluster-config'] !== undefined && cluster === null) throw new UsageError('--cluster-config needs --cluster');
  if (values.init && cluster !== null) throw new UsageError('--init and --cluster cannot be combined');
  return {
    help: values.help ?? false,
    init: values.init ?? false,
    cluster,
    config: values.config,
    clusterConfig: values['cluster-config'],
  };
}

function parseFlags(args: string[]) {
  return parseCommandLine({
    args,
    strict: true,
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      config: { type: 'string' },
      init: { type: 'boolean' },
      cluster: { type: 'boolean' },
      'cluster-config': { type: 'string' },
    },
  });
}

async function run(command: Command): Promise<number> {
  const cwd = process.cwd();
  if (command.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command.init) {
    const { runInit } = await import('./cli/init.ts');
    await runInit({ configPath: resolveConfigPath(command.config, cwd), input: process.stdin, output: process.stdout });
    return 0;
  }
  if (command.cluster !== null) {
    const { runCluster } = await import('./cli/cluster.ts');
    return runCluster({
      action: command.cluster,
      configPath: resolveConfigPath(command.config, cwd),
      configExplicit: command.config !== undefined,
      clusterConfig: command.clusterConfig,
      cwd,
      print,
    });
  }
  await serve(command.config, cwd);
  return -1;
}

async function serve(config: string | undefined, cwd: string): Promise<void> {
  // Signals are handled from the start: a port accepts connections (and a supervisor may stop the server)
  // before startServer has returned.
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let stopping = false;
  const stop = () => {
    // A second signal while closing, or one before the server is up, means "now".
    if (stopping || server === undefined) process.exit(0);
    stopping = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(0),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  server = await startServer({ config, cwd, env: process.env, print, warn: printError });
  // From here on a fault in one request must never end the process: log one line and carry on.
  process.on('uncaughtException', (error) => printError(`error: uncaught: ${error.message}`));
  process.on('unhandledRejection', (reason) => printError(`error: unhandled rejection: ${failureMessage(reason)}`));
}

async function main(): Promise<void> {
  let command: Command;
  try {
    command = parseCommand(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(usageErrorLine(COMMAND, failureMessage(error)));
    process.exit(USAGE_EXIT_CODE);
  }
  try {
    const code = await run(command);
    if (code >= 0) process.exit(code);
  } catch (error) {
    if (error instanceof ConfigError) printError(`error: ${error.key}: ${error.reason}`);
    else printError(`error: ${failureMessage(error)}`);
    process.exit(1);
  }
}

await main();
