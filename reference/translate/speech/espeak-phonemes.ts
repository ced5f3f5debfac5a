// Text to IPA phonemes with the espeak-ng command line, grouped the way Piper groups them: one string per
// sentence, clause punctuation kept (`. ? !` end a sentence; `, : ;` are followed by a space).
//
// Limits of the CLI: `espeak-ng -q --ipa --stdin` prints one line per clause and drops the punctuation that
// ended it (Piper's library call reports it as the clause terminator). So the clauses are also found in the
// text, with a splitter that follows espeak-ng's rule (punctuation before white space, a lone dash, a blank
// line); when its count disagrees with espeak-ng's lines (an abbreviation such as "e.g.", a clause espeak-ng
// splits for length), each clause is phonemized by its own run instead, which keeps the alignment exact.
import { ServiceError } from '../core/errors.ts';
import { runTool, ToolMissingError } from './run-tool.ts';

/** Where espeak-ng ends a clause: a run of punctuation (closing quotes or brackets may follow) before white
 * space or the end of the text, a dash between spaces, or a blank line. */
const CLAUSE_BREAK = /[.,;:!?…]+["'”’»)\]]*(?=\s|$)|\s[—–]\s|\n\s*\n/gu;
/** A clause espeak-ng says something for; others (a lone "...") join the clause before them. */
const SPEAKABLE = /[\p{L}\p{N}\p{S}]/u;
/** espeak-ng marks words it reads in another language as `(fr)…(en)`; Piper drops the marks. */
const LANGUAGE_FLAG = /\([^)]*\)/gu;
const SENTENCE_END = new Set(['.', '?', '!']);
const CLAUSE_END = new Set([',', ':', ';']);

export interface Clause {
  text: string;
  /** The punctuation Piper keeps for this clause, or '' (a dash, an ellipsis character, a blank line). */
  punct: string;
  /** `. ? !`, a blank line or the end of the text. */
  endsSentence: boolean;
}

/** One IPA string per sentence of `text`, spoken with the espeak-ng voice `voice` (`en-us`). */
export async function phonemize(text: string, voice: string): Promise<string[]> {
  const clauses = splitClauses(text);
  if (clauses.length === 0) return [];
  let lines = await espeakLines(text, voice);
  if (lines.length !== clauses.length) {
    lines = [];
    for (const clause of clauses) lines.push((await espeakLines(clause.text, voice)).join(' '));
  }
  return joinSentences(clauses, lines);
}

/** The clauses of `text` where espeak-ng would end them; pieces with nothing to say join the clause before. */
export function splitClauses(text: string): Clause[] {
  const clauses: Clause[] = [];
  let start = 0;
  const add = (end: number, brk: string): void => {
    const piece = text.slice(start, end).trim();
    start = end;
    const punct = [...brk].reverse().find((c) => SENTENCE_END.has(c) || CLAUSE_END.has(c)) ?? '';
    const endsSentence = SENTENCE_END.has(punct) || brk === '' || /\n\s*\n/u.test(brk);
    const last = clauses.at(-1);
    if (SPEAKABLE.test(piece)) clauses.push({ text: piece, punct, endsSentence });
    else if (last && piece) {
      last.text += ` ${piece}`;
      last.punct = punct || last.punct;
      last.endsSentence ||= endsSentence;
    }
  };
  for (const m of text.matchAll(CLAUSE_BREAK)) add(m.index + m[0].length, m[0]);
  add(text.length, '');
  return clauses;
}

function joinSentences(clauses: Clause[], lines: string[]): string[] {
  const sentences: string[] = [];
  let current = '';
  clauses.forEach(({ punct, endsSentence }, i) => {
    const phonemes = lines[i] ?? '';
    if (phonemes) current += `${phonemes}${punct} `;
    if (endsSentence && current.trim()) {
      sentences.push(current.trim());
      current = '';
    }
  });
  if (current.trim()) sentences.push(current.trim());
  return sentences;
}

/** espeak-ng's non-empty IPA lines (one per clause) for `text`, language flags removed. */
async function espeakLines(text: string, voice: string): Promise<string[]> {
  const run = await runTool('espeak-ng', ['-q', '--ipa', '-b', '1', '-v', voice, '--stdin'], text).catch((err: unknown) => {
    if (err instanceof ToolMissingError) throw new ServiceError('FAILED_PRECONDITION', 'the phonemizer espeak-ng is not installed on the server');
    throw err;
  });
  if (run.code !== 0) {
    throw new ServiceError('INTERNAL', `espeak-ng failed (exit ${run.code}) for voice "${voice}": ${run.stderr.trim().split('\n')[0]}`);
  }
  return run.stdout
    .split('\n')
    .map((line) => line.replace(LANGUAGE_FLAG, '').replace(/\s+/gu, ' ').trim())
    .filter((line) => line !== '');
}
