// The `recipes` command as a process: refuses to start without a usable JWT_SECRET or when another process owns
// the data file, serves on PORT/RECIPES_HOST, and on SIGTERM closes the server and the store (lock released).
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { TEST_SECRET } from './test-server.ts';

const BIN = fileURLToPath(new URL('../bin/recipes.js', import.meta.url));

interface Run {
  child: ChildProcess;
  /** stderr so far. */
  output(): string;
  /** The URL once it logged "listening", or undefined when it ended first. */
  listening: Promise<string | undefined>;
  exited: Promise<number | null>;
}

function run(env: Record<string, string>): Run {
  const child = spawn(process.execPath, [BIN], {
    // The default uploads folder is made in the working directory.
    cwd: folder,
    env: { PATH: process.env['PATH'] ?? '', PORT: '0', RECIPES_HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const listening = new Promise<string | undefined>((resolve) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(stderr)?.[1];
      if (url) resolve(url);
    });
    exited.then(() => resolve(undefined));
  });
  return { child, output: () => stderr, listening, exited };
}

let folder: string;
const children: ChildProcess[] = [];
test.before(async () => {
  folder = await mkdtemp(join(tmpdir(), 'recipes main #'));
});
test.after.always(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await rm(folder, { recursive: true, force: true });
});

test.serial('without JWT_SECRET, or with a short one, the process exits 1 naming the variable', async (t) => {
  for (const secret of [undefined, 'too short']) {
    const r = run({ RECIPES_DB_FILE: join(folder, 'never.json'), ...(secret === undefined ? {} : { JWT_SECRET: secret }) });
    children.push(r.child);
    t.is(await r.exited, 1);
    t.regex(r.output(), /cannot start: JWT_SECRET: /);
  }
  t.false(existsSync(join(folder, 'never.json')), 'nothing opened');
});

test.serial('serves, refuses a second process on the same file, and stops cleanly on SIGTERM', async (t) => {
  const db = join(folder, 'data', 'recipes.json');
  const first = run({ JWT_SECRET: TEST_SECRET, RECIPES_DB_FILE: db });
  children.push(first.child);
  const url = await first.listening;
  t.truthy(url, first.output());
  const health = await fetch(`${url}/health`);
  t.is(health.status, 200);

  const second = run({ JWT_SECRET: TEST_SECRET, RECIPES_DB_FILE: db });
  children.push(second.child);
  t.is(await second.exited, 1);
  t.regex(second.output(), /cannot start: .*in use by process \d+/);

  first.child.kill('SIGTERM');
  t.is(await first.exited, 0);
  t.false(existsSync(`${db}.lock`), 'lock released');
  t.true(existsSync(db));
  t.true(existsSync(join(folder, 'uploads')), 'the default uploads folder, made at start in the working directory');
});

test.serial('RECIPES_UPLOADS_DIR is made at start; a bad RECIPES_IMPORT_PRIVATE or an unusable folder stops the start', async (t) => {
  const db = join(folder, 'uploads-test.json');
  const uploads = join(folder, 'photos #1', 'fünke');
  const served = run({ JWT_SECRET: TEST_SECRET, RECIPES_DB_FILE: db, RECIPES_UPLOADS_DIR: uploads, RECIPES_IMPORT_PRIVATE: 'allow' });
  children.push(served.child);
  const url = await served.listening;
  t.truthy(url, served.output());
  t.true(existsSync(uploads));
  t.is((await fetch(`${url}/health`)).status, 200);
  served.child.kill('SIGTERM');
  t.is(await served.exited, 0);

  const refused = run({ JWT_SECRET: TEST_SECRET, RECIPES_DB_FILE: db, RECIPES_IMPORT_PRIVATE: 'yes' });
  children.push(refused.child);
  t.is(await refused.exited, 1);
  t.regex(refused.output(), /cannot start: RECIPES_IMPORT_PRIVATE: "yes" is not allow or refuse/);

  const blocked = run({ JWT_SECRET: TEST_SECRET, RECIPES_DB_FILE: db, RECIPES_UPLOADS_DIR: join(db, 'under a file') });
  children.push(blocked.child);
  t.is(await blocked.exited, 1);
  t.regex(blocked.output(), /cannot start: RECIPES_UPLOADS_DIR: cannot use /);
});
