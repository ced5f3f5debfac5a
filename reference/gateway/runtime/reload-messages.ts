// What a reload says: the 400 for a config that cannot be read or fails validation (catalog
// gateway/errors/reload-invalid-config-400, gateway/reload/unreadable-file) and the warnings for sections
// configured but not built (gateway/reload/warnings-field).
import type { GatewayConfig } from '../config/gateway-config.ts';
import { GatewayError } from './gateway-runtime.ts';

/** A ConfigError's message (`<field>: <reason>`) as it is; any other error names the file. */
export function reloadFailure(error: unknown, path: string): GatewayError {
  const message = error instanceof Error ? error.message : String(error);
  const named = (error as { name?: string } | undefined)?.name === 'ConfigError' || message.includes(path);
  return new GatewayError('bad-request', named ? message : `${path}: ${message}`, { cause: error });
}

export function warningsOf(config: GatewayConfig): string[] {
  const sections = new Set(config.sites.flatMap((site) => site.notCompiledIn));
  return [...sections].map((section) => `${section}: configured but not compiled in`);
}
