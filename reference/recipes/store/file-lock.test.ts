// One process owns the file: a second process is refused with a clear error, a stale lock (its owner is not
// running, its pid now belongs to another process, or it cannot be read) is taken over with a log line.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import test from 'ava';
import { openRecipesStore } from './recipes-data.ts';
import { StoreError } from './store-error.ts';
import { buildWriter, startWriter } from './test-support.ts';

const root = mkdtempSync(join(tmpdir(), 'recipes-lock-'));
const writer = buildWriter(root);
test.after.always(() => rmSync(root, { recursive: true, force: true }));

let count = 0;
function dbFile(): string {
  const file = join(root, `case-${count++}`, 'recipes.json');
  mkdirSync(dirname(file), { recursive: true });
  return file;
}

/** The pid of a process that has ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

const lockOf = (file: string) => JSON.parse(readFileSync(`${file}.lock`, 'utf8')) as { pid: number; start?: string };

test('a second process opening the same file exits with an error naming the file and the owner', async (t) => {
  const file = dbFile();
  const owner = startWriter(writer, file, ['hold']);
  try {
    t.deepEqual(await owner.started, { ready: true });
    t.is(lockOf(file).pid, owner.child.pid!);
    const second = startWriter(writer, file, ['hold']);
    const outcome = await second.started;
    t.deepEqual(outcome, {
      ready: false,
      code: 1,
      stderr: `${file}: the store is in use by process ${owner.child.pid} (lock file ${file}.lock); one process owns the file\n`,
    });
  } finally {
    owner.child.stdin!.end();
    await owner.ended;
  }
  // The owner closed its store: the lock is gone and the next process opens the file.
  t.false(existsSync(`${file}.lock`));
  const next = await openRecipesStore({ file });
  await next.close();
  t.pass();
});

test('the same file opened twice in one process is refused', async (t) => {
  const file = dbFile();
  const store = await openRecipesStore({ file });
  try {
    const error = await t.throwsAsync(openRecipesStore({ file }), { instanceOf: StoreError });
    t.is(error?.code, 'locked');
    t.is(error?.message, `${file}: the store is already open in this process`);
  } finally {
    await store.close();
  }
});

test('the same file reached through a link is the same file', async (t) => {
  const file = dbFile();
  const link = join(root, `link-${count++}`);
  symlinkSync(dirname(file), link);
  const store = await openRecipesStore({ file });
  try {
    const error = await t.throwsAsync(openRecipesStore({ file: join(link, 'recipes.json') }), { instanceOf: StoreError });
    t.is(error?.code, 'locked');
  } finally {
    await store.close();
  }
});

test('a stale lock is taken over, with a log line', async (t) => {
  const file = dbFile();
  const pid = await deadPid();
  writeFileSync(`${file}.lock`, `${JSON.stringify({ pid })}\n`);
  const lines: string[] = [];
  const store = await openRecipesStore({ file, log: (line) => lines.push(line) });
  try {
    t.deepEqual(lines, [`${file}: took over the stale lock ${file}.lock of process ${pid}, which is not running`]);
    t.is(lockOf(file).pid, process.pid);
  } finally {
    await store.close();
  }
  t.false(existsSync(`${file}.lock`));
});

// [what, lock file content, log line's end]
const staleLocks: [string, () => string, string][] = [
  ['our own pid (a restarted container)', () => JSON.stringify({ pid: process.pid }), `process ${process.pid}, which is not running`],
  ['a pid now used by another process', () => JSON.stringify({ pid: process.ppid, start: '1' }), `process ${process.ppid}, which is not running`],
  ['unreadable content', () => 'garbage', 'an unreadable owner'],
  ['an empty file', () => '', 'an unreadable owner'],
];

for (const [what, content, owner] of staleLocks) {
  test(`a stale lock is taken over: ${what}`, async (t) => {
    const file = dbFile();
    writeFileSync(`${file}.lock`, content());
    const lines: string[] = [];
    const store = await openRecipesStore({ file, log: (line) => lines.push(line) });
    await store.close();
    t.deepEqual(lines, [`${file}: took over the stale lock ${file}.lock of ${owner}`]);
  });
}

test('a lock whose owner runs is respected, as another user too', async (t) => {
  const file = dbFile();
  // The parent process runs (pid 1 when run as another user: EPERM counts as running).
  for (const pid of [process.ppid, 1]) {
    writeFileSync(`${file}.lock`, JSON.stringify({ pid }));
    const error = await t.throwsAsync(openRecipesStore({ file }), { instanceOf: StoreError });
    t.is(error?.code, 'locked');
    t.regex(error?.message ?? '', new RegExp(`in use by process ${pid} `));
  }
});
