// A process for the store's tests: opens the recipes store at RECIPES_DB_FILE and then
//   hold                          prints `ready` and keeps the store open until it is killed or stdin ends;
//   burst ACKS TAG CALLERS SEED   first fills the document up to SEED recipes (one update), prints `ready`, then
//                                 CALLERS concurrent callers each add recipes `TAG-<caller>-<n>` (n = 0, 1, …) one
//                                 update after the other, appending each acknowledged id to the file ACKS as a line
//                                 (a synchronous write: a line written is kept when the process is killed), until
//                                 killed or 30 s have passed.
// A failure to open prints the error's message on stderr and exits with 1.
import { closeSync, openSync, writeSync } from 'node:fs';
import { openRecipesStore } from './index.ts';
import { sampleRecipe } from './sample-recipe.ts';

const BURST_LIMIT_MS = 30_000;

async function main(): Promise<void> {
  const [mode, acks, tag = 'w', callers = '8', seed = '0'] = process.argv.slice(2);
  let store: Awaited<ReturnType<typeof openRecipesStore>>;
  try {
    store = await openRecipesStore();
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
  if (mode === 'hold') {
    process.stdout.write('ready\n');
    process.stdin.resume();
    process.stdin.on('end', () => void store.close());
    return;
  }
  if (mode !== 'burst' || acks === undefined) throw new Error(`usage: store-writer hold | burst ACKS TAG CALLERS SEED`);
  const missing = Number(seed) - Object.keys(store.data.recipes).length;
  if (missing > 0) {
    await store.update((draft) => {
      for (let i = 0; i < missing; i++) draft.recipes[`seed-${i}`] = sampleRecipe(`seed-${i}`, 'seed');
    });
  }
  const fd = openSync(acks, 'a');
  process.stdout.write('ready\n');
  const until = Date.now() + BURST_LIMIT_MS;
  const caller = async (c: number) => {
    for (let n = 0; Date.now() < until; n++) {
      const id = `${tag}-${c}-${n}`;
      await store.update((draft) => {
        draft.recipes[id] = sampleRecipe(id, `caller-${c}`);
      });
      writeSync(fd, `${id}\n`);
    }
  };
  await Promise.all(Array.from({ length: Number(callers) }, (_, c) => caller(c)));
  closeSync(fd);
  await store.close();
}

await main();
