// The runner works for the person who typed the command, in their folder: `npm run conform` (npm moves to the
// package's folder and says where it was in INIT_CWD) and `npx conform` alike. Files named on the command line
// (--describe, --known-failing, --report-dir) are read from that folder, and so are the files a target's command
// names: a bare word of a `cmd:` target, or of a description's command keys, that names a file or folder there
// (it holds a `.` or `/`, and exists) is made absolute before the command runs in a case's own folder. `{root}`
// still names this package.
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { shellQuote } from '../../conformance/harness/launch.ts';

/** The folder the runner was called from. */
export const CALLER_CWD = process.env.INIT_CWD ?? process.cwd();

/** A path given by the caller, absolute. */
export const fromCaller = (path: string): string => resolve(CALLER_CWD, path);

/** The shell words of `command` with the whitespace before each (quotes kept as written): a word holds
 * whitespace only inside quotes. */
function shellWords(command: string): { space: string; word: string }[] {
  const words: { space: string; word: string }[] = [];
  let i = 0;
  while (i < command.length) {
    const start = i;
    while (i < command.length && /\s/.test(command[i]!)) i++;
    const space = command.slice(start, i);
    let word = '';
    let quote: string | undefined;
    while (i < command.length && (quote !== undefined || !/\s/.test(command[i]!))) {
      const ch = command[i]!;
      if (quote === undefined && (ch === "'" || ch === '"')) quote = ch;
      else if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote !== "'" && i + 1 < command.length) word += command[i++];
      word += command[i++];
    }
    if (space !== '' || word !== '') words.push({ space, word });
  }
  return words;
}

/** `command` with each bare word naming a file or folder of the caller's folder made absolute. Words with
 * quotes, escapes, variables, placeholders, globs or options are left as they are (a shell reads them). */
export function commandFromCaller(command: string, cwd = CALLER_CWD): string {
  return shellWords(command)
    .map(({ space, word }) => {
      const bare = /^[^\s'"`$\\{}~*?=-][^\s'"`$\\{}*?=]*$/.test(word);
      if (!bare || isAbsolute(word) || !/[./]/.test(word) || !existsSync(resolve(cwd, word))) return space + word;
      return space + shellQuote(resolve(cwd, word));
    })
    .join('');
}

/** Description keys holding a command the suite runs. */
const COMMAND_KEYS = new Set(['command', 'adapter', 'cli', 'aliasCommand']);

/** `description` with its commands (at any depth) taken from the caller's folder (commandFromCaller). */
export function describedFromCaller<T>(description: T, cwd = CALLER_CWD): T {
  const walk = (value: unknown, key: string | undefined): unknown => {
    if (typeof value === 'string') return key !== undefined && COMMAND_KEYS.has(key) ? commandFromCaller(value, cwd) : value;
    if (Array.isArray(value)) return value.map((v) => walk(v, undefined));
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    return value;
  };
  return walk(description, undefined) as T;
}
