// Translation models behind one interface, chosen by model key. Codes reaching a model are its native
// codes: `toNative` converts a pivot (BCP-47) code, and leaves a code it does not recognise unchanged.
import type { CallContext } from '../core/call-context.ts';
import type { LanguageFormat } from '../core/language-codes.ts';

export interface LanguagePair {
  source: string;
  target: string;
}

export interface TranslateOptions {
  /** Per-text hints (same length as the texts) for models that use them. */
  contexts?: (string | undefined)[];
  call: CallContext;
  /** The caller's language_format (the redirect adapter forwards it). */
  format: LanguageFormat;
}

export interface TranslationModel {
  readonly key: string;
  /** The model's code for a pivot code; a code it does not recognise is returned unchanged. */
  toNative(code: string): string;
  /** Throws INVALID_ARGUMENT naming source_language or target_language when the model lacks the pair. */
  checkPair(pair: LanguagePair): void;
  /** Throws INTERNAL when a file the model needs for `pair` is missing at its configured path. */
  checkFiles(pair: LanguagePair): void;
  /** Translates every text in one model call (the texts are never blank). */
  translate(texts: string[], pair: LanguagePair, options: TranslateOptions): Promise<string[]>;
}
