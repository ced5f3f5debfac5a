// What every command of the package does with its command line (clig.dev): a bad command line is one line
// on stderr naming the problem, with the synopsis and a pointer to --help, and exit code 2; a failure to
// start is one line naming the cause and exit code 1, never a stack trace.
import { type ParseArgsConfig, parseArgs } from 'node:util';

export const USAGE_EXIT_CODE = 2;
export const FAILURE_EXIT_CODE = 1;

/** A bad command line (unknown flag, missing or malformed value, stray argument): exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** How a command names itself in a usage error: `gateway`, `gateway <command> [options]`. */
export interface CommandName {
  name: string;
  synopsis: string;
}

/** node:util parseArgs (strict unless `config` says otherwise); what it refuses is a UsageError in a few
 * words ("unknown option '--x'", "--port needs a value"), not Node's paragraph. */
export function parseCommandLine<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    throw new UsageError(parseProblem(error as Error & { code?: string }));
  }
}

/** Node's parseArgs error in a few words. */
function parseProblem(error: Error & { code?: string }): string {
  const quoted = [...error.message.matchAll(/'([^']*)'/g)].map((m) => m[1] ?? '');
  // "-c, --config <value>": the option as either spelling, without the placeholder.
  const option = (quoted[0] ?? '').replace(/^(-\w), /, '$1/').replace(/ <value>$/, '');
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option '${option}'`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument '${option}'`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (error.message.includes('argument missing')) return `${option} needs a value`;
      if (error.message.includes('does not take an argument')) return `${option} takes no value`;
      if (error.message.includes('ambiguous')) return `${option} needs a value (one starting with '-' is written ${option}=-VALUE)`;
      break;
  }
  return firstLine(error.message);
}

/** The one line of a usage error. */
export function usageErrorLine(command: CommandName, problem: string): string {
  return `error: ${firstLine(problem)} (usage: ${command.synopsis}; ${command.name} --help for more)\n`;
}

/** Writes the usage error's line and exits 2. */
export function exitUsageError(command: CommandName, problem: string): never {
  process.stderr.write(usageErrorLine(command, problem));
  process.exit(USAGE_EXIT_CODE);
}

/** Writes one failure line (its first line only) and exits 1. */
export function exitFailure(line: string): never {
  process.stderr.write(`${firstLine(line)}\n`);
  process.exit(FAILURE_EXIT_CODE);
}

/** What went wrong, in one line: the message (never the stack) of an error, or the thing thrown. */
export function failureMessage(error: unknown): string {
  return firstLine(error instanceof Error ? error.message : String(error));
}

const firstLine = (text: string): string => text.split('\n', 1)[0]!.trim();
