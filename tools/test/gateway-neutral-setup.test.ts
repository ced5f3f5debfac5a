// The gateway suite's neutral setup is declared (conformance/gateway/neutral-setup.schema.json), not known from
// one example: every setup the suite builds in a whole run against the reference, recorded by a pass-through
// adapter as a third party's adapter would receive it, matches the schema; every key the schema describes is sent
// by some case (a key the suite stops sending leaves no stale description); the README's example matches too.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import type { JsonReport } from '../conform/report-json.ts';
import { runTool, tempDir } from './run-cli.ts';

type Schema = Record<string, unknown>;

const GATEWAY = join(PROJECT_ROOT, 'conformance', 'gateway');
const SCHEMA = JSON.parse(readFileSync(join(GATEWAY, 'neutral-setup.schema.json'), 'utf8')) as Schema;
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(SCHEMA);

/** The schema's errors for `value`, one line each (none when it matches). */
function errorsOf(value: unknown): string[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

/** The key paths the schema describes: property names, `[]` for an array's items, `*` for any key of a map. */
function describedPaths(node: Schema, at: string[] = [], out: string[][] = []): string[][] {
  const ref = node.$ref as string | undefined;
  if (ref !== undefined) describedPaths((SCHEMA.$defs as Record<string, Schema>)[ref.replace('#/$defs/', '')]!, at, out);
  for (const branch of [...((node.anyOf ?? []) as Schema[]), ...((node.oneOf ?? []) as Schema[])]) describedPaths(branch, at, out);
  for (const [key, child] of Object.entries((node.properties ?? {}) as Record<string, Schema>)) {
    out.push([...at, key]);
    describedPaths(child, [...at, key], out);
  }
  if (typeof node.items === 'object') describedPaths(node.items as Schema, [...at, '[]'], out);
  if (typeof node.additionalProperties === 'object') describedPaths(node.additionalProperties as Schema, [...at, '*'], out);
  return out;
}

/** The values at `path` in `value` (`[]`: every item, `*`: every key). */
function valuesAt(value: unknown, path: string[]): unknown[] {
  if (path.length === 0) return [value];
  const [head, ...rest] = path;
  if (typeof value !== 'object' || value === null) return [];
  if (head === '[]') return Array.isArray(value) ? value.flatMap((v) => valuesAt(v, rest)) : [];
  if (head === '*') return Object.values(value).flatMap((v) => valuesAt(v, rest));
  return head! in value ? valuesAt((value as Record<string, unknown>)[head!], rest) : [];
}

/** An adapter that keeps each neutral setup it is given (one file each: the suite's workers run it at once) and
 * hands it on unchanged: the reference reads the JSON text as its YAML config. */
const recordingAdapter = (dir: string): string => `import { writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
const text = await new Response(process.stdin).text();
writeFileSync(${JSON.stringify(dir)} + '/' + randomUUID() + '.json', text);
process.stdout.write(text);
`;

test('every setup the gateway suite builds matches neutral-setup.schema.json, and every key it describes is sent', async (t) => {
  const dir = tempDir();
  const setupsDir = join(dir, 'setups');
  mkdirSync(setupsDir);
  const adapter = join(dir, 'recording-adapter.mjs');
  writeFileSync(adapter, recordingAdapter(setupsDir));
  const reference = JSON.parse(readFileSync(join(GATEWAY, 'reference-target', 'description.json'), 'utf8')) as Schema;
  const description = join(dir, 'description.json');
  writeFileSync(description, JSON.stringify({ ...reference, adapter: `node '${adapter}'` }));
  const reports = join(dir, 'reports');
  const run = await runTool('conform', ['--surface', 'gateway', '--describe', `gateway=${description}`, '--report-dir', reports]);
  const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as JsonReport;
  // Every case ran and judged its clause, so every setup it builds was built (its verdict is reference-conforms').
  t.deepEqual(
    report.results.filter((r) => ['skipped', 'not-applicable', 'error'].includes(r.outcome)).map((r) => `${r.id} ${r.outcome}: ${r.message.split('\n')[0]}`),
    [],
    `${run.stderr}\n${run.stdout.slice(-2000)}`,
  );
  const setups = readdirSync(setupsDir).map((name) => JSON.parse(readFileSync(join(setupsDir, name), 'utf8')) as unknown);
  t.deepEqual(
    setups.flatMap((s) => errorsOf(s).map((e) => `${e}\n  in ${JSON.stringify(s).slice(0, 600)}`)),
    [],
    `${setups.length} setups`,
  );
  t.deepEqual(
    describedPaths(SCHEMA)
      .filter((path) => !setups.some((s) => valuesAt(s, path).length > 0))
      .map((path) => path.join('.')),
    [],
    'keys the schema describes that no setup sent',
  );
});

test("the README's example neutral form matches neutral-setup.schema.json", (t) => {
  const readme = readFileSync(join(GATEWAY, 'README.md'), 'utf8');
  const example = /The neutral form by example \(see[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)?.[1];
  t.deepEqual(errorsOf(JSON.parse(example ?? 'null')), []);
});
