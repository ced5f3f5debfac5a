// `recipes-store-writes`: acknowledged updates/s of the recipe manager's durable store (fsync, rename, fsync of the
// folder, group commit) with 32 concurrent callers on a document of 10,000 recipes of about 1 KB, against plain
// lowdb in the same run (`JSONFile`, the change made on `db.data`, then `db.write()` per change: no fsync). Each
// update replaces one recipe chosen at random, so the document stays at 10,000 recipes. Also shown: the
// durable store with one caller (the latency of one durable write). The peers alternate their order each round;
// each one's median is used. Goal of the recipe manager: >= 300 durable writes/s at 10,000 recipes.
//
// Alone: npx tsx tools/bench/recipes/store-writes.ts [--rounds N] [--duration S]
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { emptyRecipesData, openRecipesStore, type RecipesData } from '../../../reference/recipes/store/index.ts';
import { sampleRecipe } from '../../../reference/recipes/store/sample-recipe.ts';
import { median } from '../peers.ts';

export const RECIPES = 10_000;
export const CALLERS = 32;
/** Durable writes/s at 10,000 recipes the recipe manager aims for. */
export const GOAL = 300;

export interface Sample {
  rate: number;
  /** Acknowledged updates per file write (the durable store only). */
  group?: number;
}

export interface Peer {
  name: string;
  callers: number;
  run: (folder: string, seconds: number) => Promise<Sample>;
}

function seeded(): RecipesData {
  const data = emptyRecipesData();
  for (let i = 0; i < RECIPES; i++) data.recipes[`r${i}`] = sampleRecipe(`r${i}`, `u${i % 50}`);
  return data;
}

/** A replacement for a random recipe. */
function change(n: number): [string, RecipesData['recipes'][string]] {
  const id = `r${Math.floor(Math.random() * RECIPES)}`;
  return [id, { ...sampleRecipe(id, 'u1'), title: `Recipe ${id}, edit ${n}`, updatedAt: new Date().toISOString() }];
}

/** Runs `callers` loops of `once` for `seconds`; the number of completed calls per second. */
async function drive(callers: number, seconds: number, once: (n: number) => Promise<void>): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < until) {
        await once(done);
        done++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

function durable(callers: number): Peer {
  return {
    name: `durable store, ${callers} caller${callers === 1 ? '' : 's'}`,
    callers,
    async run(folder, seconds) {
      const store = await openRecipesStore({ file: join(folder, 'recipes.json') });
      try {
        const data = seeded();
        await store.update((draft) => {
          draft.recipes = data.recipes;
        });
        const before = store.stats;
        const rate = await drive(callers, seconds, (n) =>
          store.update((draft) => {
            const [id, recipe] = change(n);
            draft.recipes[id] = recipe;
          }),
        );
        const after = store.stats;
        return { rate, group: (after.acknowledged - before.acknowledged) / (after.writes - before.writes) };
      } finally {
        await store.close();
      }
    },
  };
}

/** Plain lowdb: `JSONFile`, the change made on `db.data`, `db.write()` per change (no fsync), 32 callers. */
export const plainLowdb: Peer = {
  name: `plain lowdb, ${CALLERS} callers`,
  callers: CALLERS,
  async run(folder, seconds) {
    const db = new Low<RecipesData>(new JSONFile(join(folder, 'plain.json')), seeded());
    await db.write();
    const rate = await drive(CALLERS, seconds, async (n) => {
      const [id, recipe] = change(n);
      db.data.recipes[id] = recipe;
      await db.write();
    });
    return { rate };
  },
};


export async function benchRecipesStore(rounds: number, seconds = 3): Promise<void> {
  const peers = [durable(CALLERS), plainLowdb, durable(1)];
  const samples = new Map<string, Sample[]>(peers.map((peer) => [peer.name, []]));
  const folder = mkdtempSync(join(tmpdir(), 'bench-recipes-store-'));
  console.log(`\nrecipes-store-writes: ${RECIPES} recipes, ${seconds} s per peer and round, ${rounds} rounds`);
  try {
    for (let round = 0; round < rounds; round++) {
      for (const peer of [...peers.slice(round % peers.length), ...peers.slice(0, round % peers.length)]) {
        const sample = await peer.run(folder, seconds);
        samples.get(peer.name)!.push(sample);
        rmSync(join(folder, 'recipes.json'), { force: true });
      }
    }
    const size = statSync(join(folder, 'plain.json')).size;
    console.log(`  document: ${(size / 1e6).toFixed(1)} MB as lowdb writes it (indented)`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  const rates = (name: string) => samples.get(name)!.map((s) => s.rate);
  for (const peer of peers) {
    const list = samples.get(peer.name)!;
    const groups = list.flatMap((s) => (s.group === undefined ? [] : [s.group]));
    const group = groups.length > 0 ? `, ${median(groups).toFixed(1)} updates per file write` : '';
    console.log(
      `  ${peer.name.padEnd(28)} ${median(rates(peer.name)).toFixed(0).padStart(6)} acknowledged updates/s ` +
        `[${rates(peer.name).map((r) => r.toFixed(0)).join(', ')}]${group}`,
    );
  }
  const durableRate = median(rates(peers[0]!.name));
  const plainRate = median(rates(plainLowdb.name));
  console.log(`  durable / plain lowdb (${CALLERS} callers): ${(durableRate / plainRate).toFixed(2)}x`);
  console.log(`  goal >= ${GOAL} durable writes/s: ${durableRate >= GOAL ? 'met' : 'NOT met'}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: { rounds: { type: 'string', default: '3' }, duration: { type: 'string', default: '3' } },
  });
  await benchRecipesStore(Number(values.rounds), Number(values.duration));
}
