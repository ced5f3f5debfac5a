// The interface documents cut into sections by heading, each with a hash of its own text: a clause records the
// hash of the section it paraphrases, so a later edit of that section names the clauses to review.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export interface DocumentSection {
  /** The heading path below the document title (`Endpoints / Web gateway`); the title's text for the text
   * under the title. */
  key: string;
  /** 1-based line of the heading (0 for text before any heading). */
  line: number;
  /** The section's own text, up to the next heading of any level, normalised (normaliseBody). */
  body: string;
  hash: string;
}

export interface SpecDocument {
  file: string;
  /** shortHash of the file's bytes. */
  hash: string;
  sections: Map<string, DocumentSection>;
}

/** The separator of heading levels in a section key. */
export const KEY_SEPARATOR = ' / ';
/** The key of text before the first heading of a document that has no title line. */
export const BEFORE_FIRST_HEADING = '(before the first heading)';

/** SHA-256, first 12 hex digits: short enough to read in a diff, long enough never to collide by chance. */
export function shortHash(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex').slice(0, 12);
}

/** Line endings as \n, no trailing whitespace on a line, no blank lines at either end: an editor's whitespace
 * is not a change of the text. */
export function normaliseBody(text: string): string {
  const lines = text.split(/\r\n?|\n/).map((l) => l.replace(/\s+$/u, ''));
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start] === '') start++;
  while (end > start && lines[end - 1] === '') end--;
  return lines.slice(start, end).join('\n');
}

export const sectionHash = (body: string): string => shortHash(normaliseBody(body));

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** The sections of a document in order. A heading inside a fenced code block is text, not a heading. */
export function splitSections(text: string): DocumentSection[] {
  const lines = text.split(/\r\n?|\n/);
  const sections: DocumentSection[] = [];
  const seen = new Set<string>();
  const path: { level: number; text: string }[] = [];
  let open: { key: string; line: number; from: number } | undefined;
  let fence: string | undefined;
  const close = (to: number) => {
    if (open === undefined) return;
    let key = open.key;
    // A repeated heading path still names one section each: the later ones are numbered.
    for (let n = 2; seen.has(key); n++) key = `${open.key} (${n})`;
    seen.add(key);
    const body = normaliseBody(lines.slice(open.from, to).join('\n'));
    sections.push({ key, line: open.line, body, hash: shortHash(body) });
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fenceMark = FENCE.exec(line)?.[1];
    if (fenceMark !== undefined && (fence === undefined || (fenceMark[0] === fence[0] && fenceMark.length >= fence.length))) {
      fence = fence === undefined ? fenceMark : undefined;
    }
    const heading = fence === undefined ? HEADING.exec(line) : null;
    if (heading === null) {
      if (open === undefined && line.trim() !== '') open = { key: BEFORE_FIRST_HEADING, line: 0, from: 0 };
      continue;
    }
    close(i);
    const level = heading[1]!.length;
    const title = heading[2] ?? '';
    while (path.length > 0 && path[path.length - 1]!.level >= level) path.pop();
    path.push({ level, text: title });
    const key = level === 1 ? title : path.filter((h) => h.level > 1).map((h) => h.text).join(KEY_SEPARATOR);
    open = { key, line: i + 1, from: i + 1 };
  }
  close(lines.length);
  return sections;
}

/** Reads and splits one document; a missing file throws the platform's error (ENOENT). */
export function readDocument(path: string, file: string): SpecDocument {
  const bytes = readFileSync(path);
  const sections = splitSections(bytes.toString('utf8'));
  return { file, hash: shortHash(bytes), sections: new Map(sections.map((s) => [s.key, s])) };
}
