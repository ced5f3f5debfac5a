// The gateway's settings from the environment, normalised once at start-up (catalog translate-web/env/*):
// an empty variable counts as unset; a malformed one is an OptionError naming the variable and the bound.
import { TIMEOUT_VARIABLES, type TimeoutVariable } from './routes.ts';

export const DEFAULT_PORT = 4000;
export const DEFAULT_BIND = '0.0.0.0';
export const DEFAULT_GRPC_TARGET = 'localhost:5100';
/** setTimeout's bound (about 24.8 days); grpc-js arms a timer for the deadline. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;
/** 50 MB of audio is 66.7 MB in base64; 72 MiB (75.5 MB) leaves room for the other fields and escapes. */
export const MAX_BODY_BYTES = 72 * 1024 * 1024;

export interface GatewayOptions {
  port: number;
  host: string;
  grpcTarget: string;
  /** Per variable: the deadline in ms, or undefined for none. */
  timeouts: Readonly<Record<TimeoutVariable, number | undefined>>;
  maxBodyBytes: number;
}

export class OptionError extends Error {
  readonly variable: string;

  constructor(variable: string, reason: string) {
    super(`${variable}: ${reason}`);
    this.name = 'OptionError';
    this.variable = variable;
  }
}

function read(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

function parsePort(raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) throw new OptionError('PORT', `"${raw}" is not a port number (0-65535; 0 picks a free port)`);
  return Number(raw);
}

function parseTimeout(name: TimeoutVariable, raw: string): number {
  const ms = Number(raw);
  if (!/^\d+$/.test(raw) || ms < 1 || ms > MAX_TIMEOUT_MS) {
    throw new OptionError(name, `"${raw}" is not a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`);
  }
  return ms;
}

export function normalizeOptions(env: NodeJS.ProcessEnv): GatewayOptions {
  const port = read(env, 'PORT');
  const timeouts = {} as Record<TimeoutVariable, number | undefined>;
  for (const name of TIMEOUT_VARIABLES) {
    const raw = read(env, name);
    timeouts[name] = raw === undefined ? undefined : parseTimeout(name, raw);
  }
  return {
    port: port === undefined ? DEFAULT_PORT : parsePort(port),
    host: read(env, 'WEB_BIND') ?? DEFAULT_BIND,
    grpcTarget: read(env, 'TRANSLATE_GRPC_URL') ?? DEFAULT_GRPC_TARGET,
    timeouts,
    maxBodyBytes: MAX_BODY_BYTES,
  };
}
