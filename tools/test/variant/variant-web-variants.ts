// The variants the permitted-variant web gateway can take on (VARIANTS=a,b,...), each a choice document 000
// leaves open, with the sentence (or catalog clause) that leaves it open. `rest-bodies` and `snake-case` are
// body designs of their own, declared in variant-web-rest.json / variant-web-snake.json; with either, the
// page must be the variant's own (`page-alt`), since the reference page speaks the protobuf JSON mapping.
export const WEB_VARIANTS = {
  /** Requests and answers in a REST design of its own: renamed fields, the localization file as a JSON value,
   * audio uploaded as multipart/form-data or as the raw body, speech answered as audio/wav, transcriptions
   * as text/plain ("JSON bodies of these routes: not shown"). */
  'rest-bodies': 'REST bodies (multipart, raw audio, text answers)',
  /** The protobuf message design with proto field names only (lowerCamel refused) and bytes in base64url
   * ("JSON bodies of these routes: not shown"). */
  'snake-case': 'snake_case bodies, base64url bytes',
  /** Its own page (other layout, other selectors, labelled results, a select for the target language that
   * offers no Spanish: the languages a page offers are its own), whose client retries 502/503/504 and also
   * 429 and network failures, 4 times, after 300-2400 ms (translate-web/routes/client-page,
   * client/no-other-retry, client/retry-policy). */
  'page-alt': 'another page and retry policy',
  /** gRPC failures as RFC 9457 problem+json with other statuses: 422 for INVALID_ARGUMENT, 412 for
   * FAILED_PRECONDITION, 502 for UNAVAILABLE, 500 for INTERNAL… ("Error message texts and error details: not
   * shown"; translate-web/errors/status-mapping, errors/body). */
  'errors-alt': 'other error statuses and bodies',
  /** POST routes answer 201 (no success status is stated; translate-web/routes/success-status). */
  'created-201': 'success as 201',
  /** CORS headers on every API answer and a 204 preflight (translate-web/auth/none). */
  cors: 'CORS allowed',
  /** GET /healthz, GET /api/languages, and GET /api/detect?text=… besides the documented routes
   * (translate-web/routes/unknown-and-wrong-method). */
  'extra-routes': 'extra routes',
  /** A GetCapabilities probe at start-up and a grpc.health.v1 check before each call (nothing limits the
   * calls a gateway makes besides the route's RPC). */
  'startup-probe': 'start-up probe and health checks',
  /** 300 ms before each call and 300 ms before each answer (no latency is stated; deadlines count from the
   * call). */
  slow: 'slower answers',
  /** Banner lines and a request log on stdout, no "listening on" line (translate-web/env/startup). */
  banner: 'banner and request log on stdout',
  /** No SIGTERM/SIGINT handler: the default ends the process (shutdown is not stated). */
  'no-sigterm': 'no signal handlers',
  /** UNAVAILABLE calls are retried by the gateway itself, twice, 100 ms apart (client retries are stated,
   * a gateway's own are not). */
  'gateway-retries': 'the gateway retries UNAVAILABLE',
  /** A call goes on when the HTTP client disconnects (translate-web/errors/client-disconnect). */
  'no-cancel': 'calls not cancelled on disconnect',
  /** A timeout variable of 0 or not a number means no deadline, with a warning (translate-web/env/startup). */
  'lenient-env': 'malformed timeouts tolerated',
  /** At most 16 calls in flight; the others wait their turn, their deadline counting from their call
   * ("Rate limits … not shown"; translate-web/limits/rate). */
  'concurrency-limit': 'at most 16 calls at once',
} as const;
export type WebVariant = keyof typeof WEB_VARIANTS;
