// The catalog watches the documents (tools/spec/documents.ts, `npm run spec -- check --documents`, `rehash`):
// each clause records the hash of its section's own text; an edit of a section names exactly the clauses citing
// it, an added section is listed as uncited without failing, and rehash records a review by rewriting the hash
// values alone. The documents live outside the repository (../shared/seeds/): where a clone lacks them, the
// tests that need them are registered as skipped, saying so.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { PROJECT_ROOT } from '../../conformance/harness/project-root.ts';
import { CatalogError, loadCatalog, SPEC_DIR } from '../spec/catalog.ts';
import { compareWithDocuments, readDocuments } from '../spec/document-check.ts';
import { BEFORE_FIRST_HEADING, normaliseBody, readDocument, sectionHash, splitSections } from '../spec/documents.ts';
import { runTool, tempDir } from './run-cli.ts';

const SEEDS = join(PROJECT_ROOT, '..', 'shared', 'seeds');
const HAVE_SEEDS = existsSync(SEEDS);

/** A test that needs the documents: skipped with the reason in its title where the clone lacks them. */
function withSeeds(title: string, fn: (t: ExecutionContext) => void | Promise<void>): void {
  if (HAVE_SEEDS) test(title, fn);
  else test.skip(`${title} (skipped: ../shared/seeds/ is absent from this clone)`, fn);
}

const spec = (...args: string[]) => runTool('spec', args);

/** Lines of `stdout` starting with `label: `, each the word after the label (a clause ID or file:line). */
const named = (stdout: string, label: string): string[] =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith(`${label}: `))
    .map((l) => l.slice(label.length + 2).split(/\s+/)[0]!)
    .sort();

/** The IDs of the clauses citing `section` of `file`. */
const citing = (file: string, section: string): string[] =>
  loadCatalog()
    .clauses.filter((c) => c.document === file && c.section === section)
    .map((c) => c.id)
    .sort();

/** A copy of the documents with `edit` applied to `file`. */
function editedCopy(file: string, edit: (text: string) => string): string {
  const dir = tempDir();
  cpSync(SEEDS, dir, { recursive: true });
  writeFileSync(join(dir, file), edit(readFileSync(join(dir, file), 'utf8')));
  return dir;
}

/** `text` with one word changed in the first line of text under the heading of `section`. */
function changeOneWord(text: string, file: string, section: string): string {
  const heading = splitSections(text).find((s) => s.key === section);
  if (heading === undefined) throw new Error(`${file} has no section ${section}`);
  const lines = text.split('\n');
  const at = lines.findIndex((l, i) => i >= heading.line && l.trim() !== '');
  lines[at] = lines[at]!.replace(/\b([A-Za-z]{4,})\b/, '$1x');
  return lines.join('\n');
}

const DOC_000 = '000_c42841195d4e9960.txt';
const DOC_001 = '001_e900e9127ac3485f.txt';

// ---------------------------------------------------------------- documents.ts

const SAMPLE = `# The Title

Scope of the document.

## Alpha

alpha text

### One

one text

## Beta
`;

test('sections are keyed by heading path below the title, the title section by its text', (t) => {
  const sections = splitSections(SAMPLE);
  t.deepEqual(
    sections.map((s) => [s.key, s.line, s.body]),
    [
      ['The Title', 1, 'Scope of the document.'],
      ['Alpha', 5, 'alpha text'],
      ['Alpha / One', 9, 'one text'],
      ['Beta', 13, ''],
    ],
  );
});

test("a section's hash covers its own body only: an edit of a subsection leaves its parent's hash", (t) => {
  const before = new Map(splitSections(SAMPLE).map((s) => [s.key, s.hash]));
  const after = new Map(splitSections(SAMPLE.replace('one text', 'one texts')).map((s) => [s.key, s.hash]));
  t.deepEqual(
    [...before.keys()].filter((k) => before.get(k) !== after.get(k)),
    ['Alpha / One'],
  );
});

test('the hash is the first 12 hex digits of SHA-256 of the normalised body', (t) => {
  t.is(sectionHash('a\nb'), createHash('sha256').update('a\nb').digest('hex').slice(0, 12));
  t.regex(sectionHash('x'), /^[0-9a-f]{12}$/);
});

test('normalisation: line endings, trailing whitespace and blank lines at either end are not changes', (t) => {
  const plain = 'first line\n\nsecond line';
  for (const variant of ['\r\n\r\nfirst line  \r\n\r\nsecond line\t\r\n\r\n', '\n   \nfirst line\n \nsecond line   \n\n']) {
    t.is(normaliseBody(variant), plain, JSON.stringify(variant));
    t.is(sectionHash(variant), sectionHash(plain));
  }
  // A blank line inside the text, or leading spaces, are part of it.
  t.not(sectionHash('first line\nsecond line'), sectionHash(plain));
  t.not(sectionHash('  first line\n\nsecond line'), sectionHash(plain));
});

test('a CRLF document splits and hashes as its LF twin', (t) => {
  const lf = splitSections(SAMPLE).map((s) => [s.key, s.hash]);
  t.deepEqual(splitSections(SAMPLE.replaceAll('\n', '\r\n')).map((s) => [s.key, s.hash]), lf);
});

