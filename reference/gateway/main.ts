// Command-line entry of the gateway (`gateway <command>`): the admin API shortcuts. Exit codes: 0 done,
// 1 failed (an error answer, an unreachable admin server), 2 bad command line (usage on stderr).
import { UsageError } from './cli/admin-client.ts';
import { ADMIN_COMMANDS, ADMIN_USAGE, type AdminCommand, type CliIo, runAdminCommand } from './cli/admin-commands.ts';

const USAGE = `Usage: gateway <command> [options]

${ADMIN_USAGE}
  -h, --help                               this text

Exit codes: 0 done, 1 failed (error answer, unreachable address), 2 bad command line.
`;

const io: CliIo = {
  env: process.env,
  cwd: process.cwd(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command === '--help' || command === '-h' || command === 'help' || args.includes('--help') || args.includes('-h')) {
    io.stdout(USAGE);
    return 0;
  }
  if (command === undefined) throw new UsageError('a command is needed');
  if ((ADMIN_COMMANDS as readonly string[]).includes(command)) return runAdminCommand(command as AdminCommand, args, io);
  throw new UsageError(`unknown command "${command}"`);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
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
