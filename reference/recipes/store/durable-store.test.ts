// The store on real files in a temporary folder: group commit, the write protocol, what readers see, failures
// (a throwing update function, a failed write, a file it cannot read), and where the file lives.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import test from 'ava';
import { tempFileOf, type WriteStep } from './durable-json-file.ts';
import { type DurableStore, openStore } from './durable-store.ts';
import { DEFAULT_DB_FILE, emptyRecipesData, openRecipesStore, type RecipesData, recipesDbFile } from './recipes-data.ts';
import { sampleRecipe } from './sample-recipe.ts';
import { StoreError } from './store-error.ts';

const root = mkdtempSync(join(tmpdir(), 'recipes-store-'));
test.after.always(() => rmSync(root, { recursive: true, force: true }));

let count = 0;
/** A data file path in a folder of its own (the folder is not created). */
function dbFile(name = 'recipes.json'): string {
  return join(root, `case ${count++} fünke #`, name);
}

const readDisk = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as RecipesData;

async function withStore<R>(file: string, fn: (store: DurableStore<RecipesData>) => Promise<R>): Promise<R> {
  const store = await openRecipesStore({ file, log: () => {} });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

test('a missing file: its folder is created and a new empty document written at once', async (t) => {
  const file = dbFile();
  await withStore(file, async (store) => {
    t.deepEqual(store.data, emptyRecipesData());
    t.deepEqual(readDisk(file), emptyRecipesData());
    t.is(statSync(file).mode & 0o777, 0o600);
    t.is(store.stats.writes, 1);
  });
  t.false(existsSync(`${file}.lock`));
});

test('an update resolves with its result once on disk, and survives a reopen', async (t) => {
  const file = dbFile();
  await withStore(file, async (store) => {
    const id = await store.update((draft) => {
      draft.recipes.r1 = sampleRecipe('r1', 'u1');
      draft.settings.smtpHost = 'mail.example';
      return 'r1';
    });
    t.is(id, 'r1');
    t.is(store.data.recipes.r1?.title, 'Recipe r1');
    t.is(readDisk(file).recipes.r1?.title, 'Recipe r1');
  });
  await withStore(file, async (store) => {
    t.deepEqual(store.data.recipes.r1, sampleRecipe('r1', 'u1'));
    t.is(store.data.settings.smtpHost, 'mail.example');
  });
});

test('group commit: 100 updates asked together go out in one write, each resolved when on disk', async (t) => {
  const file = dbFile();
  await withStore(file, async (store) => {
    const before = store.stats.writes;
    const onDiskWhenResolved: boolean[] = [];
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        store
          .update((draft) => {
            draft.recipes[`r${i}`] = sampleRecipe(`r${i}`, 'u1');
          })
          .then(() => onDiskWhenResolved.push(`r${i}` in readDisk(file).recipes)),
      ),
    );
    t.is(store.stats.writes - before, 1);
    t.is(onDiskWhenResolved.length, 100);
    t.true(onDiskWhenResolved.every(Boolean));
  });
  await withStore(file, async (store) => t.is(Object.keys(store.data.recipes).length, 100));
});

test('group commit: 100 updates arriving while writes are in flight take far fewer writes', async (t) => {
  const file = dbFile();
  await withStore(file, async (store) => {
    await store.update((draft) => {
      for (let i = 0; i < 2000; i++) draft.recipes[`seed${i}`] = sampleRecipe(`seed${i}`, 'u0');
    });
    const before = store.stats.writes;
    const done: Promise<void>[] = [];
    for (let i = 0; i < 100; i++) {
      done.push(
        store.update((draft) => {
          draft.recipes[`r${i}`] = sampleRecipe(`r${i}`, 'u1');
        }),
      );
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(done);
    const writes = store.stats.writes - before;
    t.log(`${writes} file writes for 100 updates`);
    t.true(writes < 25, `${writes} writes`);
    t.is(store.stats.acknowledged, 101);
  });
  await withStore(file, async (store) => t.is(Object.keys(store.data.recipes).length, 2100));
});

test('the write protocol: temporary file, fsync, rename over the file, fsync of the folder; nothing left', async (t) => {
  const file = dbFile();
  const steps: [WriteStep, string][] = [];
  const store = await openStore<RecipesData>({
    file,
    empty: emptyRecipesData,
    trace: (step, path) => steps.push([step, path]),
  });
  const temp = tempFileOf(file);
  const oneWrite: [WriteStep, string][] = [
    ['write-temp', temp],
    ['sync-temp', temp],
    ['rename', file],
    ['sync-folder', dirname(file)],
  ];
  t.deepEqual(steps, oneWrite);
  const inode = statSync(file).ino;
  await store.update((draft) => {
    draft.settings.smtpFrom = 'a@example.org';
  });
  t.deepEqual(steps, [...oneWrite, ...oneWrite]);
  // Replaced by a rename, not rewritten in place.
  t.not(statSync(file).ino, inode);
  await store.close();
  t.deepEqual(readdirSync(dirname(file)), ['recipes.json']);
});

test('readers see what is on disk: a change shows once its write is done', async (t) => {
  const file = dbFile();
  const seen: (string | undefined)[] = [];
  let store: DurableStore<RecipesData> | undefined;
  store = await openStore<RecipesData>({
    file,
    empty: emptyRecipesData,
    trace: (step) => {
      if (step === 'sync-temp') seen.push(store?.data.settings.smtpHost);
    },
  });
  const done = store.update((draft) => {
    draft.settings.smtpHost = 'new';
  });
  t.is(store.data.settings.smtpHost, '');
  await done;
  t.is(store.data.settings.smtpHost, 'new');
  t.deepEqual(seen, [undefined, '']);
  await store.close();
});

test('an update function that throws is taken back alone; the others of its group are written', async (t) => {
  const file = dbFile();
  await withStore(file, async (store) => {
    const results = await Promise.allSettled([
      store.update((draft) => {
        draft.recipes.a = sampleRecipe('a', 'u');
      }),
      store.update((draft) => {
        draft.recipes.b = sampleRecipe('b', 'u');
        delete draft.recipes.a;
        throw new Error('invalid recipe');
      }),
      store.update((draft) => {
        draft.recipes.c = sampleRecipe('c', 'u');
      }),
      store.update(async () => {}),
    ]);
    t.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled', 'rejected'],
    );
    t.is((results[1] as PromiseRejectedResult).reason.message, 'invalid recipe');
    t.regex((results[3] as PromiseRejectedResult).reason.message, /synchronous function/);
    t.deepEqual(Object.keys(store.data.recipes), ['a', 'c']);
    t.deepEqual(Object.keys(readDisk(file).recipes), ['a', 'c']);
    t.is(store.stats.writes, 2);
  });
});

