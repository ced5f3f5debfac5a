// `npm run spec -- check | coverage | rehash`: the clause catalog seen from the command line.
import { existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fromCaller } from '../conform/caller-paths.ts';
import { listCases } from '../conform/list-cases.ts';
import { type Catalog, CatalogError, loadCatalog, SPEC_DIR } from './catalog.ts';
import { coverage } from './coverage.ts';
import { compareWithDocuments, DocumentsError, readDocuments } from './document-check.ts';
import { RehashError, rehash } from './rehash.ts';

const USAGE = `Usage: npm run spec -- <command> [options]

Commands:
  check      validate spec/*.yaml against spec/catalog.schema.json (IDs unique, levels, references);
             with --documents DIR, also compare each clause's sectionHash with its section in DIR/<document>:
             lists the clauses whose section changed or is not found (exit 1) and the sections no clause cites
  coverage   per surface: clauses, must-clauses, must-clauses with at least one case; lists the gaps
  rehash [CLAUSE-ID-or-glob ...]
             after reviewing the clauses against their changed sections: record the sections' current hashes
             in the named clauses (all when none named) and their documents' hashes; --documents is required

Options:
  --documents DIR   the folder of the interface documents (e.g. ../shared/seeds)
  --spec DIR        the catalog folder (default: the project's spec/)
  -h, --help        this text

Exit codes: 0 ok; 1 a clause's section changed or is not found; 2 usage error, invalid catalog, unreadable document.`;

class UsageError extends Error {}

interface Options {
  command: 'check' | 'coverage' | 'rehash';
  patterns: string[];
  documents: string | undefined;
  spec: string;
}

function existingFolder(flag: string, path: string): string {
  const full = fromCaller(path);
  if (!existsSync(full) || !statSync(full).isDirectory()) throw new DocumentsError(`${flag} ${path}: no such folder (${full})`);
  return full;
}

const OPTIONS = {
  documents: { type: 'string' },
  spec: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function parseOptions(argv: string[]): Options | 'help' {
  const { values, positionals } = (() => {
    try {
      return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    } catch (err) {
      throw new UsageError(`${err instanceof Error ? err.message : String(err)} (--help lists the options)`);
    }
  })();
  const [command, ...patterns] = positionals;
  if (values.help || command === undefined) return 'help';
  if (command !== 'check' && command !== 'coverage' && command !== 'rehash') {
    throw new UsageError(`unknown command "${command}": use check, coverage or rehash (--help for usage)`);
  }
  if (command !== 'rehash' && patterns.length > 0) throw new UsageError(`${command} takes no clause IDs (got ${patterns[0]}); rehash does`);
  if (command === 'rehash' && values.documents === undefined) {
    throw new UsageError('rehash needs --documents DIR, the folder of the interface documents');
  }
  if (command === 'coverage' && values.documents !== undefined) throw new UsageError('coverage takes no --documents; check does');
  return {
    command,
    patterns,
    documents: values.documents === undefined ? undefined : existingFolder('--documents', values.documents),
    spec: values.spec === undefined ? SPEC_DIR : existingFolder('--spec', values.spec),
  };
}

function check(catalog: Catalog, documentsDir: string | undefined): number {
  const levels = ['must', 'should', 'unspecified'].map((l) => `${l} ${catalog.clauses.filter((c) => c.level === l).length}`);
  console.log(`catalog ok: ${catalog.clauses.length} clauses (${levels.join(', ')})`);
  if (documentsDir === undefined) return 0;
  const documents = readDocuments(documentsDir, catalog.documents.map((d) => d.file));
  const found = compareWithDocuments(catalog.clauses, catalog.documents, documents);
  for (const d of found.changedDocuments) console.log(`document changed: ${d.file}: recorded ${d.recorded}, current ${d.current}`);
  for (const { clause: c, current } of found.changed) {
    console.log(`section changed: ${c.id}  ${c.document} "${c.section}": recorded ${c.sectionHash}, current ${current}`);
  }
  for (const c of found.notFound) console.log(`section not found: ${c.id}  ${c.document} "${c.section}"`);
  for (const { file, section } of found.uncited) console.log(`uncited section: ${file}:${section.line} "${section.key}"`);
  const failing = found.changed.length + found.notFound.length;
  console.log(
    `documents ${documentsDir}: ${documents.size} read; ${found.changed.length} clause(s) with a changed section, ` +
      `${found.notFound.length} with a section not found, ${found.uncited.length} uncited section(s)`,
  );
  if (failing > 0) {
    console.log('review those clauses against their sections, then: npm run spec -- rehash --documents DIR CLAUSE-ID-or-glob ...');
  }
  return failing > 0 ? 1 : 0;
}

function runRehash(options: Options): number {
  const result = rehash(options.spec, options.documents!, options.patterns);
  for (const line of result.changes) console.log(line);
  for (const c of result.notFound) console.log(`section not found: ${c.id}  ${c.document} "${c.section}" (not rehashed)`);
  console.log(`rehash: ${result.changes.length} value(s) written, ${result.unchanged} clause(s) already current`);
  // What was written must still load (a clause not named may still lack its hash).
  loadCatalog(options.spec);
  return result.notFound.length > 0 ? 1 : 0;
}

async function main(argv: string[]): Promise<number> {
  const options = parseOptions(argv);
  if (options === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (options.command === 'rehash') return runRehash(options);
  const catalog = loadCatalog(options.spec);
  if (options.command === 'check') return check(catalog, options.documents);
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

/** A catalog without a hash the schema requires: say how to record it. */
const hint = (message: string): string =>
  /sectionHash|documentHash/.test(message) ? `${message} (npm run spec -- rehash --documents DIR CLAUSE-ID records it)` : message;

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof UsageError || err instanceof DocumentsError || err instanceof RehashError) console.error(`error: ${err.message}`);
    else if (err instanceof CatalogError) console.error(`error: ${hint(err.message)}`);
    else console.error(err);
    process.exitCode = 2;
  },
);
