// The built-in deterministic model: pseudo-localization. Letters become accented look-alikes and the
// result is marked with the target's native code, so untranslated or truncated strings stand out in a UI;
// placeholders (`{name}`, `{{count}}`, printf conversions, markup tags and entities) are kept intact.
// Deterministic and dependency-free: the model behind the golden fixtures and localization QA.
import { invalidArgument } from '../core/errors.ts';
import { parseTag, toIso6393 } from '../core/language-codes.ts';
import type { LanguagePair, TranslationModel } from './translation-model.ts';

/** Native codes (ISO 639-3) of the languages the model offers. */
export const PSEUDO_LANGUAGES: readonly string[] = [
  'ara', 'ces', 'dan', 'deu', 'ell', 'eng', 'fin', 'fra', 'heb', 'hin', 'hun', 'ita', 'jpn', 'kor', 'nld',
  'nor', 'pol', 'por', 'ron', 'rus', 'spa', 'swe', 'tha', 'tur', 'ukr', 'vie', 'zho',
];

const PLAIN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ACCENTED = 'áƀçðéƒĝĥíĵķļɱñöþǫŕšţúṽŵẋýžÁƁÇÐÉƑĜĤÍĴĶĻṀÑÖÞǪŔŠŢÚṼŴẊÝŽ';
const ACCENT = new Map([...PLAIN].map((c, i) => [c, [...ACCENTED][i]!]));
const PLACEHOLDER = /\{\{[^{}]*\}\}|\{[^{}]*\}|%(?:\d+\$)?[-+ 0#]*\d*(?:\.\d+)?[sdifxXoeEgGcu@%]|<[^<>]*>|&(?:[A-Za-z]+|#\d+);/g;

function accent(text: string): string {
  return text.replace(/[A-Za-z]/g, (c) => ACCENT.get(c) ?? c);
}

/** The pseudo-translation of one text into `target` (a native code). */
export function pseudoTranslate(text: string, target: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    out += accent(text.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  return `[${target}] ${out}${accent(text.slice(last))}`;
}

export class PseudoModel implements TranslationModel {
  readonly key: string;
  readonly #languages = new Set(PSEUDO_LANGUAGES);

  constructor(key: string) {
    this.key = key;
  }

  toNative(code: string): string {
    const parsed = parseTag(code);
    const three = parsed && toIso6393(parsed.language);
    return three && this.#languages.has(three) ? three : code;
  }

  checkPair({ source, target }: LanguagePair): void {
    if (!this.#languages.has(source)) throw invalidArgument(`source_language "${source}" is not supported by model "${this.key}"`);
    if (!this.#languages.has(target)) throw invalidArgument(`target_language "${target}" is not supported by model "${this.key}"`);
  }

  checkFiles(): void {}

  async translate(texts: string[], pair: LanguagePair): Promise<string[]> {
    return texts.map((text) => pseudoTranslate(text, pair.target));
  }
}
