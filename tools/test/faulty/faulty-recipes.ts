// A deliberately faulty recipe manager, for proving that the recipes suite can fail. It is the reference recipe
// manager (reference/recipes, in this process, on an internal socket) behind a node:http front on PORT
// that forwards every request, with each fault named in FAULTS (comma-separated, see faulty-recipes-faults.ts)
// injected where a real recipe manager would get it wrong: the environment it reads, the request, the answer,
// the store, or the reference's token check and mailer.
//
//   FAULTS=a,b node tools/test/faulty/faulty-recipes.ts     (bundled by the project test; environment as the
//   reference's: PORT (3000), RECIPES_HOST, JWT_SECRET, JWT_EXPIRES_IN, APP_URL, RECIPES_DB_FILE
//   (data/recipes.json), RECIPES_UPLOADS_DIR, RECIPES_IMPORT_PRIVATE)
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { parsePort } from '../../../reference/recipes/server/server-options.ts';
import { ensureUploadsDir, type RecipesServer, serverOptionsFromEnv, startRecipesServer, startupFailure } from '../../../reference/recipes/server/index.ts';
import { openRecipesStore, type RecipesStore, recipesDbFile } from '../../../reference/recipes/store/index.ts';
import { accountRules, adminRules, serviceRules, setupAndSettingsRules } from './faulty-recipes-account-rules.ts';
import { injectContextFaults } from './faulty-recipes-context.ts';
import type { RecipesFault } from './faulty-recipes-faults.ts';
import { type Rule, startFront } from './faulty-recipes-front.ts';
import { Faulty } from './faulty-recipes-helpers.ts';
import { recipeRules } from './faulty-recipes-recipe-rules.ts';

const faults = new Set((process.env.FAULTS ?? '').split(',').filter(Boolean) as RecipesFault[]);
const on = (f: RecipesFault): boolean => faults.has(f);
const log = (message: string) => process.stderr.write(`${message}\n`);

/** Where the reference listens: an abstract Unix socket (Linux), not a loopback port, which the kernel could
 * pick among those the suite has reserved for other targets that have not bound them yet. */
const UPSTREAM = `\0faulty-recipes-${process.pid}-${randomBytes(6).toString('hex')}`;

/** The secret of jwt-secret-ignored: the same whatever JWT_SECRET says. */
const BUILT_IN_SECRET = 'faulty-recipes built-in secret, never JWT_SECRET';

async function main(): Promise<void> {
  const env = { ...process.env };
  const unset = (name: string): boolean => (env[name] ?? '').trim() === '';
  let port = parsePort(env['PORT']);
  if ((on('port-default-8080') && unset('PORT')) || on('port-ignored')) port = 8080;
  serverOptionsFromEnv(env); // the reference's checks of every variable, as given
  if (on('jwt-secret-ignored')) env['JWT_SECRET'] = BUILT_IN_SECRET;
  if (on('expires-in-ignored')) delete env['JWT_EXPIRES_IN'];
  const options = serverOptionsFromEnv({ ...env, PORT: '0' });
  const host = env['RECIPES_HOST']?.trim() || undefined;

  // The front listens first: APP_URL's default needs its port.
  const rules: Rule[] = [];
  let ready!: () => void;
  const front = startFront(rules, UPSTREAM, new Promise<void>((resolve) => (ready = resolve)));
  front.listen(port, host);
  await Promise.race([once(front, 'listening'), once(front, 'error').then(([err]) => Promise.reject(err))]);
  const frontPort = (front.address() as AddressInfo).port;

  const store = await openRecipesStore({ file: recipesDbFile(env), log });
  let server: RecipesServer;
  try {
    await ensureUploadsDir(options.uploadsDir);
    server = await startRecipesServer({
      ...options,
      port: UPSTREAM as unknown as number, // polka hands it to net's listen: a socket path
      host: undefined,
      // app-url-ignored: links on the default base whatever APP_URL says.
      appUrl: on('app-url-ignored') || unset('APP_URL') ? `http://localhost:${frontPort}` : env['APP_URL'],
      store,
      log,
    });
  } catch (err) {
    await store.close();
    throw err;
  }
  injectContextFaults(server.context, on);
  const f = new Faulty(on, server.context);
  rules.push(...serviceRules(f), ...accountRules(f), ...setupAndSettingsRules(f), ...adminRules(f), ...recipeRules(f));
  ready();
  log(`recipes (faulty: ${[...faults].join(', ') || 'none'}): listening on http://${host ?? 'localhost'}:${frontPort}`);

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    shutdown(front, server, store).then(
      () => process.exit(0),
      (err: unknown) => {
        log(`recipes: stopping failed: ${err instanceof Error ? err.message : String(err)}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

async function shutdown(front: import('node:http').Server, server: RecipesServer, store: RecipesStore): Promise<void> {
  const closed = once(front, 'close');
  front.close();
  front.closeAllConnections();
  await closed;
  try {
    await server.close();
  } finally {
    await store.close();
  }
}

main().catch((err: unknown) => {
  log(`recipes: cannot start: ${startupFailure(err)}`);
  process.exit(1);
});
