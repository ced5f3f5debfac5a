// Everything a must-case assumes is declarable (issue 30): each suite declares the keys of its target
// description in conformance/<surface>/description.schema.json, every key at every depth saying what it means;
// the reference targets' descriptions follow their schema, and the runner refuses a description that does not
// (naming the key). Each suite's README has the audit table of what its must-cases assume: its clause IDs are
// the catalog's, the permitted variants it names exist, and the share of rows with a variant taking the other
// choice is measured here (t.log).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import { loadCatalog, SURFACES } from '../spec/catalog.ts';
import { runTool, tempDir } from './run-cli.ts';
import { GATEWAY_VARIANTS } from './variant/variant-gateway-variants.ts';
import { RECIPES_VARIANTS } from './variant/variant-recipes-variants.ts';
import { STATIC_VARIANTS } from './variant/variant-static-variants.ts';
import { TOOLS_VARIANTS } from './variant/variant-tools-variants.ts';
import { TRANSLATE_VARIANTS } from './variant/variant-translate-variants.ts';
import { WEB_VARIANTS } from './variant/variant-web-variants.ts';

type Schema = Record<string, unknown>;

const COMMON = JSON.parse(readFileSync(join(PROJECT_ROOT, 'conformance/harness/description-common.schema.json'), 'utf8')) as Schema;
const schemaFile = (surface: string): string => join(PROJECT_ROOT, 'conformance', surface, 'description.schema.json');
const readJson = (file: string): Schema => JSON.parse(readFileSync(file, 'utf8')) as Schema;

const VARIANTS: Record<string, readonly string[]> = {
  static: Object.keys(STATIC_VARIANTS),
  translate: Object.keys(TRANSLATE_VARIANTS),
  'translate-tools': Object.keys(TOOLS_VARIANTS),
  'translate-web': Object.keys(WEB_VARIANTS),
  gateway: Object.keys(GATEWAY_VARIANTS),
  recipes: Object.keys(RECIPES_VARIANTS),
};

/** Paths of the property schemas under `node` that carry no description (`[]` an array's items, `*` a map's
 * values); `$ref`s to $defs followed once. */
function undescribed(root: Schema, node: Schema, at: string, out: string[] = [], seen = new Set<string>()): string[] {
  const ref = node.$ref as string | undefined;
  if (ref?.startsWith('#/$defs/') && !seen.has(ref)) {
    seen.add(ref);
    undescribed(root, (root.$defs as Record<string, Schema>)[ref.slice('#/$defs/'.length)]!, at, out, seen);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) for (const branch of (node[key] ?? []) as Schema[]) undescribed(root, branch, at, out, seen);
  for (const [key, child] of Object.entries((node.properties ?? {}) as Record<string, Schema>)) {
    const path = `${at}/${key}`;
    if (typeof child.description !== 'string' || child.description.trim() === '') out.push(path);
    undescribed(root, child, path, out, seen);
  }
  if (typeof node.items === 'object') undescribed(root, node.items as Schema, `${at}/[]`, out, seen);
  if (typeof node.additionalProperties === 'object') undescribed(root, node.additionalProperties as Schema, `${at}/*`, out, seen);
  return out;
}

function compile(surface: string) {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  ajv.addSchema(COMMON);
  return ajv.compile(readJson(schemaFile(surface)));
}

for (const surface of SURFACES) {
  test(`${surface}: the description schema compiles strictly, refuses unknown keys and describes every key`, (t) => {
    if (!t.true(existsSync(schemaFile(surface)), `no ${schemaFile(surface)}`)) return;
    const schema = readJson(schemaFile(surface));
    t.notThrows(() => compile(surface));
    t.is(schema.unevaluatedProperties, false, 'unknown keys must be refused (unevaluatedProperties: false)');
    t.is(schema.$ref, 'description-common.schema.json', 'the runner’s own keys come from the common schema');
    t.deepEqual(undescribed(schema, schema, ''), [], 'keys without a description');
    const reference = join(PROJECT_ROOT, 'conformance', surface, 'reference-target', 'description.json');
    if (existsSync(reference)) {
      const validate = compile(surface);
      t.true(validate(readJson(reference)), JSON.stringify(validate.errors));
    }
  });
}

/** The rows of the README table under "## What the must-cases assume": cells of each body row. */
function auditRows(surface: string): string[][] {
  const text = readFileSync(join(PROJECT_ROOT, 'conformance', surface, 'README.md'), 'utf8');
  const section = text.split(/^## /m).find((s) => s.startsWith('What the must-cases assume'));
  if (!section) return [];
  const rows = section.split('\n').filter((l) => l.trimStart().startsWith('|'));
  return rows.slice(2).map((l) => l.trim().replace(/^\||\|$/g, '').split(/(?<!\\)\|/).map((c) => c.trim()));
}

test('each suite’s README audits what its must-cases assume: known clauses, existing variants, coverage measured', (t) => {
  const ids = new Set(loadCatalog().clauses.map((c) => c.id));
  const coverage: string[] = [];
  for (const surface of SURFACES) {
    const rows = auditRows(surface);
    if (!t.true(rows.length > 0, `${surface}: no audit table`)) continue;
    let withVariant = 0;
    for (const row of rows) {
      t.is(row.length, 4, `${surface}: a row of ${row.length} cells: ${row.join(' | ')}`);
      const clauses = [...row.join(' ').matchAll(/`([a-z0-9-]+(?:\/[a-z0-9*-]+)+)`/g)].map((m) => m[1]!).filter((x) => x.startsWith(`${surface}/`));
      // A clause, a group of clauses, or a case of a clause.
      const known = (id: string): boolean => id.includes('*') || [...ids].some((c) => c === id || c.startsWith(`${id}/`) || id.startsWith(`${c}/`));
      const unknown = clauses.filter((id) => !known(id));
      t.deepEqual(unknown, [], `${surface}: clause IDs of no clause in "${row[0]}"`);
      const named = [...(row[3] ?? '').matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1]!);
      const missing = named.filter((v) => !VARIANTS[surface]!.includes(v));
      t.deepEqual(missing, [], `${surface}: variants that do not exist in "${row[0]}"`);
      if (named.length > 0) withVariant++;
    }
    coverage.push(`${surface}: ${rows.length} assumptions, ${withVariant} with a permitted variant taking another choice`);
  }
  t.log(coverage.join('\n'));
});

test('the runner refuses a description that does not follow its suite’s schema, naming the key', async (t) => {
  const file = join(tempDir(), 'description.json');
  writeFileSync(file, JSON.stringify({ capabilities: ['launch'], confignaem: 'x.yaml' }));
  const run = await runTool('conform', ['--surface', 'gateway', '--describe', `gateway=${file}`, '--only', 'gateway/cli/**']);
  t.is(run.code, 2, run.stdout + run.stderr);
  t.regex(run.stderr, /unknown key "confignaem"/);
  t.regex(run.stderr, /conformance\/gateway\/description\.schema\.json/);
});
