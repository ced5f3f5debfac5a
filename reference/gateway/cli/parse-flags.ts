// Flag parsing shared by the offline commands (validate, fmt, init, version): node:util parseArgs, strict, no
// positionals; anything it refuses is a UsageError naming the command (main prints one line and exits 2).
import type { ParseArgsConfig } from 'node:util';
import { parseCommandLine } from '../../shared/command-line.ts';
import { UsageError } from './admin-client.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

export function parseFlags<T extends Options>(command: string, args: string[], options: T) {
  try {
    return parseCommandLine({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(`${command}: ${(error as Error).message}`);
  }
}
