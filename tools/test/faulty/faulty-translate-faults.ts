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
  /** The RIFF size of returned WAVs (SynthesizeSpeech audio_data, TranslateAudio translated_audio) is 8 too large. */
  'wav-sizes-wrong': 'RIFF size field off by 8',
  /** sample_rate in SynthesizeSpeech and TranslateAudio answers is twice the rate in the WAV header. */
  'sample-rate-mismatch': 'sample_rate twice the header rate',
  /** SynthesizeSpeech's speed is replaced by 1 before relaying. */
  'speed-ignored': 'speed ignored',
  /** SynthesizeSpeech's voice and TranslateAudio's target_voice are cleared before relaying. */
  'speaker-ignored': 'speaker ignored',
  /** TranscribeAudio's full_text is the segments' texts joined with nothing between them. */
  'full-text-no-spaces': 'full_text joined without spaces',
  /** TranscribeAudio's segment start and end times are in milliseconds. */
  'segment-times-ms': 'segment times in milliseconds',
  /** TranscribeAudio's detected_language is a POSIX locale (`en_US`) when BCP-47 was asked for. */
  'detected-language-raw': 'detected_language not BCP-47',
  /** TranscribeAudio and TranslateAudio refuse audio_data of 50,000,000 bytes or more with INVALID_ARGUMENT
   * (a bound below 50 MB, in any reading of it). */
  'audio-limit-below-50-mb': 'audio_data of 50,000,000 bytes refused',
  /** TranscribeAudio and TranslateAudio refuse a WAV of more than one channel with INVALID_ARGUMENT. */
  'stereo-refused': 'multi-channel WAV refused',
  /** TranslateAudio with source_language empty or `auto` answers INVALID_ARGUMENT. */
  'source-auto-refused': 'TranslateAudio source auto refused',
  /** TranslateAudio translates (and speaks) the transcription with a model other than the default one. */
  'translate-audio-other-model': 'TranslateAudio not translated with the default model',
  /** `model unloaded:` lines are dropped from the log. */
  'models-never-unloaded': 'speech models never logged as unloaded',
  /** The log says the en STT model and en TTS voice were loaded at start-up, before any call. */
  'models-loaded-eagerly': 'speech models loaded at start-up',
} as const;
export type TranslateFault = keyof typeof TRANSLATE_FAULTS;
