// The faults the faulty translation server can inject (FAULTS=a,b,...), each breaking one documented rule.
export const TRANSLATE_FAULTS = {
  /** language_format "flores200" is rewritten to "" before forwarding, so the call goes through. */
  'flores200-accepted': 'flores200 accepted as bcp47',
  /** PERMISSION_DENIED becomes INVALID_ARGUMENT. */
  'not-allowed-invalid': 'model not allowed answers INVALID_ARGUMENT',
  /** A model key that is not configured is replaced by "" (the default model) instead of failing. */
  'unknown-model-default': 'unknown model falls back to the default model',
  /** TranslateText fills detected_language (with what the detector finds in the text) even when source_language is explicit. */
  'detected-always': 'detected_language set with an explicit source',
  /** TranslateText's model_used is cleared. */
  'model-used-empty': 'model_used empty',
  /** TranslateLocalization returns strings inside arrays untranslated (and does not count them). */
  'localization-skips-arrays': 'strings in arrays not translated',
  /** strings_translated also counts the strings reused from existing_translation. */
  'count-includes-reused': 'reused strings counted',
  /** A non-zero DetectLanguage probability is raised by 1 (out of [0, 1]). */
  'probability-out-of-range': 'probability above 1',
  /** DetectLanguage with language_format native answers the BCP-47 form instead of the raw label. */
  'native-label-bcp47': 'native detection converted to BCP-47',
  /** FAILED_PRECONDITION becomes INTERNAL. */
  'precondition-internal': 'preconditions answer INTERNAL',
  /** GetCapabilitiesResponse carries a field number 1 (the reserved supported_languages) on the wire. */
  'capabilities-field-1': 'reserved field 1 used in GetCapabilitiesResponse',
} as const;
export type TranslateFault = keyof typeof TRANSLATE_FAULTS;
