// Binds every planned server (address from STATIC_BIND, else node's default of all interfaces), prints
// the ready line per port, and closes them again on shutdown.
import type { AddressInfo } from 'node:net';
import { ConfigError } from '../config/config-error.ts';
import type { PlannedServer } from './create-servers.ts';

/** Time in-flight requests get on shutdown before open connections (event streams) are cut. */
const CLOSE_GRACE_MS = 2000;

export async function listenAll(
  planned: PlannedServer[],
  bind: string | undefined,
  print: (line: string) => void,
): Promise<void> {
  for (const entry of planned) {
    const address = await listenOne(entry, bind);
    const host = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
    print(`listening on ${entry.protocol}://${host}:${address.port}`);
  }
}

function listenOne(entry: PlannedServer, bind: string | undefined): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => reject(bindError(error, entry, bind));
    entry.server.once('error', onError);
    const onListening = () => {
      entry.server.off('error', onError);
      resolve(entry.server.address() as AddressInfo);
    };
    if (bind) entry.server.listen(entry.port, bind, onListening);
    else entry.server.listen(entry.port, onListening);
  });
}

/** Platform bind errors mapped to one-line startup errors (the one place that knows these codes). */
function bindError(error: NodeJS.ErrnoException, entry: PlannedServer, bind: string | undefined): ConfigError {
  const where = bind ? `${bind}:${entry.port}` : `port ${entry.port}`;
  switch (error.code) {
    case 'EADDRINUSE':
      return new ConfigError(entry.key, `${where} is already in use`, { cause: error });
    case 'EACCES':
      return new ConfigError(entry.key, `permission denied to listen on ${where}`, { cause: error });
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new ConfigError('STATIC_BIND', `cannot bind to address ${JSON.stringify(bind)}`, { cause: error });
    default:
      return new ConfigError(entry.key, `cannot listen on ${where} (${error.code ?? error.message})`, { cause: error });
  }
}

/** Stops accepting, lets in-flight requests finish for a moment, then cuts whatever is still open. */
export async function closeAll(planned: PlannedServer[]): Promise<void> {
  await Promise.all(
    planned.map(
      ({ server }) =>
        new Promise<void>((resolve) => {
          if (!server.listening) return resolve();
          const timer = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
          server.close(() => {
            clearTimeout(timer);
            resolve();
          });
          server.closeIdleConnections();
        }),
    ),
  );
}
