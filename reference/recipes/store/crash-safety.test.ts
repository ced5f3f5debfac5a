// kill -9 at a random moment of a write burst, repeated on the same file: the file always parses, every
// acknowledged write is in it, and every write in it was at least started. The writer process (store-writer.ts)
// has 16 callers, each adding recipes `<tag>-<caller>-<n>` one after the other and appending each acknowledged id
// to a file with a synchronous write; per caller, then, the ids found must be n = 0 … f-1 with a ≤ f ≤ a + 1,
// where a is the number acknowledged (the one after them may be on disk, not yet acknowledged). Each run starts
// over the lock and the temporary file the killed one left, and the writes of every earlier run must still be
// there.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import fc from 'fast-check';
import { openRecipesStore, type RecipesData } from './recipes-data.ts';
import { buildWriter, startWriter } from './test-support.ts';

const RUNS = 20;
const CALLERS = 16;
/** Recipes in the file before the bursts (about 3 MB), so a write takes a while and a kill can land inside one. */
const SEED = 3000;

const root = mkdtempSync(join(tmpdir(), 'recipes-crash-'));
const writer = buildWriter(root);
test.after.always(() => rmSync(root, { recursive: true, force: true }));

/** Per caller, the numbers of its writes among `ids` for this run's tag. */
function byCaller(ids: Iterable<string>, tag: string): Map<number, number[]> {
  const callers = new Map<number, number[]>();
  for (const id of ids) {
    const match = /^(.+)-(\d+)-(\d+)$/.exec(id);
    if (!match || match[1] !== tag) continue;
    const list = callers.get(Number(match[2])) ?? [];
    list.push(Number(match[3]));
    callers.set(Number(match[2]), list);
  }
  return callers;
}

test('kill -9 during a write burst: the file parses and holds every acknowledged write, every time', async (t) => {
  const file = join(root, 'data', 'recipes.json');
  let run = 0;
  let earlier = new Set<string>();
  const totals = { acknowledged: 0, found: 0 };
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 30, max: 400 }), async (delay) => {
      const tag = `run${run++}`;
      const acks = join(root, `${tag}.acks`);
      const burst = startWriter(writer, file, ['burst', acks, tag, String(CALLERS), String(SEED)]);
      const started = await burst.started;
      if (!started.ready) throw new Error(`the writer did not start: ${started.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, delay));
      burst.child.kill('SIGKILL');
      await burst.ended;

      const document = JSON.parse(readFileSync(file, 'utf8')) as RecipesData;
      const ids = Object.keys(document.recipes);
      const acknowledged = byCaller(readFileSync(acks, 'utf8').split('\n').filter(Boolean), tag);
      const found = byCaller(ids, tag);
      for (let c = 0; c < CALLERS; c++) {
        const a = acknowledged.get(c) ?? [];
        const f = (found.get(c) ?? []).sort((x, y) => x - y);
        if (a.some((n, i) => n !== i)) throw new Error(`caller ${c}: acknowledged out of order: ${a}`);
        if (f.some((n, i) => n !== i)) throw new Error(`caller ${c}: the writes found are not the first ones: ${f}`);
        if (f.length < a.length) throw new Error(`caller ${c}: ${a.length} acknowledged, ${f.length} found`);
        if (f.length > a.length + 1) throw new Error(`caller ${c}: ${f.length} found, only ${a.length} acknowledged`);
        totals.acknowledged += a.length;
        totals.found += f.length;
      }
      const present = new Set(ids);
      const lost = [...earlier].filter((id) => !present.has(id));
      if (lost.length > 0) throw new Error(`writes of earlier runs lost: ${lost.slice(0, 5).join(', ')}`);
      earlier = present;
    }),
    { numRuns: RUNS, endOnFailure: true },
  );
  t.log(`${RUNS} kills: ${totals.acknowledged} writes acknowledged, ${totals.found} found`);
  t.true(totals.acknowledged > 0);
  t.true(totals.found >= totals.acknowledged);

  // The store opens the file the last kill left: the stale lock is taken over and the temporary file removed.
  const lines: string[] = [];
  const store = await openRecipesStore({ file, log: (line) => lines.push(line) });
  try {
    t.is(Object.keys(store.data.recipes).length, earlier.size);
    t.regex(lines.join('\n'), /took over the stale lock .* which is not running/);
  } finally {
    await store.close();
  }
});
