// The catalog against the documents as they are now: which clauses cite a section that changed or is gone since
// they were written, and which sections no clause cites.
import { join } from 'node:path';
import type { Clause } from './catalog.ts';
import { type DocumentSection, readDocument, type SpecDocument } from './documents.ts';

/** A documents folder or file that cannot be read: one line for the user. */
export class DocumentsError extends Error {}

export interface DocumentFindings {
  /** Documents whose bytes differ from the catalog's documentHash. */
  changedDocuments: { file: string; recorded: string; current: string }[];
  /** Clauses whose section's text differs from their sectionHash. */
  changed: { clause: Clause; current: string }[];
  /** Clauses whose section is not a heading path of their document. */
  notFound: Clause[];
  /** Sections with text that no clause cites. */
  uncited: { file: string; section: DocumentSection }[];
}

/** Reads `dir/<file>` for each file; throws DocumentsError naming what is missing. */
export function readDocuments(dir: string, files: Iterable<string>): Map<string, SpecDocument> {
  const documents = new Map<string, SpecDocument>();
  for (const file of files) {
    try {
      documents.set(file, readDocument(join(dir, file), file));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'not found' : code === 'EISDIR' ? 'is a folder' : String(err);
      throw new DocumentsError(`document ${join(dir, file)}: ${why} (--documents names the folder of the interface documents)`);
    }
  }
  return documents;
}

export function compareWithDocuments(
  clauses: readonly Clause[],
  recordedHashes: readonly { file: string; hash: string }[],
  documents: ReadonlyMap<string, SpecDocument>,
): DocumentFindings {
  const findings: DocumentFindings = { changedDocuments: [], changed: [], notFound: [], uncited: [] };
  for (const { file, hash } of recordedHashes) {
    const current = documents.get(file)!.hash;
    if (current !== hash) findings.changedDocuments.push({ file, recorded: hash, current });
  }
  const cited = new Set<string>();
  for (const clause of clauses) {
    const section = documents.get(clause.document)!.sections.get(clause.section);
    if (section === undefined) {
      findings.notFound.push(clause);
      continue;
    }
    cited.add(`${clause.document}\0${clause.section}`);
    if (section.hash !== clause.sectionHash) findings.changed.push({ clause, current: section.hash });
  }
  for (const [file, document] of documents) {
    for (const section of document.sections.values()) {
      if (section.body !== '' && !cited.has(`${file}\0${section.key}`)) findings.uncited.push({ file, section });
    }
  }
  return findings;
}
