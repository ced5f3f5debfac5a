// The status mapping against the catalog's own table (translate-web/errors/status-mapping, read from the
// YAML): every gRPC code listed once, each with the HTTP status the catalog gives it.
import { readFileSync } from 'node:fs';
import test from 'ava';
import { parse } from 'yaml';
import { codeName, GRPC_CODES, httpStatusOf, knownCode } from './status-map.ts';

const catalog = parse(readFileSync(new URL('../../spec/translate-web.yaml', import.meta.url), 'utf8')) as { clauses: { id: string; reference?: string }[] };
const reference = catalog.clauses.find((clause) => clause.id === 'translate-web/errors/status-mapping')!.reference!;

/** "OK 200; INVALID_ARGUMENT, FAILED_PRECONDITION, OUT_OF_RANGE 400; …" → code name → status. */
const CATALOG_TABLE = new Map(
  reference.split(';').flatMap((part) => {
    const [, names, status] = /^\s*([A-Z_, ]+?)\s+(\d{3})\b/.exec(part)!;
    return names!.split(',').map((name) => [name.trim(), Number(status)] as const);
  }),
);

test('the catalog lists all 17 gRPC codes', (t) => {
  t.deepEqual([...CATALOG_TABLE.keys()].sort(), GRPC_CODES.map(codeName).sort());
});

for (const code of GRPC_CODES) {
  test(`${codeName(code)} → ${CATALOG_TABLE.get(codeName(code))}`, (t) => {
    t.is(httpStatusOf(code) as number | undefined, CATALOG_TABLE.get(codeName(code)));
  });
}

test('a code outside the enum is read as UNKNOWN (500)', (t) => {
  t.is(codeName(knownCode(99)), 'UNKNOWN');
  t.is(httpStatusOf(knownCode(99)), 500);
});
