// The usage text (stdout for --help; a usage error is one line with the synopsis, exit code 2).
import type { CommandName } from '../../shared/command-line.ts';

export { UsageError } from '../../shared/command-line.ts';

export const CLUSTER_ACTIONS = ['start', 'stop', 'restart', 'status', 'logs', 'monitor'] as const;
export type ClusterAction = (typeof CLUSTER_ACTIONS)[number];

export const COMMAND: CommandName = { name: 'static-proxy', synopsis: 'static-proxy [--config FILE|DIR] [--init] [--cluster [ACTION]]' };

export const USAGE = `Usage: static-proxy [options]     (short alias: sp)

Serves static folders and proxies path prefixes to back-end servers, configured by a JSON file.

Options:
  -h, --help                 show this help and exit
  --config <file|dir>        config file, or a directory holding server-config.json
                             (default: ./server-config.json; built-in defaults when it is missing)
  --init                     create a config file interactively (asks before overwriting)
  --cluster [action]         run as a pm2 cluster, one worker per CPU core;
                             action: ${CLUSTER_ACTIONS.join(', ')} (default: start)
  --cluster-config <file>    pm2 ecosystem file (JSON) to use instead of the built-in cluster setup

Environment:
  PORT          port for sites without "port" (default 8000)
  NODE_ENV      "production" serves from a start-up file index and disables hotReload
  STATIC_BIND   address to listen on (default: all interfaces)
  PM2_HOME      pm2's state directory (cluster mode; default ~/.pm2)
  NO_COLOR      no colours in the dev access log (it has them only on a terminal)

It keeps no data of its own: it writes only what the config asks (logging.file, upload.dir) and,
with --init, the config file.

Config keys per site: port, host, folders, proxy, unhandled, headers, redirects, ssl, logging,
hotReload, compression, helmet, cors, favicon, responseTime, rateLimit, basicAuth, healthCheck,
cgi, upload. The file holds one site object or an array of them.
`;
