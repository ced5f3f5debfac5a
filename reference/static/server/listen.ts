// Binds every planned server (address from STATIC_BIND, else node's default of all interfaces), prints
// the ready line per port, and closes them again on shutdown.
import type { AddressInfo } from 'node:net';
import { listenFailure } from '../../shared/listen-failure.ts';
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

/** A bind error as a one-line startup error keyed by the setting at fault (the site's port, or STATIC_BIND). */
function bindError(error: NodeJS.ErrnoException, entry: PlannedServer, bind: string | undefined): ConfigError {
  const { about, reason } = listenFailure(error, { port: entry.port, host: bind }, { port: entry.key, host: 'STATIC_BIND' });
  return new ConfigError(about === 'address' ? 'STATIC_BIND' : entry.key, reason, { cause: error });
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
