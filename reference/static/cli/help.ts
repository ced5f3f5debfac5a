// The usage text (stdout for --help, stderr with exit code 2 for a usage error).

export const CLUSTER_ACTIONS = ['start', 'stop', 'restart', 'status', 'logs', 'monitor'] as const;
export type ClusterAction = (typeof CLUSTER_ACTIONS)[number];

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
  PM2_HOME      pm2's state directory (cluster mode)

Config keys per site: port, host, folders, proxy, unhandled, headers, redirects, ssl, logging,
hotReload, compression, helmet, cors, favicon, responseTime, rateLimit, basicAuth, healthCheck,
cgi, upload. The file holds one site object or an array of them.
`;

/** Thrown for a bad command line; main prints it with the usage text and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
