// The runner's plan of ava workers from the files' last times: every file once, long and unknown files alone,
// short ones packed within the limit and one per surface, the longest workers first.
import test from 'ava';
import fc from 'fast-check';
import { ALONE_FROM_MS, SHARED_UP_TO_MS, workerGroups } from '../conform/file-times.ts';

const surface = (file: string) => file.split('/')[1];

test('a plan holds every file once; long and unknown files alone; shared workers within the limits', (t) => {
  const file = fc.tuple(fc.constantFrom('static', 'gateway', 'recipes'), fc.stringMatching(/^[a-z]{1,8}$/)).map(([s, n]) => `conformance/${s}/${n}.test.ts`);
  fc.assert(
    fc.property(fc.uniqueArray(fc.tuple(file, fc.option(fc.integer({ min: 0, max: 40_000 }), { nil: undefined })), { selector: ([f]) => f }), (known) => {
      const files = known.map(([f]) => f);
      const times = Object.fromEntries(known.filter(([, ms]) => ms !== undefined)) as Record<string, number>;
      const groups = workerGroups(files, times);
      const time = (f: string) => times[f] ?? Number.POSITIVE_INFINITY;
      t.deepEqual(groups.flat().sort(), [...files].sort());
      const shared = groups.filter((g) => g.length > 1);
      t.true(shared.every((g) => g.every((f) => time(f) < ALONE_FROM_MS) && new Set(g.map(surface)).size === g.length));
      t.true(shared.every((g) => g.reduce((sum, f) => sum + time(f), 0) <= SHARED_UP_TO_MS));
      const sums = groups.map((g) => g.reduce((sum, f) => sum + time(f), 0));
      t.deepEqual(sums, [...sums].sort((a, b) => b - a));
    }),
  );
});

test('short files of different surfaces share workers; a file without a time comes first, alone', (t) => {
  const [a, b, c, d] = ['static/a', 'gateway/b', 'static/c', 'recipes/d'].map((f) => `conformance/${f}.test.ts`) as [string, string, string, string];
  const fresh = 'conformance/static/new.test.ts';
  const long = 'conformance/gateway/long.test.ts';
  const groups = workerGroups([fresh, a, b, c, d, long], { [a]: 5_000, [b]: 4_000, [c]: 3_000, [d]: 2_000, [long]: 30_000 });
  t.deepEqual(groups, [[fresh], [long], [a, b, d], [c]]);
});
