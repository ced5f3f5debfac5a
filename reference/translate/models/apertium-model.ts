// Apertium (Debian packages) as a translation model. Native codes are Apertium's ISO 639-3 codes; a pair
// is a mode file `<source>-<target>.mode` in the modes directory.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { invalidArgument, ServiceError } from '../core/errors.ts';
import { toOfferedIso6393 } from '../core/language-codes.ts';
import { ApertiumProcess } from './apertium-process.ts';
import type { LanguagePair, TranslationModel } from './translation-model.ts';

export const DEFAULT_MODES_DIR = '/usr/share/apertium/modes';

export interface ApertiumOptions {
  modes: string;
  /** Pairs offered (`eng-spa`); default every mode file found in `modes`. */
  pairs: string[] | undefined;
}

function discoverPairs(modes: string): string[] {
  if (!existsSync(modes)) return [];
  return readdirSync(modes)
    .filter((name) => /^[a-z]{2,3}-[a-z]{2,3}\.mode$/.test(name))
    .map((name) => name.slice(0, -'.mode'.length));
}

export class ApertiumModel implements TranslationModel {
  readonly key: string;
  readonly #modes: string;
  readonly #pairs: Set<string>;
  readonly #languages: Set<string>;
  readonly #processes = new Map<string, ApertiumProcess>();

  constructor(key: string, options: ApertiumOptions) {
    this.key = key;
    this.#modes = options.modes;
    this.#pairs = new Set(options.pairs ?? discoverPairs(options.modes));
    this.#languages = new Set([...this.#pairs].flatMap((pair) => pair.split('-')));
  }

  toNative(code: string): string {
    return toOfferedIso6393(code, this.#languages);
  }

  checkPair({ source, target }: LanguagePair): void {
    if (!this.#languages.has(source)) throw invalidArgument(`source_language "${source}" is not supported by model "${this.key}"`);
    if (!this.#pairs.has(`${source}-${target}`)) {
      throw invalidArgument(`target_language "${target}" is not supported from "${source}" by model "${this.key}"`);
    }
  }

  #modeFile({ source, target }: LanguagePair): string {
    return join(this.#modes, `${source}-${target}.mode`);
  }

  checkFiles(pair: LanguagePair): void {
    const file = this.#modeFile(pair);
    if (!existsSync(file)) throw new ServiceError('INTERNAL', `model "${this.key}": file missing at ${file}`);
  }

  async translate(texts: string[], pair: LanguagePair): Promise<string[]> {
    const name = `${pair.source}-${pair.target}`;
    let process = this.#processes.get(name);
    if (!process) {
      process = new ApertiumProcess(this.#modeFile(pair));
      this.#processes.set(name, process);
    }
    const out = await process.translate(texts);
    return out.map((translated, i) => {
      // Some pairs exit cleanly with nothing: that is a failure, not a translation.
      if (translated.trim() === '') throw new ServiceError('INTERNAL', `model "${this.key}" returned an empty translation for text ${i + 1}`);
      return translated;
    });
  }

  stop(): void {
    for (const process of this.#processes.values()) process.stop();
  }
}
