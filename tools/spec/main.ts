// `npm run spec -- coverage | check`: the clause catalog seen from the command line.
import { listCases } from '../conform/list-cases.ts';
import { CatalogError, loadCatalog } from './catalog.ts';
import { coverage } from './coverage.ts';

const USAGE = `Usage: npm run spec -- <command>

  check      validate spec/*.yaml against spec/catalog.schema.json (IDs unique, levels, references)
  coverage   per surface: clauses, must-clauses, must-clauses with at least one case; lists the gaps`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (rest.length > 0 || (command !== 'check' && command !== 'coverage')) {
    console.error(USAGE);
    return command === undefined || command === '--help' ? 0 : 2;
  }
  const catalog = loadCatalog();
  if (command === 'check') {
    const levels = ['must', 'should', 'unspecified'].map((l) => `${l} ${catalog.clauses.filter((c) => c.level === l).length}`);
    console.log(`catalog ok: ${catalog.clauses.length} clauses (${levels.join(', ')})`);
    return 0;
  }
  const { cases, errors } = await listCases(catalog);
  for (const e of errors) console.error(`harness error: ${e}`);
  const rows = coverage(catalog, cases.map((c) => c.clause));
  console.log('surface          clauses  must  must covered');
  for (const r of rows) {
    const pct = r.must === 0 ? 0 : Math.floor((100 * r.mustCovered) / r.must);
    console.log(`${r.surface.padEnd(16)} ${String(r.clauses).padStart(7)} ${String(r.must).padStart(5)} ${String(r.mustCovered).padStart(6)} (${pct}%)`);
  }
  for (const r of rows.filter((x) => x.uncovered.length > 0)) {
    console.log(`\n${r.surface}: ${r.uncovered.length} must-clause(s) without a case`);
    for (const id of r.uncovered) console.log(`  ${id}`);
  }
  return errors.length > 0 ? 2 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err instanceof CatalogError ? `error: ${err.message}` : err);
    process.exitCode = 2;
  },
);