test('headings in fenced code are text; closing hashes are not part of a heading; a repeated path is numbered', (t) => {
  const text = ['intro', '# T', '## Code ##', '```', '## not a heading', '```', '## Code', 'again'].join('\n');
  t.deepEqual(
    splitSections(text).map((s) => [s.key, s.body]),
    [
      [BEFORE_FIRST_HEADING, 'intro'],
      ['T', ''],
      ['Code', '```\n## not a heading\n```'],
      ['Code (2)', 'again'],
    ],
  );
});

// ---------------------------------------------------------------- the catalog and the documents

test('two catalog files citing one document with different documentHash values are a catalog error', (t) => {
  const dir = tempDir();
  cpSync(SPEC_DIR, dir, { recursive: true });
  const file = join(dir, 'translate-web.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/^documentHash: .*$/m, 'documentHash: aaaaaaaaaaaa'));
  const error = t.throws(() => loadCatalog(dir), { instanceOf: CatalogError });
  t.regex(error.message, /translate-web\.yaml: documentHash aaaaaaaaaaaa of 000_c42841195d4e9960\.txt differs from \w{12} in translate-tools\.yaml/);
});

test('the catalog lists each cited document once, with its recorded hash', (t) => {
  const { documents } = loadCatalog();
  t.deepEqual(documents.map((d) => d.file).sort(), [DOC_000, DOC_001, '002_f28763e11ea113c5.txt']);
  for (const d of documents) t.regex(d.hash, /^[0-9a-f]{12}$/);
});

withSeeds("the catalog's hashes match the documents in ../shared/seeds/", (t) => {
  const catalog = loadCatalog();
  const documents = readDocuments(SEEDS, catalog.documents.map((d) => d.file));
  for (const d of catalog.documents) t.is(d.hash, readDocument(join(SEEDS, d.file), d.file).hash, d.file);
  const found = compareWithDocuments(catalog.clauses, catalog.documents, documents);
  t.deepEqual(found.changed.map((c) => c.clause.id), []);
  t.deepEqual(found.notFound.map((c) => c.id), []);
  t.deepEqual(found.changedDocuments, []);
});

withSeeds('check --documents ../shared/seeds: exit 0; the uncited sections are listed, each with text', async (t) => {
  const run = await spec('check', '--documents', SEEDS);
  t.is(run.code, 0, run.stdout + run.stderr);
  t.regex(run.stdout, /0 clause\(s\) with a changed section, 0 with a section not found/);
  for (const where of named(run.stdout, 'uncited section')) {
    const [file, line] = where.split(':');
    const section = [...readDocument(join(SEEDS, file!), file!).sections.values()].find((s) => s.line === Number(line));
    t.not(section?.body ?? '', '', where);
  }
});

const EDITS: { what: string; file: string; section: string }[] = [
  { what: 'a section cited from three catalog files', file: DOC_000, section: 'Authentication' },
  // Its parent "Endpoints" is cited by far more clauses: none of them is named.
  { what: 'a subsection', file: DOC_001, section: 'Endpoints / Command-line shortcuts' },
  { what: 'a section with a cited subsection', file: DOC_001, section: 'Endpoints' },
];

for (const { what, file, section } of EDITS) {
  withSeeds(`one word changed in ${what} ("${section}"): check exits 1 naming exactly the clauses citing it`, async (t) => {
    const expected = citing(file, section);
    t.true(expected.length > 0);
    const run = await spec('check', '--documents', editedCopy(file, (text) => changeOneWord(text, file, section)));
    t.is(run.code, 1, run.stderr);
    t.deepEqual(named(run.stdout, 'section changed'), expected);
    t.deepEqual(named(run.stdout, 'section not found'), []);
    t.deepEqual(named(run.stdout, 'document changed'), [`${file}:`]);
  });
}

withSeeds('a renamed heading: its clauses are "section not found" (exit 1)', async (t) => {
  const expected = citing(DOC_001, 'Errors');
  const run = await spec('check', '--documents', editedCopy(DOC_001, (text) => text.replace(/^## Errors$/m, '## Error responses')));
  t.is(run.code, 1, run.stderr);
  t.deepEqual(named(run.stdout, 'section not found'), expected);
  t.deepEqual(named(run.stdout, 'section changed'), []);
  t.true(run.stdout.includes(`uncited section: ${DOC_001}:`) && run.stdout.includes('"Error responses"'));
});

withSeeds('an added section is listed as uncited, and is not a failure (exit 0)', async (t) => {
  const run = await spec('check', '--documents', editedCopy(DOC_000, (text) => `${text}\n## Deprecations\n\nNone yet.\n`));
  t.is(run.code, 0, run.stdout + run.stderr);
  t.regex(run.stdout, new RegExp(`^uncited section: ${DOC_000}:\\d+ "Deprecations"$`, 'm'));
  t.deepEqual(named(run.stdout, 'section changed'), []);
});

test('a documents folder or a document that is not there: one line, exit 2', async (t) => {
  const missingDir = await spec('check', '--documents', join(tempDir(), 'absent'));
  t.is(missingDir.code, 2);
  t.regex(missingDir.stderr, /^error: --documents .*absent: no such folder .*\n$/);
  const missingFile = await spec('check', '--documents', tempDir());
  t.is(missingFile.code, 2);
  t.regex(missingFile.stderr, /^error: document .*\d{3}_[0-9a-f]{16}\.txt: not found .*\n$/);
});

test('--help lists every command and exits 0; an unknown command is a usage error', async (t) => {
  const help = await spec('--help');
  t.is(help.code, 0);
  for (const command of ['check', 'coverage', 'rehash', '--documents', '--spec']) t.true(help.stdout.includes(command), command);
  const wrong = await spec('frobnicate');
  t.is(wrong.code, 2);
  t.regex(wrong.stderr, /^error: unknown command "frobnicate": use check, coverage or rehash/);
});

// ---------------------------------------------------------------- rehash (on a copy of spec/)

/** The lines of two texts that differ, side by side (the texts must have as many lines). */
function changedLines(before: string, after: string): [string, string][] {
  const a = before.split('\n');
  const b = after.split('\n');
  if (a.length !== b.length) throw new Error(`line count ${a.length} -> ${b.length}`);
  return a.flatMap((line, i) => (line === b[i] ? [] : [[line, b[i]!] as [string, string]]));
}

withSeeds('rehash after a review: only the named clauses and the documentHash lines change; check passes again', async (t) => {
  const section = 'Authentication';
  const docs = editedCopy(DOC_000, (text) => changeOneWord(text, DOC_000, section));
  const specDir = tempDir();
  cpSync(SPEC_DIR, specDir, { recursive: true });
  const files = ['translate.yaml', 'translate-tools.yaml', 'translate-web.yaml', 'gateway.yaml'];
  const before = new Map(files.map((f) => [f, readFileSync(join(specDir, f), 'utf8')]));
  const expected = citing(DOC_000, section);

  t.is((await spec('check', '--documents', docs, '--spec', specDir)).code, 1);
  const rehashed = await spec('rehash', '--documents', docs, '--spec', specDir, ...expected.map((id) => id.replace(/\/[^/]+$/, '/*')));
  t.is(rehashed.code, 0, rehashed.stdout + rehashed.stderr);
  t.deepEqual(
    rehashed.stdout
      .split('\n')
      .filter((l) => l.includes(': sectionHash '))
      .map((l) => l.split(':')[0])
      .sort(),
    expected,
  );
  const after = await spec('check', '--documents', docs, '--spec', specDir);
  t.is(after.code, 0, after.stdout + after.stderr);

  const changed = (file: string) => changedLines(before.get(file)!, readFileSync(join(specDir, file), 'utf8'));
  const HASH_LINE = /^( {4}section|document)Hash: /;
  // The three catalogs of document 000 changed in hash lines only; the gateway's (another document) not at all.
  for (const file of files.slice(0, 3)) t.true(changed(file).length > 0 && changed(file).every(([a, b]) => HASH_LINE.test(a) && HASH_LINE.test(b)), file);
  t.deepEqual(changed('gateway.yaml'), []);
});

withSeeds('rehash gives a clause written without a sectionHash the line it would have had, byte for byte', async (t) => {
  const specDir = tempDir();
  cpSync(SPEC_DIR, specDir, { recursive: true });
  const file = join(specDir, 'gateway.yaml');
  const original = readFileSync(file, 'utf8');
  // The first clause of the Authentication section, whose hash is all digits (written quoted).
  const id = citing(DOC_001, 'Authentication')[0]!;
  const lines = original.split('\n');
  const at = lines.indexOf(`  - id: ${id}`) + 2;
  t.regex(lines[at]!, /^ {4}sectionHash: "\d{12}"$/);
  writeFileSync(file, [...lines.slice(0, at), ...lines.slice(at + 1)].join('\n'));

  const check = await spec('check', '--spec', specDir);
  t.is(check.code, 2);
  t.regex(check.stderr, /must have required property 'sectionHash' \(npm run spec -- rehash --documents DIR CLAUSE-ID records it\)/);
  const rehashed = await spec('rehash', '--documents', SEEDS, '--spec', specDir, id);
  t.is(rehashed.code, 0, rehashed.stdout + rehashed.stderr);
  t.regex(rehashed.stdout, new RegExp(`^${id}: sectionHash \\(none\\) -> \\d{12}$`, 'm'));
  t.is(readFileSync(file, 'utf8'), original);
});

test('rehash of a glob that matches no clause: a usage error, nothing written', async (t) => {
  const specDir = tempDir();
  cpSync(SPEC_DIR, specDir, { recursive: true });
  // Told before any document is read: an empty folder will do.
  const run = await spec('rehash', '--documents', tempDir(), '--spec', specDir, 'nowhere/*/*');
  t.is(run.code, 2);
  t.is(run.stderr, 'error: no clause matches nowhere/*/*\n');
  for (const f of ['gateway.yaml', 'static.yaml']) t.is(readFileSync(join(specDir, f), 'utf8'), readFileSync(join(SPEC_DIR, f), 'utf8'));
});
