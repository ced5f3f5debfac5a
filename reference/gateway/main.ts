// Command-line entry of the gateway (`gateway <command>`): `run` serves; the admin API shortcuts call a
// running gateway; validate, fmt, init, probe and version work offline. Exit codes: 0 done, 1 failed (an invalid config, an
// error answer, an unreachable address or upstream), 2 bad command line (one line on stderr naming the
// problem, with the synopsis).
import { type CommandName, failureMessage, USAGE_EXIT_CODE, usageErrorLine } from '../shared/command-line.ts';
import { UsageError } from './cli/admin-client.ts';
import { ADMIN_COMMANDS, ADMIN_USAGE, type AdminCommand, runAdminCommand } from './cli/admin-commands.ts';
import { FMT_USAGE, runFmt } from './cli/fmt.ts';
import { INIT_USAGE, type InitIo, runInit } from './cli/init.ts';
import { runProbe } from './cli/probe.ts';
import { runGateway } from './cli/run.ts';
import { runValidate, VALIDATE_USAGE } from './cli/validate.ts';
import { runVersion, VERSION_USAGE } from './cli/version.ts';

const COMMAND: CommandName = { name: 'gateway', synopsis: 'gateway <command> [options]' };

const USAGE = `Usage: ${COMMAND.synopsis}

A reverse-proxy gateway configured by one YAML or JSON file: sites, routes to upstreams, health checks,
retries, cache, rate limits, and a local admin API that the commands below call.

  run [-c FILE]                            start the gateway (FILE defaults to gateway.yaml)

${ADMIN_USAGE}
Offline commands (FILE defaults to gateway.yaml in the working directory):
${VALIDATE_USAGE}${FMT_USAGE}${INIT_USAGE}  probe [-c FILE]                          GET every upstream of the config; exit 1 if any is unreachable
${VERSION_USAGE}  -h, --help                               this text

Exit codes: 0 done, 1 failed (invalid config, error answer, unreachable address), 2 bad command line.
Environment: GATEWAY_ADMIN, GATEWAY_ADMIN_TOKEN (admin commands); run reads the variable a
global.admin.token of the form $NAME names. It keeps no data of its own: it reads the config file and
writes only what the config names (logging.file, upload.dir, certificates uploaded through the admin API).
`;

const io: InitIo = {
  // Only init reads stdin; the stream is made when it asks.
  get stdin() {
    return process.stdin;
  },
  env: process.env,
  cwd: process.cwd(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/** The exit code, or undefined while the gateway serves. */
async function main(argv: string[]): Promise<number | undefined> {
  const [command, ...args] = argv;
  if (command === '--help' || command === '-h' || command === 'help' || args.includes('--help') || args.includes('-h')) {
    io.stdout(USAGE);
    return 0;
  }
  if (command === undefined) throw new UsageError('a command is needed');
  if ((ADMIN_COMMANDS as readonly string[]).includes(command)) return runAdminCommand(command as AdminCommand, args, io);
  switch (command) {
    case 'run':
      return runGateway(args, io);
    case 'probe':
      return runProbe(args, io);
    case 'validate':
      return runValidate(args, io);
    case 'fmt':
      return runFmt(args, io);
    case 'init':
      return runInit(args, io);
    case 'version':
    case '--version':
      return runVersion(args, io);
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof UsageError) {
      io.stderr(usageErrorLine(COMMAND, err.message));
      process.exitCode = USAGE_EXIT_CODE;
    } else {
      io.stderr(`error: ${failureMessage(err)}\n`);
      process.exitCode = 1;
    }
  },
);
