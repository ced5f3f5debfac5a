// Command-line entry of the gateway (`gateway <command>`): `run` serves; the admin API shortcuts call a
// running gateway; `probe` checks the config's upstreams. Exit codes: 0 done, 1 failed (an invalid config, an
// error answer, an unreachable address or upstream), 2 bad command line (usage on stderr).
import { UsageError } from './cli/admin-client.ts';
import { ADMIN_COMMANDS, ADMIN_USAGE, type AdminCommand, type CliIo, runAdminCommand } from './cli/admin-commands.ts';
import { runProbe } from './cli/probe.ts';
import { runGateway } from './cli/run.ts';

const USAGE = `Usage: gateway <command> [options]

  run [-c FILE]                            start the gateway (FILE defaults to gateway.yaml)

${ADMIN_USAGE}
Offline commands:
  probe [-c FILE]                          GET every upstream of the config; exit 1 if any is unreachable
  -h, --help                               this text

Exit codes: 0 done, 1 failed (invalid config, error answer, unreachable address), 2 bad command line.
`;

const io: CliIo = {
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
      io.stderr(`error: ${err.message}\n\n${USAGE}`);
      process.exitCode = 2;
    } else {
      io.stderr(`error: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    }
  },
);
