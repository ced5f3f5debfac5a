// Entry of the recipe manager (`recipes`): reads the deployment variables (server/server-options.ts), opens the
// store (refused when another process owns it), serves until SIGTERM or SIGINT, then stops accepting, lets the
// requests in flight finish and closes the store (pending writes reach the disk, the lock is released).
// Exit codes: 0 stopped by a signal, 1 could not start (one line naming the variable, the file or the port),
// 2 bad command line. --help reads no variable and touches nothing.
import { exitUsageError, failureMessage, parseCommandLine } from '../shared/command-line.ts';
import { COMMAND, USAGE } from './cli/help.ts';
import { ensureUploadsDir, type RecipesServer, serverOptionsFromEnv, startRecipesServer, startupFailure } from './server/index.ts';
import { openRecipesStore, type RecipesStore, recipesDbFile } from './store/index.ts';

const log = (message: string) => process.stderr.write(`${message}\n`);

/** Whether to print the usage; a bad command line exits 2. */
function wantsHelp(): boolean {
  try {
    return parseCommandLine({ options: { help: { type: 'boolean', short: 'h' } } }).values.help === true;
  } catch (err) {
    exitUsageError(COMMAND, failureMessage(err));
  }
}

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

if (wantsHelp()) process.stdout.write(USAGE);
else {
  main().catch((err: unknown) => {
    log(`recipes: cannot start: ${startupFailure(err)}`);
    process.exitCode = 1;
  });
}
