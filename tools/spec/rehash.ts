// After a review: records the current section hashes in the catalog. Reads the YAML itself rather than through
// loadCatalog, so a clause written without a sectionHash yet can be given one; edits only the hash values (or
// adds their lines), leaving every other byte of the file as written.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { isMap, isScalar, isSeq, type Pair, parseDocument, stringify, type YAMLMap } from 'yaml';
import { readDocuments } from './document-check.ts';

export class RehashError extends Error {}

export interface RehashResult {
  /** What was written, one line each. */
  changes: string[];
  /** Named clauses whose section is not in the document (left as they were). */
  notFound: { id: string; document: string; section: string }[];
  /** Clauses named whose hash was already current. */
  unchanged: number;
}

interface YamlClause {
  file: string;
  id: string;
  section: string;
  node: YAMLMap;
}

interface CatalogText {
  file: string;
  text: string;
  document: string;
  root: YAMLMap;
  clauses: YamlClause[];
}

interface Edit {
  from: number;
  to: number;
  text: string;
}

const scalarOf = (map: YAMLMap, key: string): string | undefined => {
  const value = map.get(key, true);
  return isScalar(value) && typeof value.value === 'string' ? value.value : undefined;
};

function readCatalogText(dir: string, file: string): CatalogText {
  const text = readFileSync(join(dir, file), 'utf8');
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new RehashError(`${file}: ${doc.errors[0]!.message.split('\n')[0]}`);
  const root = doc.contents;
  const document = isMap(root) ? scalarOf(root, 'document') : undefined;
  const seq = isMap(root) ? root.get('clauses', true) : undefined;
  if (!isMap(root) || document === undefined || !isSeq(seq)) throw new RehashError(`${file}: no document or clauses`);
  const clauses = seq.items.map((node, i) => {
    const id = isMap(node) ? scalarOf(node, 'id') : undefined;
    const section = isMap(node) ? scalarOf(node, 'section') : undefined;
    if (!isMap(node) || id === undefined || section === undefined) throw new RehashError(`${file}: clause ${i + 1} has no id or section`);
    return { file, id, section, node };
  });
  return { file, text, document, root, clauses };
}

/** The edit that makes `map`'s `key` read `value` (a new line after `after` when the key is absent), or
 * undefined when it already does. */
function setScalar(text: string, map: YAMLMap, key: string, value: string, after: string, where: string): Edit | undefined {
  if (map.flow) throw new RehashError(`${where}: written as a flow mapping; write it as a block to rehash it`);
  // Quoted only when YAML would read it as another type: a hash of digits is a number, 12e4… a float.
  const written = stringify(value).trimEnd();
  const current = map.get(key, true);
  if (isScalar(current) && current.range) {
    return current.value === value ? undefined : { from: current.range[0], to: current.range[1], text: written };
  }
  const anchor = map.items.find((p: Pair) => isScalar(p.key) && p.key.value === after);
  if (!anchor || !isScalar(anchor.key) || !anchor.key.range || !isScalar(anchor.value) || !anchor.value.range) {
    throw new RehashError(`${where}: no ${after} to put ${key} after`);
  }
  const keyStart = anchor.key.range[0];
  const indent = ' '.repeat(keyStart - (text.lastIndexOf('\n', keyStart - 1) + 1));
  // After the whole line of the anchor's value (its comment included).
  let at = anchor.value.range[1];
  if (text[at - 1] !== '\n') {
    const eol = text.indexOf('\n', at);
    at = eol === -1 ? text.length : eol + 1;
  }
  const newline = at === text.length && !text.endsWith('\n') ? '\n' : '';
  return { from: at, to: at, text: `${newline}${indent}${key}: ${written}\n` };
}

/** Writes the current sectionHash into the clauses matching `patterns` (all when empty) of the catalog in
 * `specDir`, and the documentHash of their documents into every catalog file citing them. */
export function rehash(specDir: string, documentsDir: string, patterns: string[]): RehashResult {
  const files = readdirSync(specDir).filter((f) => f.endsWith('.yaml')).sort().map((f) => readCatalogText(specDir, f));
  const all = files.flatMap((f) => f.clauses);
  for (const pattern of patterns) {
    const matches = picomatch(pattern);
    if (!all.some((c) => matches(c.id))) throw new RehashError(`no clause matches ${pattern}`);
  }
  const isNamed = patterns.length === 0 ? () => true : picomatch(patterns);
  const touched = new Set(files.filter((f) => f.clauses.some((c) => isNamed(c.id))).map((f) => f.document));
  const documents = readDocuments(documentsDir, touched);
  const result: RehashResult = { changes: [], notFound: [], unchanged: 0 };
  for (const catalog of files) {
    const document = documents.get(catalog.document);
    if (document === undefined) continue;
    const edits: Edit[] = [];
    const docEdit = setScalar(catalog.text, catalog.root, 'documentHash', document.hash, 'document', catalog.file);
    if (docEdit) {
      edits.push(docEdit);
      result.changes.push(`${catalog.file}: documentHash ${scalarOf(catalog.root, 'documentHash') ?? '(none)'} -> ${document.hash}`);
    }
    for (const clause of catalog.clauses.filter((c) => isNamed(c.id))) {
      const section = document.sections.get(clause.section);
      if (section === undefined) {
        result.notFound.push({ id: clause.id, document: catalog.document, section: clause.section });
        continue;
      }
      const edit = setScalar(catalog.text, clause.node, 'sectionHash', section.hash, 'section', `${catalog.file}: ${clause.id}`);
      if (!edit) {
        result.unchanged++;
        continue;
      }
      edits.push(edit);
      result.changes.push(`${clause.id}: sectionHash ${scalarOf(clause.node, 'sectionHash') ?? '(none)'} -> ${section.hash}`);
    }
    if (edits.length === 0) continue;
    let text = catalog.text;
    for (const e of edits.sort((a, b) => b.from - a.from)) text = text.slice(0, e.from) + e.text + text.slice(e.to);
    writeFileSync(join(specDir, catalog.file), text);
  }
  return result;
}
