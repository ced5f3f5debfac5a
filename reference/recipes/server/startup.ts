// What every process that runs the recipe manager does around starting it: make sure the photo folder can be
// written, and say why a start failed (the message alone for the errors that name their variable or file, the
// stack for anything else).
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { AuthError } from '../auth/index.ts';
import { MailError } from '../mail/index.ts';
import { StoreError } from '../store/index.ts';
import { ConfigError } from './server-options.ts';

/** The photo folder exists and can be written, or a ConfigError naming RECIPES_UPLOADS_DIR. */
export async function ensureUploadsDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
  } catch (err) {
    throw new ConfigError(`RECIPES_UPLOADS_DIR: cannot use ${dir}: ${(err as Error).message}`);
  }
}

/** Why a start failed, as the one line to log. */
export function startupFailure(err: unknown): string {
  const known = err instanceof ConfigError || err instanceof StoreError || err instanceof MailError || (err instanceof AuthError && err.code === 'config');
  return known ? (err as Error).message : err instanceof Error ? (err.stack ?? err.message) : String(err);
}
