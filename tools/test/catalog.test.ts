import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { parse, stringify } from 'yaml';
import { CatalogError, loadCatalog, SPEC_DIR, SURFACES } from '../spec/catalog.ts';
import { tempDir } from './run-cli.ts';

test('the catalog of all six surfaces loads against its schema', (t) => {
  const catalog = loadCatalog();
  t.deepEqual([...new Set(catalog.clauses.map((c) => c.surface))].sort(), [...SURFACES].sort());
  t.true(catalog.clauses.length > 300);
  for (const c of catalog.clauses.filter((x) => x.level === 'unspecified')) t.truthy(c.reference, c.id);
});

interface RawClause {
  id: string;
  level: string;
  reference?: string;
}

/** Applies `edit` to the parsed static catalog inside a copy of spec/. */
function brokenCopy(edit: (clauses: RawClause[]) => void, file = 'static.yaml'): string {
  const dir = tempDir();
  cpSync(SPEC_DIR, dir, { recursive: true });
  const data = parse(readFileSync(join(dir, 'static.yaml'), 'utf8')) as { clauses: RawClause[] };
  edit(data.clauses);
  writeFileSync(join(dir, file), stringify(data));
  return dir;
}

const BROKEN: [string, () => string, RegExp][] = [
  ['a duplicate ID', () => brokenCopy((cs) => cs.push({ ...cs[0]! })), /duplicate clause ID static\//],
  [
    'an unspecified clause without reference',
    () => brokenCopy((cs) => delete cs.find((c) => c.level === 'unspecified')!.reference),
    /must have required property 'reference'/,
  ],
  ['an ID of the wrong shape', () => brokenCopy((cs) => (cs[0]!.id = 'static/Config/port key')), /pattern/],
  ['an ID of another surface', () => brokenCopy((cs) => (cs[0]!.id = 'gateway/config/x')), /does not start with "static\/"/],
  ['an unknown level', () => brokenCopy((cs) => (cs[0]!.level = 'may')), /level/],
  ['a file named after another surface', () => brokenCopy(() => {}, 'recipes.yaml'), /must match the file name/],
];

for (const [what, make, message] of BROKEN) {
  test(`the loader rejects ${what}`, (t) => {
    const error = t.throws(() => loadCatalog(make()), { instanceOf: CatalogError });
    t.regex(error.message, message);
  });
}
