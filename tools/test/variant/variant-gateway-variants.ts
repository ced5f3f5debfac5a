// The variants the permitted-variant gateway can take on (VARIANTS=a,b,...), each a choice document 001 leaves
// open, with the catalog clause (spec/gateway.yaml) or the document's "not shown" that leaves it open. The
// config's own key naming (variant-gateway-adapter.mjs, variant-gateway-config.ts) is always on.
export const GATEWAY_VARIANTS = {
  // ------------------------------------------------------------ the admin API's answers
  /** Other success statuses where the document names a body but no status: 201 for POST /upstreams/add,
   * POST /ip-deny and POST /certs/reload, 202 for POST /shutdown (gateway/admin/success-http-200). */
  'own-codes': 'other success statuses',
  /** `status` is `success` in the answers whose `status` value the document leaves open (upstream changes,
   * purge, ip-deny), and `site` is `all` when remove or weight named none (gateway/admin/success-status-ok,
   * gateway/upstreams/remove-site-omitted). */
  'status-word': 'another word for success',
  /** Errors the document does not give, in other words and statuses: 422 for missing or invalid fields and
   * unknown routes, sites and targets, 404 for a known path with another method, any Content-Type read as
   * JSON, a DELETE /ip-deny of an invalid block answered `removed`, 409 for adding a target the route has,
   * messages of its own (the documented errors keep their statuses and the `status`/`message` shape), each
   * error body with a `code` too (gateway/admin/unknown-path-404, wrong-method-405, invalid-json-body-400,
   * wrong-content-type-415, gateway/upstreams/missing-field-400, invalid-field-400, unknown-route-404,
   * unknown-site-404, weight-unknown-target-404, weight-range, add-duplicate-target,
   * gateway/certs/missing-field-400, gateway/ip-deny/delete-body-and-validation,
   * gateway/cache-purge/missing-or-invalid-url-400, gateway/reload/unreadable-file,
   * gateway/config/token-env-unset). */
  'own-errors': 'other error statuses and wording',
  /** The 401 body of RFC 6750 (`{"error":"invalid_token",…}`) and a challenge naming the realm ("Body of the
   * 401 response: not shown"; gateway/errors/unauthorized-body). */
  'oauth-401': 'a 401 body of its own',
  /** `Authorization: Bearer <token>` exactly: the scheme word as written, one space (gateway/auth/header-parsing). */
  'strict-bearer': 'a strict Authorization header',
  /** More fields in the JSON answers (a request id, the version and uptime in the status object, an id per
   * upstream and route, the limit and window of each rate-limit bucket, `warnings` on every reload, empty when
   * there is none, more fields in /__health__) and the health answer as application/health+json
   * (gateway/data-plane/health-response-details, gateway/reload/warnings-absent-when-none). */
  'extra-fields': 'extra fields in answers',
  /** The keys of every JSON object answered in alphabetical order. */
  'sorted-keys': 'another key order',
  /** Admin endpoints beyond the twelve: GET / (an index), /health, /version, /config (the running config,
   * the token hidden) and /events (a log of recent reloads and changes, as JSON) (gateway/admin/no-events). */
  'extra-endpoints': 'extra admin endpoints',
  /** The site label of a site of any host is `:<port>` (as Caddy writes it) and its rate-limit counters are
   * under `*` ("or * for wildcard rules"; gateway/routes/site-label-without-host). */
  'any-host-label': 'another label for sites of any host',
  /** GET /rate-limits lists a bucket (and a site) only once it has counted a request, again only after a reset
   * (a rate-limited gateway that counted nothing answers `{}`, as an express-rate-limit store keyed on first use
   * would) (gateway/rate-limits/empty-and-untouched-buckets). */
  'counted-buckets-only': 'buckets listed once they count',
  /** `upstreams` lists one entry per route target (a URL of two routes twice, each entry naming its site and
   * route) and the status counts route targets (gateway/upstreams/entry-per-distinct-url). */
  'per-route-entries': 'one upstream entry per route target',
  /** `selected.last_secs` is null until the upstream is first picked (gateway/upstreams/entry-selected-never). */
  'last-secs-null': 'null before the first pick',
  /** `config_path` as given relative to the working directory (gateway/status/config-path-absolute). */
  'config-path-relative': 'a relative config_path',
  /** `inflight` counts admin requests in progress too, the GET /status asking included
   * (gateway/status/inflight-excludes-admin). */
  'counts-admin': 'admin requests counted in inflight',
  /** Answers echo targets, purge URLs and blocks in their normal form (URL normalised, the purge URL
   * without its port, a block with its prefix length) (gateway/upstreams/target-comparison,
   * gateway/cache-purge/url-echo-and-variants, gateway/ip-deny/cidr-echo-and-duplicates). */
  'normalised-echo': 'normalised echoes',
  /** A gateway whose sites have no cache section still has the cache feature: a purge there answers 200 with
   * `purged` false, not 501 (the document ties 501 to the feature, not to the config; declared in the
   * description as `cacheSectionAbsent: available`, gateway/errors/cache-purge-no-feature-501). */
  'purge-without-section': 'the cache feature without a cache section',
  /** Removing the last target of a route is refused with 409 (gateway/upstreams/remove-last-target). */
  'keep-last-target': 'a route keeps its last target',
  // ------------------------------------------------------------ the config
  /** `least-conn` is the default strategy and `random` is not offered (gateway/routes/strategy-set). */
  'strategies-alt': 'another strategy set and default',
  /** The format is read off the text (JSON when it parses as JSON, else YAML), not the file name
   * (gateway/config/format-detection). */
  'sniff-format': 'format from the content',
  /** Unknown keys are ignored with a warning instead of refused (gateway/config/site-key-set). */
  'lenient-keys': 'unknown keys ignored',
  /** Every route forwards the request path without its prefix (`/api/x?q` as `/x?q`, `/api` as `/`), as Traefik's
   * StripPrefix or nginx's `proxy_pass http://up/;` do (gateway/data-plane/route-prefix-matching). */
  'strip-prefix': 'the route prefix stripped before forwarding',
  /** Other defaults where the document gives none: global.shutdownTimeoutSecs 2 (shorter than a request the suite
   * lets drain, so a case relying on the default would see it cut), a metrics section without
   * a path served at /-/metrics (gateway/config/shutdown-timeout-default, gateway/data-plane/metrics-format). */
  'defaults-alt': 'other defaults',
  // ------------------------------------------------------------ the data plane and the process
  /** Metrics in the OpenMetrics text format (gateway/data-plane/metrics-format). */
  openmetrics: 'OpenMetrics',
  /** A denied client's connection is closed without an answer (gateway/data-plane/denied-client-403). */
  'deny-drop': 'denied connections closed',
  /** A refused API key or JWT answered 403 without a challenge (basic auth keeps its 401): which refusal status
   * is not given (gateway/site-auth/api-key, gateway/site-auth/jwt, gateway/site-auth/refusal-details). */
  'auth-403': 'API-key and JWT refusals 403',
  /** Requests still running when the shutdown timeout ends are answered 503 before the process exits
   * (gateway/shutdown/timeout-expiry). */
  'timeout-503': '503 for requests cut by the shutdown timeout',
  /** A banner on stdout at start and an access log line on stdout per request. */
  banner: 'banner and access log on stdout',
  /** No SIGTERM or SIGINT handler: the default action ends the process (gateway/cli/run-server). */
  'no-sigterm': 'no signal handlers',
  /** 40 ms before each admin answer, 10 ms before each data-plane request is handled (no latency is stated). */
  slow: 'slower answers',
  // ------------------------------------------------------------ the command line
  /** Its own command line: the server is `serve`, shortcuts print text (not JSON) and exit 3 for an error
   * answer, 4 for an unreachable address, 64 for a usage error; GATEWAY_ADMIN beats --admin, which takes
   * host:port only; remove and weight take no --site; a table of other columns, addresses as host:port;
   * validate, fmt, init and probe print their own words, init writes edge.yaml by default; `-V` (not
   * --version, declared as versionArgs) prints a name with the version
   * (gateway/cli/output-and-exit-codes, status-upstream-columns, validate-output, init-behaviour,
   * probe-reachability, run-server, address-precedence-and-form, site-for-remove-and-weight,
   * gateway/config/default-file-name, gateway/versioning/version-command). */
  'own-cli': 'a command line of its own',
} as const;
export type GatewayVariant = keyof typeof GATEWAY_VARIANTS;

/** The variants of VARIANTS=a,b,... (an unknown name is an error the caller reports). */
export function variantsOf(env: NodeJS.ProcessEnv): { on: (v: GatewayVariant) => boolean; unknown: string[]; names: string[] } {
  const names = (env.VARIANTS ?? '').split(',').filter(Boolean);
  const set = new Set(names);
  return { on: (v) => set.has(v), unknown: names.filter((n) => !(n in GATEWAY_VARIANTS)), names };
}
