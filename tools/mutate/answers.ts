// Every mutant of a reference that survives its suite is answered in tools/mutate/answers/<surface>.yaml:
//   equivalent   no observable change (why says what makes it so)
//   unspecified  the change is in behaviour the documents leave open: `clause` names the catalog's
//                `unspecified` clause
//   case         a real gap, closed by a new case on `clause` (`case` names it), red against the mutant
// A mutant is named by its place and change: "<file>:<line>:<column> <Mutator> <replacement>" (line 1-based,
// column as Stryker's JSON report gives it, the replacement's first line). Two mutants starting at one place
// with the same change (an expression and its first operand both made false) share a name and one answer.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import { type Catalog, loadCatalog } from '../spec/catalog.ts';

export const ANSWER_KINDS = ['equivalent', 'unspecified', 'case'] as const;
export type AnswerKind = (typeof ANSWER_KINDS)[number];

export interface Answer {
  mutant: string;
  answer: AnswerKind;
  why: string;
  clause?: string;
  case?: string;
}

export interface MutantPlace {
  file: string;
  line: number;
  column: number;
  mutator: string;
  replacement: string;
}

export function answersFile(surface: string): string {
  return join(PROJECT_ROOT, 'tools', 'mutate', 'answers', `${surface}.yaml`);
}

/** The name answers use for a mutant. */
export function mutantName(m: MutantPlace): string {
  const change = m.replacement.split('\n')[0]!.trim();
  return `${m.file}:${m.line}:${m.column} ${m.mutator} ${change.length > 80 ? `${change.slice(0, 80)}…` : change}`;
}

/** The answers of `surface`, checked: each has a known kind and a reason; `unspecified` names an unspecified
 * clause of the catalog, `case` a clause and the case. Problems are returned, not thrown. */
export function readAnswers(surface: string, catalog: Catalog = loadCatalog()): { answers: Map<string, Answer>; problems: string[] } {
  const file = answersFile(surface);
  const answers = new Map<string, Answer>();
  const problems: string[] = [];
  if (!existsSync(file)) return { answers, problems };
  const raw = (parse(readFileSync(file, 'utf8')) ?? []) as Answer[];
  if (!Array.isArray(raw)) return { answers, problems: [`${file}: expected a list of answers`] };
  const levels = new Map(catalog.clauses.map((c) => [c.id, c.level]));
  for (const [i, a] of raw.entries()) {
    const where = `${file} entry ${i + 1} (${a?.mutant ?? 'no mutant'})`;
    if (typeof a?.mutant !== 'string' || typeof a.why !== 'string' || a.why.trim() === '') problems.push(`${where}: needs mutant and why`);
    else if (!(ANSWER_KINDS as readonly string[]).includes(a.answer)) problems.push(`${where}: answer must be one of ${ANSWER_KINDS.join(', ')}`);
    else if (a.answer === 'unspecified' && levels.get(a.clause ?? '') !== 'unspecified') problems.push(`${where}: clause ${a.clause} is not an unspecified clause of the catalog`);
    else if (a.answer === 'case' && (!levels.has(a.clause ?? '') || typeof a.case !== 'string')) problems.push(`${where}: a case answer names a catalog clause and the case`);
    else if (answers.has(a.mutant)) problems.push(`${where}: answered twice`);
    else answers.set(a.mutant, a);
  }
  return { answers, problems };
}
