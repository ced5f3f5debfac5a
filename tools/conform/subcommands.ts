// The runner's subcommands (`conform <command> [options]`): each parses its own options and returns the exit
// code; without one the runner runs the suites (main.ts). Merging shards and comparing runs read back the
// report.json of runs.
import { COMPARE_USAGE, runCompare } from './compare.ts';
import { INIT_USAGE, runInit } from './init.ts';
import { MERGE_USAGE, runMerge } from './merge.ts';
import { UsageError } from './usage-error.ts';

export interface Subcommand {
  name: string;
  /** Printed by `conform <command> --help`. */
  usage: string;
  run(args: string[]): number | Promise<number>;
}

export const SUBCOMMANDS: readonly Subcommand[] = [
  { name: 'init', usage: INIT_USAGE, run: runInit },
  { name: 'merge', usage: MERGE_USAGE, run: runMerge },
  { name: 'compare', usage: COMPARE_USAGE, run: runCompare },
];

/** The subcommand `argv` starts with and its own arguments, or undefined when it starts with an option (or is
 * empty): a run of the suites. A first word naming no command is a usage error. */
export function subcommandOf(argv: string[]): { command: Subcommand; args: string[] } | undefined {
  const [first, ...args] = argv;
  if (first === undefined || first.startsWith('-')) return undefined;
  const command = SUBCOMMANDS.find((c) => c.name === first);
  if (!command) throw new UsageError(`unknown command "${first}" (commands: ${SUBCOMMANDS.map((c) => c.name).join(', ')}; without one, conform runs the suites)`);
  return { command, args };
}
