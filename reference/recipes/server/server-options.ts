// The server's deployment variables, read and checked once at start-up; every error names the variable, the
// value and the bound (catalog recipes/config/*):
//
//   PORT             TCP port, default 3000 (0: any free port, for tests)
//   RECIPES_HOST     address to bind, default all interfaces (Node's default: :: with IPv4 mapped, else 0.0.0.0)
//   APP_URL          base of the links in mails, default http://localhost:<listening port> (mail/mail-links.ts)
//   JWT_SECRET, JWT_EXPIRES_IN   see auth/auth-config.ts: the process refuses to start without a usable secret
//   RECIPES_DB_FILE  the data file, see store/ (README "Storage")
//   RECIPES_UPLOADS_DIR     the photo files' folder, default uploads (relative: to the working directory), created at start
//   RECIPES_IMPORT_PRIVATE  allow: the import may fetch from loopback, private, link-local and unspecified addresses;
//                           unset (or refuse): it refuses them
//   RECIPES_QUOTA_RECIPES   recipes one user may keep, default 1000
//   RECIPES_QUOTA_BYTES     bytes of recipe fields (JSON) one user may keep, default 8388608 (8 MiB)
import { resolve } from 'node:path';
import { type AuthConfig, loadAuthConfig } from '../auth/index.ts';
import { resolveAppUrl } from '../mail/index.ts';
import { DEFAULT_UPLOADS_DIR } from './create-server.ts';
import { DEFAULT_JSON_LIMIT } from './json-io.ts';
import { DEFAULT_QUOTA, type QuotaLimits } from './recipe-quota.ts';

export const DEFAULT_PORT = 3000;

export interface ServerOptions {
  readonly port: number;
  /** undefined: every interface. */
  readonly host: string | undefined;
  readonly auth: AuthConfig;
  /** APP_URL as given (resolved once the port is known, for its default). */
  readonly appUrl: string | undefined;
  readonly jsonLimit: number;
  /** The photo files' folder, absolute. */
  readonly uploadsDir: string;
  /** Whether the import may fetch from private addresses. */
  readonly importPrivate: boolean;
  readonly quota: QuotaLimits;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function parsePort(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_PORT;
  const port = /^\d{1,5}$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!(port >= 0 && port <= 65_535)) throw new ConfigError(`PORT: ${JSON.stringify(value)} is not a port number from 0 to 65535`);
  return port;
}

/** RECIPES_IMPORT_PRIVATE: `allow` lifts the import's address check; unset, empty or `refuse` keeps it. */
export function parseImportPrivate(value: string | undefined): boolean {
  const given = value?.trim() ?? '';
  if (given === '' || given === 'refuse') return false;
  if (given === 'allow') return true;
  throw new ConfigError(`RECIPES_IMPORT_PRIVATE: ${JSON.stringify(value)} is not allow or refuse (unset: refuse)`);
}

/** A quota variable: a whole number from 1 (unset or empty: `fallback`). */
export function parseQuota(name: string, value: string | undefined, fallback: number): number {
  const given = value?.trim() ?? '';
  if (given === '') return fallback;
  const n = /^\d{1,15}$/.test(given) ? Number(given) : 0;
  if (n < 1) throw new ConfigError(`${name}: ${JSON.stringify(value)} is not a whole number from 1 (unset: ${fallback})`);
  return n;
}

/** The options from the environment, or a ConfigError / AuthError (config) naming the variable. */
export function serverOptionsFromEnv(env: Readonly<Record<string, string | undefined>>): ServerOptions {
  const port = parsePort(env['PORT']);
  const auth = loadAuthConfig(env);
  const appUrl = env['APP_URL'];
  // Checked now, with a stand-in port, so a bad APP_URL stops the start rather than the first registration.
  resolveAppUrl(appUrl, port || DEFAULT_PORT);
  const host = env['RECIPES_HOST']?.trim();
  const uploadsDir = resolve(env['RECIPES_UPLOADS_DIR']?.trim() || DEFAULT_UPLOADS_DIR);
  const importPrivate = parseImportPrivate(env['RECIPES_IMPORT_PRIVATE']);
  const quota = {
    recipes: parseQuota('RECIPES_QUOTA_RECIPES', env['RECIPES_QUOTA_RECIPES'], DEFAULT_QUOTA.recipes),
    bytes: parseQuota('RECIPES_QUOTA_BYTES', env['RECIPES_QUOTA_BYTES'], DEFAULT_QUOTA.bytes),
  };
  return { port, host: host === '' ? undefined : host, auth, appUrl, jsonLimit: DEFAULT_JSON_LIMIT, uploadsDir, importPrivate, quota };
}
