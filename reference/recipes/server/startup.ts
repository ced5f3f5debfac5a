// What every process that runs the recipe manager does around starting it: make sure the photo folder can be
// written, and say why a start failed in one line (the errors that name their variable or file as they are, a
// port that cannot be bound as the setting to change, anything else by its message: never a stack).
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { failureMessage } from '../../shared/command-line.ts';
import { listenFailure } from '../../shared/listen-failure.ts';
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
  const bind = err as NodeJS.ErrnoException & { port?: number; address?: string };
  if (bind?.syscall === 'listen' && typeof bind.port === 'number') {
    return listenFailure(err, { port: bind.port, host: bind.address }, { port: 'PORT', host: 'RECIPES_HOST' }).reason;
  }
  return failureMessage(err);
}
