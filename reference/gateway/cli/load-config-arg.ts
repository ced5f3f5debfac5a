// The `-c FILE` of the commands that read the config (catalog gateway/cli/config-flag, default-file-name):
// the file given, else gateway.yaml in the working directory, loaded and validated; an invalid or unreadable
// file is one `error: <field>: <reason>` line on stderr.
import type { GatewayConfig } from '../config/gateway-config.ts';
import { ConfigError, loadConfig, resolveConfigPath } from '../config/load-config.ts';
import type { CliIo } from './admin-commands.ts';
import { parseFlags } from './parse-flags.ts';

/** The loaded config, or undefined once the error has been written. Throws UsageError for other flags. */
export function loadConfigArg(command: string, args: string[], io: CliIo): GatewayConfig | undefined {
  const { config: file } = parseFlags(command, args, { config: { type: 'string', short: 'c' } });
  try {
    return loadConfig(resolveConfigPath(file, io.cwd), io.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    io.stderr(`error: ${err.message}\n`);
    return undefined;
  }
}
