// Why a server could not listen, in words a user acts on: the one place that maps the platform's bind errors
// (EADDRINUSE, EACCES, EADDRNOTAVAIL, ENOTFOUND) for every server of the package. `settings` names what the
// user changes (`PORT`, `--port or TRANSLATE_PORT`), so the line can say so.

export interface ListenAt {
  port: number;
  /** The address asked for; undefined (or an any-address) for every interface. */
  host?: string | undefined;
}

export interface ListenSettings {
  port?: string;
  host?: string;
}

export interface ListenFailure {
  /** Whether the port or the address is at fault (a server keying its errors by setting picks by this). */
  about: 'port' | 'address';
  reason: string;
}

const ANY_ADDRESS = new Set(['', '::', '0.0.0.0']);

/** The failure of a listen on `at`; `error` is the server's 'error' event (or a wrapper whose message names
 * the code, as grpc-js's does). */
export function listenFailure(error: unknown, at: ListenAt, settings: ListenSettings = {}): ListenFailure {
  const { code, message } = errorCode(error);
  const host = at.host === undefined || ANY_ADDRESS.has(at.host) ? undefined : at.host;
  const where = `port ${at.port}${host === undefined ? '' : ` on ${host}`}`;
  const other = (setting: string | undefined, what: string) => (setting === undefined ? '' : `; set ${setting} to another ${what}`);
  switch (code) {
    case 'EADDRINUSE':
      return { about: 'port', reason: `${where} is already in use${hint(other(settings.port, 'port'))}` };
    case 'EACCES':
      return {
        about: 'port',
        reason: `permission denied to listen on ${where}${hint(`${at.port < 1024 ? '; ports below 1024 need privileges' : ''}${other(settings.port, 'port')}`)}`,
      };
    case 'EADDRNOTAVAIL':
      return { about: 'address', reason: `${at.host} is not an address of this machine${hint(other(settings.host, 'address'))}` };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { about: 'address', reason: `cannot resolve the address ${at.host}${hint(other(settings.host, 'address'))}` };
    default:
      return { about: 'port', reason: `cannot listen on ${where}: ${message}` };
  }
}

/** "; a; b" as " (a; b)", nothing for nothing. */
const hint = (parts: string): string => (parts === '' ? '' : ` (${parts.slice(2)})`);

function errorCode(error: unknown): { code: string | undefined; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  const own = (error as { code?: unknown } | null)?.code;
  const code = typeof own === 'string' ? own : /\b(EADDRINUSE|EACCES|EADDRNOTAVAIL|ENOTFOUND|EAI_AGAIN)\b/.exec(message)?.[1];
  return { code, message: message.split('\n', 1)[0]! };
}
