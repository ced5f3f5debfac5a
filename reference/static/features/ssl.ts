// TLS material of a site: key, cert and optional ca, read at startup (paths already resolved against the
// config directory). A missing or unusable file is a startup error naming `ssl.key`, `ssl.cert` or `ssl.ca`.
import { readFileSync } from 'node:fs';
import { createSecureContext, type SecureContext } from 'node:tls';
import { ConfigError } from '../config/config-error.ts';
import type { SslOptions } from '../config/site-config.ts';

export interface SslMaterial {
  key: Buffer;
  cert: Buffer;
  ca: Buffer | undefined;
  /** Built once; handed out by SNI for sites sharing a port. */
  context: SecureContext;
}

export function loadSsl(options: SslOptions, keyPrefix: string): SslMaterial {
  const read = (name: 'key' | 'cert' | 'ca', path: string): Buffer => {
    try {
      return readFileSync(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
      throw new ConfigError(`${keyPrefix}ssl.${name}`, `cannot read ${path} (${code})`, { cause: error });
    }
  };
  const key = read('key', options.key);
  const cert = read('cert', options.cert);
  const ca = options.ca === null ? undefined : read('ca', options.ca);
  let context: SecureContext;
  try {
    context = createSecureContext({ key, cert, ca });
  } catch (error) {
    throw new ConfigError(`${keyPrefix}ssl`, `unusable key or certificate: ${(error as Error).message}`, { cause: error });
  }
  return { key, cert, ca, context };
}
