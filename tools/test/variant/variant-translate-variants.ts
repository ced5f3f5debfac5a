// The variants the permitted-variant translation service can take on (VARIANTS=a,b,...), each a choice
// document 000 leaves open, with the sentence (or catalog clause) that leaves it open.
export const TRANSLATE_VARIANTS = {
  /** Error messages name no field or value, and carry a google.rpc.Status with an ErrorInfo in
   * grpc-status-details-bin ("Error message texts and error details: not shown"). */
  'error-wording': 'other error wording, error details attached',
  /** Every answer carries trailing metadata of its own (nothing in the document forbids metadata). */
  'trailing-metadata': 'extra trailing metadata',
  /** available_models and available_voices in reverse order (translate/capabilities/list-order). */
  'list-order': 'capability lists in another order',
  /** Each call waits 150 ms before it is served ("Rate limits … not shown"; no latency is stated). */
  slow: 'slower answers',
  /** A non-zero detector score is squared (still in [0, 1]; only the range and the zero of an unscored
   * detector are stated). */
  probabilities: 'other scores',
  /** Synthesized WAVs resampled to 24 kHz, written as WAVE_FORMAT_EXTENSIBLE (PCM sub-format) with a LIST
   * chunk before the data ("sample_rate … typically 22050"; "16-bit PCM, RIFF header"). */
  'tts-24000-hz': 'TTS at 24 kHz, extensible format, LIST chunk',
  /** One segment from 0 s to the end of the speech, holding all the text (segment boundaries and count are
   * not stated). */
  segments: 'one segment over the whole speech',
  /** SynthesizeSpeech with speed 0 is refused with INVALID_ARGUMENT ("Effect of an omitted (zero) speed in
   * SynthesizeSpeech: not shown"). */
  'speed-zero-refused': 'speed 0 refused',
  /** Detected languages as BCP-47 tags with their likely region (`en-US`; translate/language-format/
   * bcp47-output-form). */
  'detected-region': 'detected languages with a region',
  /** TranslateLocalization's JSON compact, keys sorted, non-ASCII escaped (translate/localization/key-order,
   * output-formatting). */
  'localization-layout': 'compact sorted JSON',
  /** strings_translated counts each distinct text once (translate/localization/count-details). */
  'count-distinct': 'equal texts counted once',
  /** WAV audio without any sound is refused with INVALID_ARGUMENT, before anything else is checked
   * (translate/transcribe/silence, translate/errors/check-order). */
  'silence-refused': 'silent audio refused first',
  /** Only 16-bit PCM WAV is recognised; other sample encodings are refused with INVALID_ARGUMENT (any rate
   * and channel count is stated, encodings are not: translate/transcribe/wav-encodings). */
  'pcm16-only': '16-bit PCM input only',
  /** "50 MB" read as 50,000,000 bytes: larger audio_data is refused (translate/limits/audio-size-over). */
  'audio-limit-si': 'audio bound of 50,000,000 bytes',
  /** A WAV holding more than VARIANT_MAX_AUDIO_SECONDS of audio is refused with INVALID_ARGUMENT, judged from
   * its header and data size, whatever its size in bytes (bounds on duration are not stated:
   * translate/limits/audio-duration-and-rate). */
  'duration-bound': 'audio longer than a minute refused',
  /** Every answer carries an unknown field 15 (a later, additive version of the messages). */
  'extra-fields': 'an extra response field',
  /** Model keys of its own (see EXTERNAL_MODEL_KEYS), declared in the description it is run with ("Callers
   * choose a translation model by its configured key"). */
  'model-keys': 'other model keys',
} as const;
export type TranslateVariant = keyof typeof TRANSLATE_VARIANTS;

/** `tts-24000-hz`: the sample rate of synthesized speech. */
export const VARIANT_TTS_RATE = 24_000;
/** `audio-limit-si`: the largest audio_data accepted. */
export const VARIANT_AUDIO_LIMIT = 50_000_000;
/** `duration-bound`: the longest audio accepted. */
export const VARIANT_MAX_AUDIO_SECONDS = 60;
/** `model-keys`: the variant's key → the reference target's key. */
export const EXTERNAL_MODEL_KEYS: ReadonlyMap<string, string> = new Map([
  ['demo', 'pseudo'],
  ['rule-based', 'apertium'],
  ['nllb-tiny', 'tiny-nllb'],
  ['staging', 'hidden'],
  ['broken', 'missing'],
  ['mirror', 'loop'],
]);
