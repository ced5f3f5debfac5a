// Turns a request's language codes into a model's native pair: `native` codes go through as given, BCP-47
// ones are canonicalised (region dropped) and converted by the model's adapter.
import { invalidArgument } from '../core/errors.ts';
import { isAuto, type LanguageFormat } from '../core/language-codes.ts';
import type { LanguagePair, TranslationModel } from '../models/translation-model.ts';

export function toModelCode(model: TranslationModel, code: string, format: LanguageFormat): string {
  return format === 'native' ? code : model.toNative(code);
}

/** The target code: required, never `auto`. */
export function requireTarget(code: string): string {
  if (isAuto(code)) throw invalidArgument(`target_language is required (got "${code}")`);
  return code;
}

/** The native pair, checked against the model (INVALID_ARGUMENT when it lacks it). */
export function modelPair(model: TranslationModel, source: string, target: string, format: LanguageFormat): LanguagePair {
  const pair = { source: toModelCode(model, source, format), target: toModelCode(model, target, format) };
  model.checkPair(pair);
  return pair;
}
