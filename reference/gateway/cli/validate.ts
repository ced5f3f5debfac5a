// `gateway validate [-c FILE]` (catalog gateway/cli/validate-exit-codes, validate-output): loads the config
// exactly as `run` and POST /reload do (default gateway.yaml in the working directory), and reads its TLS
// pairs as a start does (config/tls-pair.ts). Valid: one line
// `<path>: valid (…)` on stdout, a `warning:` line on stderr per section configured but not compiled in,
// exit 0. Invalid or unreadable: `error: <field>: <reason>` on stderr, exit 1. Bad flags: UsageError (2).
//
//   runValidate(args: string[], io: CliIo): Promise<number>   args are those after `validate`
import { ConfigError, loadConfig, notCompiledInWarnings, resolveConfigPath } from '../config/load-config.ts';
import { tlsFileProblems } from '../config/tls-pair.ts';
import type { CliIo } from './admin-commands.ts';
import { parseFlags } from './parse-flags.ts';

export const VALIDATE_USAGE = '  validate [-c FILE]                       check a config file: exit 0 valid, 1 invalid\n';

export async function runValidate(args: string[], io: CliIo): Promise<number> {
  const { config: file } = parseFlags('validate', args, { config: { type: 'string', short: 'c' } });
  const path = resolveConfigPath(file, io.cwd);
  try {
    const config = loadConfig(path, io.env);
    // The TLS files as a start reads them: a pair that would not start is not valid.
    const tls = tlsFileProblems(config);
    if (tls.length > 0) {
      for (const problem of tls) io.stderr(`error: ${problem}\n`);
      return 1;
    }
    for (const warning of notCompiledInWarnings(config)) io.stderr(`warning: ${warning}\n`);
    const routes = config.sites.flatMap((site) => site.routes);
    const targets = routes.reduce((sum, route) => sum + route.targets.length, 0);
    io.stdout(`${path}: valid (${plural(config.sites.length, 'site')}, ${plural(routes.length, 'route')}, ${plural(targets, 'target')})\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr(`error: ${error.message}\n`);
    return 1;
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
