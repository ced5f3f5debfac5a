// The built-in deterministic model: pseudo-localization. Letters become accented look-alikes and the
// result is marked with the target's native code, so untranslated or truncated strings stand out in a UI;
// placeholders (`{name}`, `{{count}}`, printf conversions, markup tags, entities) and the structure of ICU
// plural/select arguments are kept intact, only their case messages accented.
// Deterministic and dependency-free: the model behind the golden fixtures and localization QA.
import { invalidArgument } from '../core/errors.ts';
import { toOfferedIso6393 } from '../core/language-codes.ts';
import type { LanguagePair, TranslationModel } from './translation-model.ts';

/** Native codes (ISO 639-3) of the languages the model offers. */
export const PSEUDO_LANGUAGES: readonly string[] = [
  'ara', 'ces', 'dan', 'deu', 'ell', 'eng', 'fin', 'fra', 'heb', 'hin', 'hun', 'ita', 'jpn', 'kor', 'nld',
  'nor', 'pol', 'por', 'ron', 'rus', 'spa', 'swe', 'tha', 'tur', 'ukr', 'vie', 'zho',
];

const PLAIN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ACCENTED = 'áƀçðéƒĝĥíĵķļɱñöþǫŕšţúṽŵẋýžÁƁÇÐÉƑĜĤÍĴĶĻṀÑÖÞǪŔŠŢÚṼŴẊÝŽ';
const ACCENT = new Map([...PLAIN].map((c, i) => [c, [...ACCENTED][i]!]));
function accent(text: string): string {
  return text.replace(/[A-Za-z]/g, (c) => ACCENT.get(c) ?? c);
}

/** Placeholders other than ICU braces: printf conversions, markup tags, entities. */
const PLACEHOLDER = /%(?:\d+\$)?[-+ 0#]*\d*(?:\.\d+)?[sdifxXoeEgGcu@%]|<[^<>]*>|&(?:[A-Za-z]+|#\d+);/g;
/** `{name}`, `{{name}}`, or the head of an ICU plural/select argument: `{count, plural,`. */
const ARGUMENT = /^\{\{[^{}]*\}\}|^\{\s*[\w.]+\s*(?:,\s*\w+\s*)?\}|^\{\s*[\w.]+\s*,\s*(?:plural|selectordinal|select)\s*,/;
/** An ICU case selector (`one`, `=0`, `offset:1`) before its `{message}`. */
const SELECTOR = /^\s*(?:offset:\s*\d+\s+)?(?:=\d+|[\w-]+)\s*(?=\{)/;

function accentText(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    out += accent(text.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  return out + accent(text.slice(last));
}

/** Accents a message from `start`; returns where it stopped (a closing brace of an enclosing case, or the
 * end). Arguments and ICU plural/select structure are copied as they are; case messages are accented. */
function pseudoMessage(text: string, start: number, out: string[]): number {
  let plain = start;
  let i = start;
  const flush = (): void => {
    out.push(accentText(text.slice(plain, i)));
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '}') break;
    if (c !== '{') {
      i++;
      continue;
    }
    const head = ARGUMENT.exec(text.slice(i));
    if (!head) {
      i++;
      continue;
    }
    flush();
    out.push(head[0]);
    i += head[0].length;
    if (head[0].endsWith(',')) i = pseudoCases(text, i, out);
    plain = i;
  }
  flush();
  return i;
}

/** The cases of an ICU plural/select argument, up to and including its closing brace. */
function pseudoCases(text: string, start: number, out: string[]): number {
  let i = start;
  for (;;) {
    const selector = SELECTOR.exec(text.slice(i));
    if (!selector) break;
    out.push(`${selector[0]}{`);
    i = pseudoMessage(text, i + selector[0].length + 1, out);
    if (text[i] !== '}') return i;
    out.push('}');
    i++;
  }
  const close = /^\s*\}/.exec(text.slice(i));
  if (close) {
    out.push(close[0]);
    i += close[0].length;
  }
  return i;
}

/** The pseudo-translation of one text into `target` (a native code). */
export function pseudoTranslate(text: string, target: string): string {
  const out: string[] = [];
  let i = pseudoMessage(text, 0, out);
  // A stray closing brace: keep it and go on.
  while (i < text.length) {
    out.push(text[i]!);
    i = pseudoMessage(text, i + 1, out);
  }
  return `[${target}] ${out.join('')}`;
}

export class PseudoModel implements TranslationModel {
  readonly key: string;
  readonly #languages = new Set(PSEUDO_LANGUAGES);

  constructor(key: string) {
    this.key = key;
  }

  toNative(code: string): string {
    return toOfferedIso6393(code, this.#languages);
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
