// The translate-web suite passes a different but right web gateway: the permitted-variant gateway
// (tools/test/variant/variant-web.ts, written apart from the reference) changes only what document 000
// leaves open — its body design (declared in its description), error statuses and bodies, success status,
// page and retry policy, extra routes, CORS, calls besides the route's, timing, stdout, signals, concurrency —
// and per set of variants no must-case fails or errs, and exactly the listed informational cases (the
// reference's recorded choices the variant does not share) come out informational.
import { variantSuite } from './variant-run.ts';
import { WEB_VARIANTS, type WebVariant } from './variant/variant-web-variants.ts';

// The target runs in a fresh directory, where a bare `--import tsx` would not resolve: name tsx's loader.
const TARGET = 'cmd:node --import {root}/node_modules/tsx/dist/loader.mjs {root}/tools/test/variant/variant-web.ts';
const describe = (file: string): string[] => ['--describe', `translate-web=${file}`];

/** Every body case of the reference's protobuf JSON design: a gateway of another design fails them all. */
const PROTO_JSON_BODIES = [
  'translate-web/bodies/capabilities/request-and-response-in-proto-json',
  'translate-web/bodies/detect/request-and-response-in-proto-json',
  'translate-web/bodies/json-mapping/any-text-reaches-the-service-unchanged',
  'translate-web/bodies/json-mapping/default-values-emitted',
  'translate-web/bodies/localize/request-and-response-in-proto-json',
  'translate-web/bodies/synthesize/request-and-response-in-proto-json',
  'translate-web/bodies/transcribe/request-and-response-in-proto-json',
  'translate-web/bodies/translate-audio/request-and-response-in-proto-json',
  'translate-web/bodies/translate/request-and-response-in-proto-json',
];

/** The page-alt client retries 429 and network failures too, 4 times, after other waits; its translate form
 * offers no Spanish, so the reference stack's translation into the pair's target is not what it shows. */
const OTHER_RETRY_POLICY = [
  'translate-web/client/no-other-retry/429-shown-at-once',
  'translate-web/client/no-other-retry/network-failure-shown-at-once',
  'translate-web/client/retry-policy/three-retries-after-250-500-1000-ms-then-the-error',
  'translate-web/routes/client-page/translate-detect-localize-synthesize-and-play',
];

/** errors-alt: other statuses (422 for a body it cannot read) and problem+json bodies for every failure. */
const OTHER_ERRORS = [
  'translate-web/bodies/invalid-request/400-array-body',
  'translate-web/bodies/invalid-request/400-invalid-base64',
  'translate-web/bodies/invalid-request/400-malformed-json',
  'translate-web/bodies/invalid-request/400-unknown-field',
  'translate-web/bodies/invalid-request/400-wrong-type',
  'translate-web/bodies/invalid-request/413-above-72-mib',
  'translate-web/bodies/invalid-request/415-when-not-json',
  'translate-web/errors/body/json-error-with-code-and-the-status-message',
  'translate-web/errors/deadline-exceeded/504-when-the-deadline-passes',
  'translate-web/errors/service-unavailable/503-then-recovers-when-the-service-is-back',
  'translate-web/errors/status-mapping/every-grpc-code-on-its-http-status',
  'translate-web/routes/unknown-and-wrong-method/404-and-405-with-allow-no-call',
];

/** The variant serves no OpenAPI document (none is mentioned). */
const NO_OPENAPI = 'translate-web/routes/openapi/openapi-3-1-with-the-seven-routes';

variantSuite({
  surface: 'translate-web',
  target: TARGET,
  variants: Object.keys(WEB_VARIANTS) as WebVariant[],
  sets: [
    {
      variants: ['rest-bodies', 'page-alt', 'errors-alt', 'created-201', 'cors', 'banner', 'no-sigterm'],
      args: describe('tools/test/variant/variant-web-rest.json'),
      informational: [
        ...PROTO_JSON_BODIES,
        // rest-bodies: the localize file as a JSON value; proto field names are not its names.
        'translate-web/bodies/json-mapping/proto-field-names-accepted',
        // errors-alt (and rest-bodies: unknown fields ignored, a transcription that is not multipart refused 415)
        ...OTHER_ERRORS,
        // created-201
        'translate-web/routes/success-status/200-for-every-route',
        // cors
        'translate-web/auth/none/no-credential-and-no-cors-headers',
        // banner
        'translate-web/env/startup/listening-line-on-stdout',
        // page-alt
        ...OTHER_RETRY_POLICY,
        NO_OPENAPI,
      ],
    },
    {
      variants: ['snake-case', 'page-alt', 'extra-routes', 'startup-probe', 'slow', 'gateway-retries', 'no-cancel', 'lenient-env', 'concurrency-limit'],
      args: describe('tools/test/variant/variant-web-snake.json'),
      informational: [
        // snake-case: lowerCamel names refused, snake_case and base64url answers.
        ...PROTO_JSON_BODIES,
        // extra-routes: GET /api/detect answers.
        'translate-web/routes/unknown-and-wrong-method/404-and-405-with-allow-no-call',
        // lenient-env
        'translate-web/env/startup/timeout-not-a-number-exits-1',
        'translate-web/env/startup/timeout-zero-exits-1',
        // no-cancel
        'translate-web/errors/client-disconnect/cancels-the-call',
        // concurrency-limit
        'translate-web/limits/rate/forty-requests-at-once-all-forwarded-together',
        // page-alt
        ...OTHER_RETRY_POLICY,
        NO_OPENAPI,
      ],
      // gateway-retries: the page never sees the gateway fail for an unavailable service.
      notApplicable: ['translate-web/client/retry-statuses/gateway-fails-twice-then-answers'],
    },
    {
      // The reference's design and page (its description), served by an independent gateway.
      variants: ['created-201', 'slow', 'errors-alt'],
      args: describe('conformance/translate-web/reference-target/description.json'),
      informational: [
        ...OTHER_ERRORS,
        'translate-web/routes/success-status/200-for-every-route',
        NO_OPENAPI,
      ],
    },
  ],
});
