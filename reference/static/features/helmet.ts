// Security headers through helmet. helmet checks its options when created, so a bad option object is
// turned into a startup error naming `helmet` instead of a thrown TypeError.
import type { HelmetOptions } from 'helmet';
import { ConfigError } from '../config/config-error.ts';
import type { Handler } from '../site/handler.ts';

export async function createHelmet(options: Record<string, unknown>, key: string): Promise<Handler> {
  const { default: helmet } = await import('helmet');
  try {
    return helmet(options as HelmetOptions) as unknown as Handler;
  } catch (error) {
    throw new ConfigError(key, `invalid helmet options: ${(error as Error).message}`, { cause: error });
  }
}
