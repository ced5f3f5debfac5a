// `gateway version` and `gateway --version` (catalog gateway/versioning/version-command): the bare semantic
// version on stdout, exit 0. Arguments: UsageError (2).
//
//   runVersion(args: string[], io: CliIo): Promise<number>   args are those after `version`
import { UsageError } from './admin-client.ts';
import type { CliIo } from './admin-commands.ts';

/** The release of this gateway: v1.1 of the admin API (the upstream fields added in v1.1 are served). */
export const GATEWAY_VERSION = '1.1.0';

export const VERSION_USAGE = '  version, --version                       print the version\n';

export async function runVersion(args: string[], io: CliIo): Promise<number> {
  if (args.length > 0) throw new UsageError(`version: unexpected argument "${args[0]}"`);
  io.stdout(`${GATEWAY_VERSION}\n`);
  return 0;
}
