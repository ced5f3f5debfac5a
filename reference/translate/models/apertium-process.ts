// One kept-alive Apertium pipeline per language pair, in null-flush mode: each text goes in followed by
// NUL and comes out followed by NUL, so one process serves every call (start-up costs about 0.3 s).
// Texts are escaped for Apertium's stream format here instead of running apertium-destxt per call.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { ServiceError } from '../core/errors.ts';

/** Characters with a meaning in Apertium's stream format. */
const RESERVED = /[\\[\]^$/@<>{}]/g;

export function escapeForApertium(text: string): string {
  return text.replace(RESERVED, (c) => `\\${c}`);
}

/** Undoes escaping and unwraps superblanks (`[...]`) the pipeline may emit. */
export function unescapeFromApertium(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) out += text[++i];
    else if (c !== '[' && c !== ']') out += c;
  }
  return out;
}

interface Pending {
  resolve(text: string): void;
  reject(err: Error): void;
}

export class ApertiumProcess {
  readonly #modeFile: string;
  #child: ChildProcess | undefined;
  #buffer = '';
  readonly #pending: Pending[] = [];

  constructor(modeFile: string) {
    this.#modeFile = modeFile;
  }

  #start(): ChildProcess {
    let script: string;
    try {
      // The pair's pipeline with every stage in null-flush mode.
      script = execFileSync('apertium-wblank-mode', ['-z', this.#modeFile], { encoding: 'utf8' });
    } catch (err) {
      throw new ServiceError('INTERNAL', `apertium is not usable: ${(err as Error).message.split('\n')[0]}`, { cause: err });
    }
    // $1 = -n: no marks on unknown words (as `apertium -u`); $2: no extra tagger option.
    const child = spawn('bash', ['-c', script, 'apertium-pipeline', '-n', ''], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => this.#onData(chunk));
    child.stderr!.resume();
    child.stdin!.on('error', () => {}); // reported through 'exit'
    child.once('exit', (code, signal) => {
      this.#child = undefined;
      this.#buffer = '';
      const err = new ServiceError('INTERNAL', `apertium pipeline ended (${signal ?? `exit ${code}`})`);
      for (const p of this.#pending.splice(0)) p.reject(err);
    });
    return child;
  }

  #onData(chunk: string): void {
    this.#buffer += chunk;
    let nul = this.#buffer.indexOf('\0');
    while (nul >= 0) {
      const text = this.#buffer.slice(0, nul);
      this.#buffer = this.#buffer.slice(nul + 1);
      this.#pending.shift()?.resolve(unescapeFromApertium(text));
      nul = this.#buffer.indexOf('\0');
    }
  }

  /** Translates the texts in order, written all at once (one pipeline round per batch). */
  translate(texts: string[]): Promise<string[]> {
    this.#child ??= this.#start();
    const child = this.#child;
    // One write for the whole batch instead of one per text.
    child.stdin!.cork();
    const results = texts.map(
      (text) =>
        new Promise<string>((resolve, reject) => {
          this.#pending.push({ resolve, reject });
          // NUL inside a text would split it: Apertium reads it as a flush. The empty superblank `[]`
          // before NUL makes the first stage emit the last word instead of waiting for more input.
          child.stdin!.write(`${escapeForApertium(text.replaceAll('\0', ' '))}[]\0`);
        }),
    );
    child.stdin!.uncork();
    return Promise.all(results);
  }

  stop(): void {
    this.#child?.kill();
  }
}
