// The faults the faulty tool server can inject (FAULTS=a,b,...), each breaking one documented rule.
export const TOOLS_FAULTS = {
  // ------------------------------------------------------------ the listing (tools/list answers)
  /** A sixth tool, synthesize_speech, is listed (and described, with a closed schema; informational clause). */
  'extra-tool': 'a sixth tool listed',
  /** detect_language is left out of the listing (calls to it still work). */
  'detect-unlisted': 'detect_language not listed',
  /** translate_text's input schema leaves language_format out. */
  'text-format-unlisted': 'translate_text parameter language_format not listed',
  /** translate_text's target_language is not marked required. */
  'text-target-optional': 'translate_text target_language not required',
  /** detect_language's language_format is marked required. */
  'detect-format-required': 'detect_language language_format required',
  /** translate_localization lists an extra optional string parameter, context (informational clause). */
  'localization-context-listed': 'translate_localization lists context',
  /** translate_localization's existing_translation is listed as an object, not a string (listing only). */
  'localization-existing-object': 'translate_localization existing_translation not a string',
  /** translate_localization's source_language is not marked required. */
  'localization-source-optional': 'translate_localization source_language not required',
  /** transcribe_audio's file_path is listed as `path` (listing only: calls still take file_path). */
  'transcribe-path-renamed': 'transcribe_audio file_path listed as path',
  /** get_capabilities lists a required string parameter, model (listing only). */
  'capabilities-param': 'get_capabilities requires a parameter',
  // ------------------------------------------------------------ tool calls
  /** translate_text without source_language sends `en` instead of asking the service to detect. */
  'source-default-en': 'translate_text source defaults to en',
  /** translate_text without language_format sends `native`. */
  'text-format-default-native': 'translate_text format defaults to native',
  /** translate_text without model sends the hard-coded key `apertium` instead of an empty model. */
  'model-default-apertium': 'translate_text model defaults to apertium',
  /** translate_text's model argument is not copied into the request. */
  'model-not-copied': 'translate_text drops model',
  /** detect_language without language_format sends `native`. */
  'detect-format-default-native': 'detect_language format defaults to native',
  /** translate_localization's source_language `auto` is sent as a guessed `en`, so the call succeeds. */
  'localization-auto-guessed': 'translate_localization accepts auto',
  /** transcribe_audio sends only the file's first 64 KiB (one chunk of a read stream). */
  'audio-first-chunk': 'transcribe_audio sends a truncated file',
  /** transcribe_audio refuses (a tool error `PERMISSION_DENIED`) an absolute file_path outside $HOME. */
  'home-files-only': 'transcribe_audio reads files under $HOME only',
  /** transcribe_audio reads a relative file_path from its working directory (informational clause). */
  'relative-path-accepted': 'transcribe_audio reads relative paths',
  /** detect_language's probability is reported as a percentage (0-100). */
  'probability-percent': 'detect_language probability in percent',
  /** get_capabilities reports ttsAvailable's value as sttAvailable (a copy-paste slip). */
  'stt-from-tts': 'sttAvailable copied from ttsAvailable',
  /** translate_text, translate_localization and transcribe_audio answer a tool error `UNAUTHENTICATED`
   * unless TRANSLATE_API_KEY is set (detect_language and get_capabilities stay free). */
  'api-key-required': 'an API key demanded by the paid tools',
  // ------------------------------------------------------------ environment and process
  /** TRANSLATE_GRPC_URL is not read: the tools always call the default address. */
  'grpc-url-ignored': 'TRANSLATE_GRPC_URL ignored',
  /** With TRANSLATE_GRPC_URL unset the tools call localhost:50051 (gRPC's customary port). */
  'default-port-50051': 'default address localhost:50051',
  /** A start-up banner line, no JSON, is written to stdout (informational clause). */
  'stdout-banner': 'non-JSON banner on stdout',
  /** Every protocol message is written to stderr instead of stdout. */
  'answers-on-stderr': 'protocol on stderr',
} as const;
export type ToolsFault = keyof typeof TOOLS_FAULTS;
