// The translate-tools suite passes a different but right tool server: the permitted-variant server
// (tools/test/variant/variant-tools.ts, written apart from the reference: its own schemas, argument checks
// and gRPC client) changes only what document 000 leaves open, and per set of variants no must-case fails or
// errs, and exactly the listed informational cases (the reference's recorded choices the variant does not
// share) come out informational.
import { variantSuite } from './variant-run.ts';
import { TOOLS_VARIANTS, type ToolsVariant } from './variant/variant-tools-variants.ts';

/** The cases of the reference's failure forms (translate-tools/errors/*, the file errors of transcribe_audio,
 * the service's own refusals): each asserts a tool error `CODE: message`, or the unknown tool's -32602. */
const FAILURE_FORMS = [
  'translate-tools/errors/grpc-error/tool-error-code-name-and-status-message',
  'translate-tools/errors/service-unreachable/unavailable-naming-the-address-then-works',
  'translate-tools/transcribe-audio/language-default/no-wav-gets-the-service-error',
  'translate-tools/transcribe-audio/missing-file/directory-is-not-found',
  'translate-tools/transcribe-audio/missing-file/not-found-names-the-path',
  'translate-tools/transcribe-audio/missing-file/unreadable-is-permission-denied',
  'translate-tools/translate-text/format-values/unsupported-format-is-invalid-argument',
];

variantSuite({
  surface: 'translate-tools',
  // The target runs in a fresh directory, where a bare `--import tsx` would not resolve: name tsx's loader.
  target: 'cmd:node --import {root}/node_modules/tsx/dist/loader.mjs {root}/tools/test/variant/variant-tools.ts',
  variants: Object.keys(TOOLS_VARIANTS) as ToolsVariant[],
  sets: [
    {
      // How the process behaves, none of it stated: answers 400 ms later (initialize 1 s), log lines on stderr,
      // a banner line on stdout, an optional configuration read from HOME, SIGTERM ignored.
      variants: ['slow', 'stderr-logs', 'stdout-banner', 'home-config', 'no-sigterm'],
      informational: [
        // stdout-banner: "Where diagnostics go is not stated" (tools/stdout-protocol-only).
        'translate-tools/tools/stdout-protocol-only/every-line-json-rpc-also-around-failures',
      ],
    },
    {
      // Plain-text results, a sixth tool, extra optional parameters, arguments checked by the tool itself.
      variants: ['text-results', 'extra-tool', 'extra-parameters', 'strict-validation'],
      informational: [
        // text-results: "The form of a successful tool result is not shown" (tools/result-format).
        'translate-tools/tools/result-format/response-json-as-text-and-structured-content',
        // extra-tool: five tools documented, none forbidden (tools/exactly-five).
        'translate-tools/tools/exactly-five/no-other-tools',
        // extra-parameters: optional parameters beyond the table (tools/extra-parameters), among them
        // translate_localization's context (translate-localization/no-context: "whether one may be offered
        // is not stated"), accepted and sent.
        'translate-tools/tools/extra-parameters/only-the-documented-parameters',
        'translate-tools/translate-localization/no-context/context-argument-refused',
        // strict-validation: language_format an enum of the documented values
        // (translate-text/format-values: "Whether the tool itself restricts language_format … is not stated").
        'translate-tools/translate-text/format-values/no-enum-in-any-schema',
      ],
    },
    {
      // Markdown results, failures in words of its own, relative paths read, no size check of its own,
      // host:port addresses only.
      variants: ['markdown-results', 'error-wording', 'relative-paths', 'no-size-check', 'bare-address'],
      informational: [
        // markdown-results: tools/result-format.
        'translate-tools/tools/result-format/response-json-as-text-and-structured-content',
        // error-wording: "Error message texts and error details: not shown" (errors/grpc-error,
        // errors/service-unreachable, transcribe-audio/missing-file, …); an unknown tool answered by a tool
        // error (errors/unknown-tool).
        ...FAILURE_FORMS,
        'translate-tools/errors/unknown-tool/json-rpc-invalid-params',
        // relative-paths: "What happens when file_path is not absolute is not stated".
        'translate-tools/transcribe-audio/relative-path/invalid-argument-not-read',
        // no-size-check: "What happens for a file above the service's 50 MB audio bound is not stated".
        'translate-tools/transcribe-audio/oversize-file/resource-exhausted-names-the-limit',
        // bare-address: "The accepted syntax of the address … not stated" (env/grpc-url-form).
        'translate-tools/env/grpc-url-form/dns-target-accepted',
        'translate-tools/env/grpc-url-form/http-prefix-ignored',
      ],
    },
    {
      // JSON in other shapes (snake_case, defaults left out, other order, a summary item first, output
      // schemas), every failure a JSON-RPC error, a deadline and no cancellation on the RPCs, another
      // serverInfo and capability, no descriptions and open schemas.
      variants: [
        'snake-case',
        'defaults-omitted',
        'rounded-numbers',
        'reordered',
        'summary-item',
        'output-schema',
        'rpc-errors',
        'deadline',
        'no-cancel',
        'own-info',
        'logging-capability',
        'bare-schemas',
      ],
      informational: [
        // snake-case, defaults-omitted, rounded-numbers, reordered, summary-item: tools/result-format;
        // output-schema too.
        'translate-tools/tools/result-format/response-json-as-text-and-structured-content',
        'translate-tools/tools/result-format/no-output-schema',
        // rpc-errors: "How a failed RPC is reported to the AI client is not stated" (errors/grpc-error), and
        // so the file errors, bad arguments (errors/argument-validation) and an unknown context argument
        // (translate-localization/no-context under bare-schemas: ignored, the call served).
        ...FAILURE_FORMS,
        'translate-tools/errors/argument-validation/missing-or-wrong-type-named',
        'translate-tools/transcribe-audio/relative-path/invalid-argument-not-read',
        'translate-tools/transcribe-audio/oversize-file/resource-exhausted-names-the-limit',
        'translate-tools/translate-localization/no-context/context-argument-refused',
        // deadline, no-cancel: "Whether the tool server bounds the duration of its gRPC calls is not stated".
        'translate-tools/tools/call-deadline/no-grpc-timeout-sent',
        'translate-tools/tools/call-deadline/cancelled-tool-call-cancels-the-rpc',
        // own-info: "The name and version reported during initialisation are not shown".
        'translate-tools/tools/server-info/name-and-package-version',
        // logging-capability: "The protocol spoken on stdio is not named" (tools/protocol).
        'translate-tools/tools/protocol/mcp-with-the-tools-capability-only',
        // bare-schemas: "Tool and parameter descriptions are not shown" (tools/descriptions).
        'translate-tools/tools/descriptions/every-tool-and-parameter-described',
        'translate-tools/tools/descriptions/input-schemas-closed',
      ],
    },
  ],
});
