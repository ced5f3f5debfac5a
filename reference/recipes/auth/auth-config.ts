// The deployment variables of the auth module, read once at start-up (catalog recipes/config/*).
//
// JWT_SECRET is required and used as raw UTF-8 bytes (no base64 decoding) as the HS256 key. Fewer than 32 bytes
// is refused: RFC 7518 §3.2 requires an HMAC key at least as long as the hash output (256 bits), and a short
// secret can be brute-forced offline from any one issued token.
//
// JWT_EXPIRES_IN is a whole number of seconds ("3600") or a whole number followed by s, m, h or d ("90s", "15m",
// "12h", "7d"); default 7d; it must lie between 1 second and 365 days. Anything else is refused at start-up.
import { AuthError } from './auth-error.ts';

export const MIN_JWT_SECRET_BYTES = 32;
export const DEFAULT_JWT_EXPIRES_IN = '7d';
export const MAX_JWT_LIFETIME_SECONDS = 365 * 24 * 60 * 60;

export interface AuthConfig {
  /** The HS256 key: JWT_SECRET's UTF-8 bytes. */
  readonly jwtSecret: Uint8Array;
  /** Lifetime of an issued JWT, in seconds. */
  readonly jwtLifetimeSeconds: number;
}

const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** `value` as a number of seconds, or an AuthError naming JWT_EXPIRES_IN, the value and the accepted forms. */
export function parseJwtExpiresIn(value: string): number {
  const match = /^(\d{1,12})([smhd])?$/.exec(value.trim());
  const seconds = match ? Number(match[1]) * UNIT_SECONDS[match[2] ?? 's']! : Number.NaN;
  if (!(seconds >= 1 && seconds <= MAX_JWT_LIFETIME_SECONDS)) {
    throw new AuthError(
      'config',
      `JWT_EXPIRES_IN: ${JSON.stringify(value)} is not a duration between 1 second and 365 days ` +
        '(a number of seconds, or a number followed by s, m, h or d, such as 7d or 12h)',
    );
  }
  return seconds;
}

/** The auth configuration from the process environment (or any such record), or an AuthError with code config. */
export function loadAuthConfig(env: Readonly<Record<string, string | undefined>>): AuthConfig {
  const secret = env['JWT_SECRET'];
  if (secret === undefined || secret === '') {
    throw new AuthError('config', 'JWT_SECRET: not set; give a random secret of at least 32 bytes');
  }
  const jwtSecret = new TextEncoder().encode(secret);
  if (jwtSecret.byteLength < MIN_JWT_SECRET_BYTES) {
    // The value itself is never echoed: it is a secret.
    throw new AuthError(
      'config',
      `JWT_SECRET: ${jwtSecret.byteLength} bytes long, needs at least ${MIN_JWT_SECRET_BYTES} (for example: openssl rand -base64 48)`,
    );
  }
  const expiresIn = env['JWT_EXPIRES_IN'];
  const jwtLifetimeSeconds = parseJwtExpiresIn(expiresIn === undefined || expiresIn === '' ? DEFAULT_JWT_EXPIRES_IN : expiresIn);
  return { jwtSecret, jwtLifetimeSeconds };
}
