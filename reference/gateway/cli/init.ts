// `gateway init [--yes] [-o FILE]` (catalog gateway/cli/init, init-behaviour): writes the starter config
// (cli/starter-config.ts) to FILE or gateway.yaml in the working directory, as JSON for a `.json` name.
// Questions go to stdout and answers are read as lines from stdin, so piped answers work as well as a
// terminal; an empty answer or the end of input takes the default shown. Asked: whether to overwrite an
// existing file (default no), the site's port, the upstream URL of `/`, the admin address (or `none`).
// `--yes` asks nothing: every default, and an existing file is overwritten (atomically). The result is
// validated before it is written. Exit 0 written; 1 not written (overwrite declined, invalid answers,
// write failure) with the reason on stderr; bad flags: UsageError (2).
//
//   runInit(args: string[], io: InitIo): Promise<number>   args are those after `init`; io.stdin: the answers
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { ConfigError, resolveConfigPath, validateConfig } from '../config/load-config.ts';
import { parseHostPort } from '../config/host-port.ts';
import { configFormat, parseConfigText } from '../config/read-config-file.ts';
import { targetUrlProblem } from '../config/target-url.ts';
import type { CliIo } from './admin-commands.ts';
import { parseFlags } from './parse-flags.ts';
import { STARTER_DEFAULTS, type StarterAnswers, starterConfig } from './starter-config.ts';
import { writeFileAtomic } from './write-file-atomic.ts';

export interface InitIo extends CliIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
}

export const INIT_USAGE = '  init [--yes] [-o FILE]                   write a starter config (asks before overwriting)\n';

/** A wrong answer is asked again this often before the default is taken. */
const MAX_TRIES = 3;

type Ask = (question: string) => Promise<string | undefined>;

export async function runInit(args: string[], io: InitIo): Promise<number> {
  const flags = parseFlags('init', args, { yes: { type: 'boolean', short: 'y' }, output: { type: 'string', short: 'o' } });
  const path = resolveConfigPath(flags.output, io.cwd);
  const format = configFormat(path);
  const exists = existsSync(path);
  let answers: StarterAnswers = { ...STARTER_DEFAULTS };
  if (flags.yes !== true) {
    const lines = createInterface({ input: io.stdin, terminal: false });
    // The iterator buffers lines that arrive before their question (piped input does that).
    const next = lines[Symbol.asyncIterator]();
    const ask: Ask = async (question) => {
      io.stdout(question);
      const line = await next.next();
      if (io.stdin.isTTY !== true) io.stdout('\n');
      return line.done ? undefined : String(line.value).trim();
    };
    try {
      if (exists && !/^y(es)?$/i.test((await ask(`${path} exists. Overwrite it? [y/N] `)) ?? '')) {
        io.stderr(`${path} left as it was (answer y, or use --yes, to overwrite it)\n`);
        return 1;
      }
      answers = await askAnswers(ask);
    } finally {
      lines.close();
    }
  }
  const text = starterConfig(answers, format);
  try {
    validateConfig(parseConfigText(text, format, path), path, format, io.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr(`error: ${error.message}\n`);
    return 1;
  }
  try {
    mkdirSync(dirname(path), { recursive: true });
    if (exists) writeFileAtomic(path, text);
    else writeFileSync(path, text, { flag: 'wx' });
  } catch (error) {
    io.stderr(`error: ${path}: cannot write the config file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})\n`);
    return 1;
  }
  io.stdout(`wrote ${path}\n`);
  return 0;
}

async function askAnswers(ask: Ask): Promise<StarterAnswers> {
  const d = STARTER_DEFAULTS;
  const port = await askValid(ask, `Port of the site [${d.port}]: `, d.port, (text) => {
    const value = Number(text);
    return /^[0-9]{1,5}$/.test(text) && value >= 1 && value <= 65535 ? { value } : undefined;
  });
  const target = await askValid(ask, `Upstream URL for / [${d.target}]: `, d.target, (text) =>
    targetUrlProblem(text) === undefined ? { value: text } : undefined,
  );
  const adminBind = await askValid(ask, `Admin API address, host:port or none [${d.adminBind}]: `, d.adminBind, (text) => {
    if (/^none$/i.test(text)) return { value: undefined };
    return parseHostPort(text) === undefined ? undefined : { value: text };
  });
  return { port, target, adminBind };
}

/** Asks until `parse` accepts the answer; an empty answer or the end of input takes the fallback. */
async function askValid<T>(ask: Ask, question: string, fallback: T, parse: (text: string) => { value: T } | undefined): Promise<T> {
  let prefix = '';
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const answer = await ask(prefix + question);
    if (answer === undefined || answer === '') return fallback;
    const parsed = parse(answer);
    if (parsed !== undefined) return parsed.value;
    prefix = `"${answer}" is not valid. `;
  }
  return fallback;
}
