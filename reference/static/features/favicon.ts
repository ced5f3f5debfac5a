// /favicon.ico from memory: the file is read once at startup, so a missing icon is a startup error.
import { readFileSync } from 'node:fs';
import { ConfigError } from '../config/config-error.ts';
import type { Handler } from '../site/handler.ts';

export async function createFavicon(path: string, key: string): Promise<Handler> {
  let icon: Buffer;
  try {
    icon = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    throw new ConfigError(key, `cannot read favicon ${path} (${code})`, { cause: error });
  }
  if (icon.length === 0) throw new ConfigError(key, `favicon file is empty: ${path}`);
  const { default: favicon } = await import('serve-favicon');
  return favicon(icon) as unknown as Handler;
}
