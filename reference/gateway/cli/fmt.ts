// `gateway fmt [-c FILE] [--write]` (catalog gateway/cli/fmt, fmt-behaviour): formats the config (default
// gateway.yaml in the working directory) canonically in its own format (config/format-config.ts: YAML keeps
// its comments). Without --write the result goes to stdout and the file is untouched; with --write the file
// is replaced atomically when the text changes, and one line says what happened. A file that cannot be read
// or parsed: `error: <path>: <reason>` on stderr, exit 1, the file untouched. Validity is not checked (that
// is `validate`). Bad flags: UsageError (2).
//
//   runFmt(args: string[], io: CliIo): Promise<number>   args are those after `fmt`
import { ConfigError, resolveConfigPath } from '../config/load-config.ts';
import { formatConfigText } from '../config/format-config.ts';
import { configFormat, readConfigText } from '../config/read-config-file.ts';
import type { CliIo } from './admin-commands.ts';
import { parseFlags } from './parse-flags.ts';
import { writeFileAtomic } from './write-file-atomic.ts';

export const FMT_USAGE = '  fmt [-c FILE] [--write]                  print the config formatted, or rewrite the file\n';

export async function runFmt(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags('fmt', args, { config: { type: 'string', short: 'c' }, write: { type: 'boolean', short: 'w' } });
  const path = resolveConfigPath(flags.config, io.cwd);
  let text: string;
  let formatted: string;
  try {
    text = readConfigText(path);
    formatted = formatConfigText(text, configFormat(path), path);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr(`error: ${error.message}\n`);
    return 1;
  }
  if (flags.write !== true) {
    io.stdout(formatted);
    return 0;
  }
  if (formatted === text) {
    io.stdout(`${path}: already formatted\n`);
    return 0;
  }
  try {
    writeFileAtomic(path, formatted);
  } catch (error) {
    io.stderr(`error: ${path}: cannot write the formatted file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})\n`);
    return 1;
  }
  io.stdout(`${path}: formatted\n`);
  return 0;
}
