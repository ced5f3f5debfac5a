import { createHash } from 'node:crypto';
// Loads and validates the clause catalog (spec/*.yaml). The catalog is the denominator of conformance:
// a missing or duplicate ID is a load error, never a silent gap.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../../conformance/harness/project-root.ts';

export const SURFACES = ['translate', 'translate-tools', 'translate-web', 'gateway', 'static', 'recipes'] as const;
export type Surface = (typeof SURFACES)[number];
export type Level = 'must' | 'should' | 'unspecified';

export interface Clause {
  id: string;
  surface: Surface;
  document: string;
  /** The heading path of the document section the clause paraphrases (tools/spec/documents.ts keys). */
  section: string;
  /** The hash of that section's text when the clause was last reviewed against it. */
  sectionHash: string;
  level: Level;
  text: string;
  /** For `unspecified` clauses: what the reference implementation chose. */
  reference?: string;
}

export interface Catalog {
  clauses: Clause[];
  byId: Map<string, Clause>;
  /** Each document the catalog cites, once, with its hash when its clauses were last rehashed. */
  documents: { file: string; hash: string }[];
}

interface CatalogFile {
  surface: Surface;
  document: string;
  documentHash: string;
  title: string;
  clauses: Omit<Clause, 'surface' | 'document'>[];
}

export const SPEC_DIR = join(PROJECT_ROOT, 'spec');
const SCHEMA_FILE = join(SPEC_DIR, 'catalog.schema.json');

export class CatalogError extends Error {}

/** The catalog's content hash: SHA-256 of its files (names and texts, in name order), first 12 hex digits. Two
 * reports with the same hash were judged against the same clauses. */
export function catalogHash(dir: string = SPEC_DIR): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.yaml') || f.endsWith('.json')).sort()) {
    hash.update(`${file}\0`).update(readFileSync(join(dir, file))).update('\0');
  }
  return hash.digest('hex').slice(0, 12);
}

/** Loads every `spec/<surface>.yaml`; throws CatalogError naming the file and the fault. */
export function loadCatalog(dir: string = SPEC_DIR): Catalog {
  const validate = new Ajv({ allErrors: true }).compile<CatalogFile>(
    JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')),
  );
  const clauses: Clause[] = [];
  const byId = new Map<string, Clause>();
  // Document -> its hash and the catalog file that recorded it first.
  const documents = new Map<string, { hash: string; by: string }>();
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort();
  for (const file of files) {
    const data: unknown = parse(readFileSync(join(dir, file), 'utf8'));
    if (!validate(data)) {
      const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
      // One line: a catalog file missing a key in every clause would otherwise print hundreds.
      const why = errors.slice(0, 5).join('; ') + (errors.length > 5 ? `; and ${errors.length - 5} more` : '');
      throw new CatalogError(`${file}: schema violation: ${why}`);
    }
    if (file !== `${data.surface}.yaml`) throw new CatalogError(`${file}: surface "${data.surface}" must match the file name`);
    const recorded = documents.get(data.document);
    if (recorded === undefined) documents.set(data.document, { hash: data.documentHash, by: file });
    else if (recorded.hash !== data.documentHash) {
      throw new CatalogError(
        `${file}: documentHash ${data.documentHash} of ${data.document} differs from ${recorded.hash} in ${recorded.by} (npm run spec -- rehash sets both)`,
      );
    }
    for (const raw of data.clauses) {
      if (!raw.id.startsWith(`${data.surface}/`)) {
        throw new CatalogError(`${file}: clause ${raw.id} does not start with "${data.surface}/"`);
      }
      if (byId.has(raw.id)) throw new CatalogError(`${file}: duplicate clause ID ${raw.id}`);
      const clause: Clause = { ...raw, surface: data.surface, document: data.document };
      byId.set(clause.id, clause);
      clauses.push(clause);
    }
  }
  const present = new Set(clauses.map((c) => c.surface));
  const absent = SURFACES.filter((s) => !present.has(s));
  if (absent.length > 0 && dir === SPEC_DIR) throw new CatalogError(`no catalog for surface(s): ${absent.join(', ')}`);
  return { clauses, byId, documents: [...documents].map(([file, { hash }]) => ({ file, hash })) };
}

/** The clause a test belongs to: the first three segments of its ID. */
export { clauseIdOf } from './clause-id.ts';
