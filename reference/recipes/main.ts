// Entry of the recipe manager (`recipes`): reads the deployment variables (server/server-options.ts), opens the
// store (refused when another process owns it), serves until SIGTERM or SIGINT, then stops accepting, lets the
// requests in flight finish and closes the store (pending writes reach the disk, the lock is released).
// Exit codes: 0 stopped by a signal, 1 could not start (the message names the variable or the file).
import { ensureUploadsDir, type RecipesServer, serverOptionsFromEnv, startRecipesServer, startupFailure } from './server/index.ts';
import { openRecipesStore, type RecipesStore, recipesDbFile } from './store/index.ts';

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

async function shutdown(server: RecipesServer, store: RecipesStore): Promise<void> {
  try {
    await server.close();
  } finally {
    await store.close();
  }
}

main().catch((err: unknown) => {
  log(`recipes: cannot start: ${startupFailure(err)}`);
  process.exitCode = 1;
});
