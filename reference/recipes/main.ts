// Entry of the recipe manager (`recipes`): reads the deployment variables (server/server-options.ts), opens the
// store (refused when another process owns it), serves until SIGTERM or SIGINT, then stops accepting, lets the
// requests in flight finish and closes the store (pending writes reach the disk, the lock is released).
// Exit codes: 0 stopped by a signal, 1 could not start (the message names the variable or the file).
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { AuthError } from './auth/index.ts';
import { MailError } from './mail/index.ts';
import { ConfigError, type RecipesServer, serverOptionsFromEnv, startRecipesServer } from './server/index.ts';
import { openRecipesStore, type RecipesStore, recipesDbFile, StoreError } from './store/index.ts';

const log = (message: string) => process.stderr.write(`${message}\n`);

async function main(): Promise<void> {
  const options = serverOptionsFromEnv(process.env);
  await ensureUploadsDir(options.uploadsDir);
  const store = await openRecipesStore({ file: recipesDbFile(process.env), log });
  let server: RecipesServer;
  try {
    server = await startRecipesServer({ ...options, store, log });
  } catch (err) {
    await store.close();
    throw err;
  }
  const swept = await server.context.oneTime.sweep();
  log(`recipes: listening on ${server.url} (data ${recipesDbFile(process.env)}${swept ? `, ${swept} expired tokens dropped` : ''})`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`recipes: ${signal}, stopping`);
    shutdown(server, store).then(
      () => {
        process.exitCode = 0;
      },
      (err: unknown) => {
        log(`recipes: stopping failed: ${err instanceof Error ? err.message : String(err)}`);
        process.exitCode = 1;
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

/** The photo folder exists and can be written, or a ConfigError naming RECIPES_UPLOADS_DIR. */
async function ensureUploadsDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
  } catch (err) {
    throw new ConfigError(`RECIPES_UPLOADS_DIR: cannot use ${dir}: ${(err as Error).message}`);
  }
}

async function shutdown(server: RecipesServer, store: RecipesStore): Promise<void> {
  try {
    await server.close();
  } finally {
    await store.close();
  }
}

main().catch((err: unknown) => {
  const known = err instanceof ConfigError || err instanceof StoreError || err instanceof MailError || (err instanceof AuthError && err.code === 'config');
  log(`recipes: cannot start: ${known ? (err as Error).message : err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
});
