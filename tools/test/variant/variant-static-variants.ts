// The variants the permitted-variant static/proxy server can take on (VARIANTS=a,b,...), each a choice
// document 002 (part A) leaves open, with the sentence or catalog clause that leaves it open.
export const STATIC_VARIANTS = {
  /** Start-up banner lines on stdout and a notice on stderr; the ready line reads "Server ready at <url>/"
   * (how readiness shows is static/config/ready-line). */
  banner: 'banner lines, another ready line',
  /** stdout is written in batches every 500 ms, and a log file's lines 600 ms after the request (nothing
   * states when a log line is written). */
  'buffered-logs': 'buffered log output',
  /** Without a config file: port 8000 whatever PORT says ("Without a config file the defaults are port 8000";
   * static/config/no-file-port-env), and the missing-file warning on stdout in other words
   * (static/config/no-file-warning-stream). */
  'no-config-8000': 'no config file: port 8000, warning on stdout',
  /** Other bodies and statuses where none is given: an HTML 404 page (when `unhandled` does not answer), an
   * HTML 401 and CGI 500 page, a JSON 429 without a configured message, 503 for an unreachable upstream, text
   * upload errors, and startup errors in two lines of other words with exit status 3 (static/unhandled/
   * default-body, hosts/no-matching-site, basic-auth/401-body, rate-limit/default-message,
   * cgi/spawn-failure-body, proxy/upstream-unreachable, upload/bad-request, upload/error-body,
   * startup/error-format and the other startup-error choices). */
  'other-errors': 'other error bodies, statuses and startup messages',
  /** Other MIME details: charset on every text type, the icon as image/vnd.microsoft.icon, uploaded files
   * fetched back as application/octet-stream attachments (static/favicon/response-headers,
   * upload/get-details, folders/content-type). */
  'mime-alt': 'other MIME details',
  /** X-Served-By and X-Request-Id on every answer (headers the document does not forbid). */
  'extra-headers': 'extra response headers',
  /** 50 ms before each request is handled (no latency is stated). */
  slow: 'slower answers',
  /** No SIGTERM or SIGINT handler: the default action ends the process (static/config/signal-shutdown). */
  'no-sigterm': 'no signal handlers',
  /** Pages are served as they are, without the hot-reload client added (static/hot-reload/script-injection). */
  'no-inject': 'hot-reload client not added to pages',
  /** The event stream sends no greeting, `event: change` with the changed path as plain text, and its own
   * client script listens for that (static/hot-reload/event-names, event-payload: "Event names and payload
   * format: not shown"). */
  'events-alt': 'other event names and payload',
  /** `--cluster start` stays in the foreground as the cluster's manager (node:cluster, one worker per core),
   * controlled by the other actions through a state file; --cluster-config reads `key = value` lines
   * (static/cli/cluster-manager, cli/cluster-start-background). */
  'cluster-foreground': 'a foreground cluster manager of its own',
  /** --init asks other questions in another order and wording (the first one, about importing settings,
   * ends the command when answered with a path that is no file), the overwrite question last, and reads them
   * from a terminal only (static/cli/init-questions, init-overwrite-prompt). */
  'init-tty': 'another --init, on a terminal only',
  /** Usage on stderr, no -h, a --version flag, and exit status 1 for an unknown option
   * (static/cli/help-output-and-exit, cli/unknown-flag, versioning/version-flag). */
  'help-alt': 'other help and option handling',
  /** A successful upload answers 201 with a count and a URL per file besides the documented fields
   * (static/upload/success-status). */
  'upload-201': 'uploads answer 201 with more fields',
  /** The health object carries more fields, as application/health+json (static/health/status-and-type). */
  'health-extra': 'more health fields, another type',
  /** CORS preflights answer 200 (static/cors/defaults). */
  'cors-200': 'preflight 200',
  /** No RateLimit-* or Retry-After headers (static/rate-limit/headers-and-window). */
  'no-ratelimit-headers': 'no rate-limit headers',
  /** Another default realm for the Basic challenge (static/basic-auth/realm-default). */
  'realm-alt': 'another default realm',
  /** `folders` only in the documented forms ("string, array of strings (searched in order), or object mapping
   * URL path to directory (nestable)"): anything else, an array holding a mount object for one, is a startup
   * error. */
  'strict-folders': 'undocumented folders forms refused at startup',
  /** NODE_ENV=live selects production and any other value development, NODE_ENV=production included ("NODE_ENV"
   * is named but not the values that select a mode: static/config/node-env-mode). Its description names the
   * values as `modeEnv`. */
  'mode-env-alt': 'other NODE_ENV values select the modes',
  /** An upload entry without `fieldName` takes file parts of the field `attachment` only, and answers 400 to
   * others (fieldName "is listed but its effect is not described": static/upload/field-name). Its description
   * names the field as `uploadField`. */
  'upload-field': 'uploads take one field by default',
} as const;
export type StaticVariant = keyof typeof STATIC_VARIANTS;
