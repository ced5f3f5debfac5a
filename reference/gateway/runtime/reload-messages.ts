// What a failed reload says (catalog gateway/errors/reload-invalid-config-400, gateway/reload/unreadable-file):
// a ConfigError's message (`<field>: <reason>`) as it is; any other error names the file.
import { ConfigError } from '../config/config-error.ts';
import { GatewayError } from './gateway-runtime.ts';

export function reloadFailure(error: unknown, path: string): GatewayError {
  const message = error instanceof Error ? error.message : String(error);
  const named = error instanceof ConfigError || message.includes(path);
  return new GatewayError('bad-request', named ? message : `${path}: ${message}`, { cause: error });
}
