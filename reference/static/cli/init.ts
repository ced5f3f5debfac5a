// `--init`: asks a few questions and writes a config file. Answers are read as lines from stdin, so piped
// answers work as well as a terminal; at end of input every remaining question takes its default.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { ConfigError } from '../config/config-error.ts';
import { DEFAULT_PORT } from '../config/site-config.ts';

const DEFAULT_FOLDERS = './public';
/** A wrong answer is asked again this often before the default is taken. */
const MAX_TRIES = 3;

export interface InitOptions {
  /** Where the config goes (already resolved from `--config` or the working directory). */
  configPath: string;
  input: Readable & { isTTY?: boolean };
  output: Writable;
}

export async function runInit({ configPath, input, output }: InitOptions): Promise<void> {
  const rl = createInterface({ input, terminal: false });
  // The async iterator buffers lines that arrive before a question is asked (piped input does that).
  const lines = rl[Symbol.asyncIterator]();
  const ask = async (question: string): Promise<string | null> => {
    output.write(question);
    const next = await lines.next();
    if (!input.isTTY) output.write('\n');
    return next.done ? null : next.value.trim();
  };

  try {
    if (existsSync(configPath)) {
      const answer = (await ask(`Overwrite ${configPath}? (y/N) `)) ?? '';
      if (!/^(y|yes)$/i.test(answer)) {
        output.write(`Left ${configPath} untouched.\n`);
        return;
      }
    }
    const config: Record<string, unknown> = {};
    config.port = await askValid(ask, `Port [${DEFAULT_PORT}]: `, DEFAULT_PORT, parsePort);
    config.folders = await askValid(ask, `Static folder [${DEFAULT_FOLDERS}]: `, DEFAULT_FOLDERS, (text) => text);
    const proxy = await askProxy(ask);
    if (proxy !== null) config.proxy = proxy;
    const health = await askValid(ask, 'Health check endpoint (y/n) [y]: ', true, parseYesNo);
    if (health) config.healthCheck = true;

    try {
      await writeFile(configPath, `${JSON.stringify(config, null, 2)}\n`);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
      throw new ConfigError(configPath, `cannot write config file (${code})`, { cause: error });
    }
    output.write(`Wrote ${configPath}\n`);
  } finally {
    rl.close();
  }
}

type Ask = (question: string) => Promise<string | null>;

/** Asks until `parse` accepts the answer (it returns undefined to reject); empty or end of input => fallback. */
async function askValid<T>(ask: Ask, question: string, fallback: T, parse: (text: string) => T | undefined): Promise<T> {
  let prefix = '';
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const answer = await ask(prefix + question);
    if (answer === null || answer === '') return fallback;
    const value = parse(answer);
    if (value !== undefined) return value;
    prefix = `"${answer}" is not valid. `;
  }
  return fallback;
}

/** One line `/api http://localhost:3000`, a bare target URL (everything), or a prefix then its target. */
async function askProxy(ask: Ask): Promise<Record<string, string> | string | null> {
  const answer = await ask('Proxy prefix and target, e.g. "/api http://localhost:3000" [none]: ');
  if (answer === null || answer === '' || /^none$/i.test(answer)) return null;
  const [first = '', second] = answer.split(/\s+/);
  if (isTarget(first)) return first;
  if (!first.startsWith('/')) return null;
  if (second !== undefined) return isTarget(second) ? { [first]: second } : null;
  const target = await askValid(ask, `Proxy target for ${first} [none]: `, null, (text) => (isTarget(text) ? text : undefined));
  return target === null ? null : { [first]: target };
}

function parsePort(text: string): number | undefined {
  const port = Number(text);
  return /^\d+$/.test(text) && port <= 65535 ? port : undefined;
}

function parseYesNo(text: string): boolean | undefined {
  if (/^(y|yes)$/i.test(text)) return true;
  if (/^(n|no)$/i.test(text)) return false;
  return undefined;
}

function isTarget(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
