// Entry of the recipe manager (`recipes`): reads the deployment variables (server/server-options.ts), opens the
// store (refused when another process owns it), serves until SIGTERM or SIGINT, then stops accepting, lets the
// requests in flight finish and closes the store (pending writes reach the disk, the lock is released).
// Exit codes: 0 stopped by a signal, 1 could not start (one line naming the variable, the file or the port),
// 2 bad command line. --help reads no variable and touches nothing; a start that fails removes the folders and
// the data file it made (a fresh store, nothing served), so a taken port leaves the folder as it was.
import { existsSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
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

/** The outermost of `path` and its parents that does not exist yet (what creating `path` makes), if any. */
function outermostMissing(path: string): string | undefined {
  let missing: string | undefined;
  for (let at = path; !existsSync(at) && dirname(at) !== at; at = dirname(at)) missing = at;
  return missing;
}

async function main(): Promise<void> {
  const options = serverOptionsFromEnv(process.env);
  const dbFile = recipesDbFile(process.env);
  // What this start makes, removed again if it fails once the store is open (a taken port, say): it has served
  // nothing, so nothing is lost.
  const made = [outermostMissing(options.uploadsDir), outermostMissing(dbFile)];
  let store: RecipesStore | undefined;
  let server: RecipesServer;
  try {
    await ensureUploadsDir(options.uploadsDir);
    store = await openRecipesStore({ file: dbFile, log });
    server = await startRecipesServer({ ...options, store, log });
  } catch (err) {
    // Only while it holds the store's lock: then no other process can be using what it made.
    if (store !== undefined) {
      await store.close();
      for (const path of made) if (path !== undefined) rmSync(path, { recursive: true, force: true });
    }
    throw err;
  }
  const opened: RecipesStore = store;
  const swept = await server.context.oneTime.sweep();
  log(`recipes: listening on ${server.url} (data ${dbFile}${swept ? `, ${swept} expired tokens dropped` : ''})`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`recipes: ${signal}, stopping`);
    shutdown(server, opened).then(
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
