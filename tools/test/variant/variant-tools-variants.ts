// The variants the permitted-variant tool server can take on (VARIANTS=a,b,...), each a choice document 000
// ("Tool wrapper for AI clients") leaves open, with the sentence or catalog clause that leaves it open.
export const TOOLS_VARIANTS = {
  // ------------------------------------------------------------ the listing
  /** A sixth tool, synthesize_speech, beside the five: the document lists five tools and forbids no other
   * (translate-tools/tools/exactly-five). */
  'extra-tool': 'a sixth tool listed and served',
  /** Optional parameters the table does not list, each copied into the request field of its name:
   * translate_text and translate_localization take `context`, transcribe_audio `audio_format`
   * (translate-tools/tools/extra-parameters, translate-localization/no-context). */
  'extra-parameters': 'extra optional parameters',
  /** Input schemas with language_format as an enum of the documented values, which the tool checks itself
   * (INVALID_ARGUMENT without a call), as it checks that translate_localization's documents are JSON and its
   * languages explicit, and that transcribe_audio's file starts as a WAV (translate-text/format-values:
   * "Any other value … is rejected with INVALID_ARGUMENT", by the service or before it). */
  'strict-validation': 'arguments checked by the tool itself',
  /** No parameter descriptions and open input schemas: an unknown argument is ignored, not refused
   * (translate-tools/tools/descriptions: "Tool and parameter descriptions are not shown"). */
  'bare-schemas': 'no descriptions, open schemas',
  // ------------------------------------------------------------ results (translate-tools/tools/result-format)
  /** Results as plain text lines stating each value ("Probability: 0.725"), no structuredContent. */
  'text-results': 'results as plain text',
  /** Results as Markdown: bold labels, a table, inline code, escapes, percentages, a fenced JSON block. */
  'markdown-results': 'results as Markdown',
  /** JSON results with the protobuf field names (snake_case). */
  'snake-case': 'JSON keys in snake_case',
  /** JSON results without fields at their default values (protobuf's JSON mapping's own default). */
  'defaults-omitted': 'default values left out',
  /** Floating-point values in JSON rounded to 3 decimals (a probability, segment times). */
  'rounded-numbers': 'floats rounded to 3 decimals',
  /** JSON keys in another order and the lists of get_capabilities sorted. */
  reordered: 'other key and list order',
  /** A sentence in a text item of its own before the JSON item. */
  'summary-item': 'a summary text item first',
  /** Each tool declares an output schema (and answers with structuredContent that meets it). */
  'output-schema': 'output schemas declared',
  // ------------------------------------------------------------ failures (translate-tools/errors/*)
  /** Error texts in words of its own ("The translation service refused the call (permission denied): …"),
   * and an unknown tool answered with a tool error result. */
  'error-wording': 'other error wording',
  /** Every failure (a refused RPC, a file error, bad arguments) as a JSON-RPC error instead of a tool error. */
  'rpc-errors': 'failures as JSON-RPC errors',
  /** A relative file_path is read from the working directory (translate-tools/transcribe-audio/relative-path). */
  'relative-paths': 'relative paths read',
  /** A file above 50 MB is sent; the service decides (translate-tools/transcribe-audio/oversize-file). */
  'no-size-check': 'no size check of its own',
  // ------------------------------------------------------------ the gRPC side
  /** Each RPC carries a deadline of 120 s (translate-tools/tools/call-deadline). */
  deadline: 'a deadline on every RPC',
  /** A cancelled tool call leaves its RPC running (translate-tools/tools/call-deadline). */
  'no-cancel': 'cancellation not passed on',
  /** TRANSLATE_GRPC_URL only as host:port; other forms are refused at the call
   * (translate-tools/env/grpc-url-form: "The accepted syntax of the address … not stated"). */
  'bare-address': 'host:port addresses only',
  // ------------------------------------------------------------ the process and the session
  /** Each tools/call answered 400 ms later, initialize 1 s later (no latency is stated). */
  slow: 'slower answers',
  /** A start-up banner and a line per call on standard error (translate-tools/tools/stdout-protocol-only:
   * "Where diagnostics go is not stated"; stdout stays the protocol's). */
  'stderr-logs': 'log lines on stderr',
  /** A start-up line that is no JSON-RPC message on standard output, before the protocol starts
   * (translate-tools/tools/stdout-protocol-only: "Where diagnostics go is not stated"; the protocol is not
   * named either). */
  'stdout-banner': 'a banner line on stdout',
  /** Reads an optional configuration file from $HOME/.config/translate-tools/config.json (absent: defaults;
   * a HOME that is not a folder stops the start). */
  'home-config': 'optional configuration from HOME',
  /** SIGTERM is ignored: the server stops when its standard input closes (nothing states a signal). */
  'no-sigterm': 'no SIGTERM handler',
  /** serverInfo of its own name and version (translate-tools/tools/server-info). */
  'own-info': 'other serverInfo',
  /** The `logging` capability advertised besides `tools` (translate-tools/tools/protocol). */
  'logging-capability': 'another capability advertised',
} as const;
export type ToolsVariant = keyof typeof TOOLS_VARIANTS;