test('a failed write rejects every caller of its group and leaves memory as the disk has it', async (t) => {
  const file = dbFile();
  await withStore(file, async (store) => {
    await store.update((draft) => {
      draft.recipes.kept = sampleRecipe('kept', 'u');
    });
    // A folder where the temporary file goes: opening it for writing fails.
    mkdirSync(tempFileOf(file));
    const results = await Promise.allSettled(
      ['x', 'y'].map((id) =>
        store.update((draft) => {
          draft.recipes[id] = sampleRecipe(id, 'u');
          delete draft.recipes.kept;
        }),
      ),
    );
    t.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected'],
    );
    const error = (results[0] as PromiseRejectedResult).reason as StoreError;
    t.true(error instanceof StoreError);
    t.is(error.code, 'io');
    t.true(error.message.startsWith(`${file}: cannot write the store (write-temp): `));
    t.deepEqual(Object.keys(store.data.recipes), ['kept']);
    t.deepEqual(Object.keys(readDisk(file).recipes), ['kept']);
    rmdirSync(tempFileOf(file));
    // The next write starts from memory, which is the disk's state.
    await store.update((draft) => {
      draft.recipes.z = sampleRecipe('z', 'u');
    });
    t.deepEqual(Object.keys(readDisk(file).recipes), ['kept', 'z']);
  });
});

// [what, content]
const unreadable: [string, string | Buffer, RegExp][] = [
  ['empty', '', /the file is empty/],
  ['truncated', '{"version":1,"users":{"u1":{"id":"u1","em', /not valid JSON/],
  ['an array', '[]', /holds an array, not a JSON object/],
  ['null', 'null', /holds null, not a JSON object/],
  ['not UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), /not valid UTF-8/],
];

for (const [what, content, reason] of unreadable) {
  test(`a file it cannot read is refused, named, and left as it was: ${what}`, async (t) => {
    const file = dbFile();
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
    const error = await t.throwsAsync(openRecipesStore({ file }), { instanceOf: StoreError });
    t.is(error?.code, 'corrupt');
    t.is(error?.file, file);
    t.true(error?.message.startsWith(`${file}: `));
    t.regex(error?.message ?? '', reason);
    t.deepEqual(readFileSync(file), Buffer.from(content));
    t.deepEqual(readdirSync(dirname(file)), ['recipes.json']);
  });
}

test('a file written by an older version gets the collections it lacks; a crash leftover is removed', async (t) => {
  const file = dbFile();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ version: 1, users: {}, recipes: { r: sampleRecipe('r', 'u') } }));
  writeFileSync(tempFileOf(file), '{"half": ');
  await withStore(file, async (store) => {
    t.deepEqual(Object.keys(store.data), ['version', 'users', 'recipes', 'invites', 'tokens', 'settings', 'saved']);
    t.false(existsSync(tempFileOf(file)));
    await store.update((draft) => {
      draft.saved.u = { r: new Date(0).toISOString() };
    });
    t.deepEqual(readDisk(file).saved, { u: { r: '1970-01-01T00:00:00.000Z' } });
  });
});

test('close waits for the updates asked before it; later ones are refused', async (t) => {
  const file = dbFile();
  const store = await openRecipesStore({ file });
  const asked = store.update((draft) => {
    draft.settings.allowRegistration = false;
  });
  await store.close();
  await asked;
  t.false(readDisk(file).settings.allowRegistration);
  const error = await t.throwsAsync(store.update(() => {}), { instanceOf: StoreError });
  t.is(error?.code, 'closed');
  t.false(existsSync(`${file}.lock`));
});

test('the data file comes from RECIPES_DB_FILE, relative to the working directory, by default data/recipes.json', (t) => {
  t.is(DEFAULT_DB_FILE, 'data/recipes.json');
  t.is(recipesDbFile({}, '/srv/app'), '/srv/app/data/recipes.json');
  t.is(recipesDbFile({ RECIPES_DB_FILE: '' }, '/srv/app'), '/srv/app/data/recipes.json');
  t.is(recipesDbFile({ RECIPES_DB_FILE: 'db/r.json' }, '/srv/app'), '/srv/app/db/r.json');
  t.is(recipesDbFile({ RECIPES_DB_FILE: '/var/lib/recipes.json' }, '/srv/app'), '/var/lib/recipes.json');
});
