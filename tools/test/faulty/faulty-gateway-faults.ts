// The faults the faulty gateway can inject (FAULTS=a,b,...), each breaking one documented rule of document
// 001 (a must-clause of spec/gateway.yaml). Grouped by where the faulty gateway injects them: the config it
// loads, the admin HTTP server, the runtime the admin server calls, the process, the data plane, the CLI.
export const GATEWAY_FAULTS = {
  // ------------------------------------------------------------ the config file
  /** Without global.admin an admin server is opened all the same (on a port of its own choosing). */
  'admin-always-on': 'admin server opened without global.admin, half a second after the sites',
  /** Without global.admin, health checks and the file watcher are switched off. */
  'no-background-without-admin': 'no probes or file watcher without global.admin',
  /** A config written as JSON loses its routes (every request 404). */
  'json-config-routes-dropped': 'JSON config: routes ignored',
  /** global.admin without bind is accepted (the admin server takes any free port). */
  'admin-bind-optional': 'global.admin.bind not required',
  /** A `$NAME` token is taken literally instead of from the environment. */
  'token-env-literal': '$NAME token not substituted',
  /** A config carrying global.shutdownTimeoutSecs loses its routes. */
  'shutdown-timeout-drops-routes': 'global.shutdownTimeoutSecs breaks the sites',
  /** A reload keeps the running rateLimit, cache, outlierDetection and authentication sections (routes still change). */
  'reload-keeps-hot-sections': 'reload applies routes only',
  /** A reload accepts a changed workers or backlog (reported as reloaded). */
  'cold-workers-backlog-ignored': 'workers and backlog changes reloaded',
  /** tls.versions is dropped instead of refused at start. */
  'tls-versions-accepted': 'tls.versions accepted',
  /** tls.ciphers is dropped instead of refused at start. */
  'tls-ciphers-accepted': 'tls.ciphers accepted',
  /** A site with a `fallback` section serves only the fallback: its routes are gone. */
  'fallback-replaces-routes': 'fallback section drops the routes',
  /** ipFilter.deny is ignored at start (a reload applies it). */
  'ip-filter-ignored-at-start': 'ipFilter.deny ignored at start',
  /** A reload keeps the running ipFilter.deny. */
  'ip-filter-reload-ignored': 'ipFilter.deny not reloaded',
  /** The metrics endpoint is always /metrics, whatever metrics.path says. */
  'metrics-path-ignored': 'metrics.path ignored',
  /** Every route of a site forwards to the targets of its first route. */
  'route-ignored-first-route': 'routes all go to the first route',
  /** global.shutdownTimeoutSecs is ignored: the drain waits an hour. */
  'shutdown-timeout-ignored': 'shutdownTimeoutSecs ignored',
  // ------------------------------------------------------------ the admin server: authentication
  /** `Authorization: Basic` carrying the token as its password is accepted. */
  'basic-auth-accepted': 'basic credentials accepted',
  /** GET /status without an Authorization header is answered (401 skipped on one endpoint). */
  'status-open-without-header': 'GET /status needs no token',
  /** POST /upstreams/add without an Authorization header is answered 401, but the target is added. */
  'unauthorized-add-applied': 'refused add applied',
  /** Only the first eight characters of the bearer token are compared, in any case. */
  'token-prefix-compare': 'token compared by prefix, in any case',
  /** Without a configured token, requests without an Authorization header are refused 401. */
  'no-token-refused': 'no token configured, 401 all the same',
  // ------------------------------------------------------------ the admin server: endpoints and bodies
  /** GET /rate-limits is served at /v1/rate-limits only. */
  'rate-limits-under-v1': 'GET /rate-limits under /v1',
  /** GET /ip-deny lists the runtime denies. */
  'deny-list-endpoint': 'runtime denies listed',
  /** DELETE /ip-deny ignores its JSON body. */
  'delete-body-ignored': 'DELETE /ip-deny body not read',
  /** POST /ip-deny refusals are plain text, not JSON. */
  'ip-deny-error-text': 'ip-deny error as text',
  /** POST /upstreams/add without route answers ok and does nothing. */
  'add-without-route-accepted': 'add without route accepted',
  /** POST /upstreams/add without target answers ok and does nothing. */
  'add-without-target-accepted': 'add without target accepted',
  /** POST /upstreams/add without weight adds with weight 2. */
  'add-default-weight-2': 'add default weight 2',
  /** The add answer has site null when none was sent. */
  'add-echo-site-null': 'add answer site null',
  /** POST /upstreams/remove without route answers ok and does nothing. */
  'remove-without-route-accepted': 'remove without route accepted',
  /** The remove answer has site null when none was sent. */
  'remove-site-null': 'remove answer site null',
  /** POST /upstreams/weight with a non-integer weight answers ok and does nothing. */
  'weight-string-accepted': 'weight not checked',
  /** The weight answer gives the weight the target had before. */
  'weight-response-old-weight': 'weight answer gives the old weight',
  /** POST /reload answers status `reloaded`. */
  'reload-status-reloaded': 'reload status reloaded',
  /** The reload answer's warnings are one string. */
  'warnings-string': 'warnings as one string',
  /** A reload refused for an invalid config answers 500. */
  'reload-invalid-500': 'invalid reload answered 500',
  /** A reload refused for a cold change answers 409. */
  'cold-change-409': 'cold change answered 409',
  /** POST /shutdown answers status `stopping`. */
  'shutdown-status-stopping': 'shutdown status stopping',
  /** The purge answer has no url. */
  'purge-response-no-url': 'purge answer without url',
  /** A purge of a URL not cached answers 404. */
  'purge-absent-404': 'purge of an absent entry 404',
  /** Without the cache feature a purge answers 200 purged false. */
  'purge-no-cache-200': 'purge without cache 200',
  /** The purge reads `url` as a path: a full URL purges nothing (400). */
  'purge-url-as-path': 'purge url read as a path',
  /** POST /ip-deny with {} answers ok and denies nothing. */
  'deny-empty-cidr-accepted': 'ip-deny without cidr accepted',
  /** POST /ip-deny answers action `deny`. */
  'deny-action-deny': 'ip-deny action deny',
  /** DELETE /ip-deny with {} answers ok and lifts every runtime deny. */
  'delete-empty-clears-all': 'ip-deny delete without cidr clears all',
  /** DELETE /ip-deny answers action `deleted`. */
  'delete-action-deleted': 'ip-deny delete action deleted',
  /** DELETE /ip-deny of a block never denied answers action `not-found`. */
  'delete-absent-not-found': 'ip-deny delete of an absent block not-found',
  /** POST /ip-deny with an invalid value answers 422. */
  'deny-invalid-422': 'invalid cidr answered 422',
  /** POST /certs/reload without cert answers ok and writes nothing. */
  'certs-cert-optional': 'certs without cert accepted',
  /** POST /certs/reload without key answers ok and writes nothing. */
  'certs-key-optional': 'certs without key accepted',
  /** The certificate upload answer has no note. */
  'certs-response-no-note': 'certs answer without note',
  /** POST /certs/reload without a TLS site answers 404. */
  'certs-no-tls-404': 'certs without TLS site 404',
  /** The error of POST /certs/reload without a TLS site has no message. */
  'certs-no-tls-message-missing': 'certs error without message',
  /** An invalid certificate pair answers 422. */
  'certs-invalid-pair-422': 'invalid pair answered 422',
  /** Certificate files that cannot be written answer 400. */
  'certs-write-failure-400': 'write failure answered 400',
  // ------------------------------------------------------------ the runtime: GET /status
  /** The status object lacks `sites`. */
  'status-lacks-sites': 'status without sites',
  /** `status` is `ok` instead of `running`. */
  'status-ok': 'status ok instead of running',
  /** `inflight` is always 0. */
  'inflight-zero': 'inflight always 0',
  /** `retry_inflight` is always 0. */
  'retry-inflight-zero': 'retry_inflight always 0',
  /** `sites` counts only the sites with a host. */
  'sites-hosted-only': 'sites counts hosted sites only',
  /** `configured_upstreams` counts routes. */
  'configured-upstreams-counts-routes': 'configured_upstreams counts routes',
  /** `healthy_upstreams` counts every upstream. */
  'healthy-upstreams-all': 'healthy_upstreams counts all',
  /** `total_probed_upstreams` counts only healthy probed upstreams. */
  'total-probed-healthy-only': 'total_probed_upstreams counts healthy ones',
  /** `config_path` is the config file's folder. */
  'config-path-dir': 'config_path is the folder',
  // ------------------------------------------------------------ the runtime: GET /upstreams
  /** The listing's `routes` array is called `route_entries`. */
  'routes-key-renamed': 'routes listed as route_entries',
  /** Upstream entry URLs lack their scheme. */
  'entry-url-host-only': 'entry url without scheme',
  /** `healthy` is the string "true"/"false". */
  'healthy-as-string': 'healthy as a string',
  /** An upstream never picked nor probed has state `unknown`. */
  'state-unknown-when-unused': 'state unknown',
  /** `latency_ms` keeps a fraction of a millisecond. */
  'latency-fractional': 'latency_ms not an integer',
  /** `ewma_latency_ms` follows probes only (0 without). */
  'ewma-from-probes-only': 'ewma from probes only',
  /** `consecutive_failures` stops at 1. */
  'failures-capped-1': 'consecutive_failures capped at 1',
  /** `consecutive_successes` stops at 1. */
  'successes-capped-1': 'consecutive_successes capped at 1',
  /** `consecutive_5xx` counts every 5xx ever (never reset by a success). */
  '5xx-never-reset': 'consecutive_5xx never reset',
  /** `active_connections` is always 0. */
  'active-connections-zero': 'active_connections always 0',
  /** `ejected` is null when the upstream is not ejected. */
  'ejected-null': 'ejected null',
  /** 4xx responses are counted under `5xx`. */
  'responses-4xx-in-5xx': '4xx counted as 5xx',
  /** `selected.total` counts each pick twice. */
  'selected-counts-twice': 'selected.total doubled',
  /** `selected.last_secs` is in milliseconds. */
  'last-secs-millis': 'last_secs in milliseconds',
  /** Upstream entries lack `consecutive_5xx` (a v1.1 field). */
  'no-v1-1-fields': 'v1.1 field consecutive_5xx missing',
  /** An idle upstream that has served traffic is shown busy. */
  'served-shown-busy': 'idle served upstream busy',
  /** An upstream with requests in flight is shown healthy. */
  'busy-shown-healthy': 'busy shown healthy',
  /** An unhealthy upstream is shown half-open. */
  'unhealthy-shown-half-open': 'unhealthy shown half-open',
  /** An ejected upstream's `ejected` is false. */
  'ejected-flag-false': 'ejected flag false',
  /** A half-open upstream is still shown ejected. */
  'ejected-never-half-open': 'ejected never half-open',
  /** An upstream once half-open stays half-open after its request succeeded. */
  'half-open-sticks': 'half-open never healthy again',
  /** Route entries' `site` is `*:<port>` whatever the host. */
  'route-site-port-only': 'route site without host',
  /** Route entries' `path` ends with a slash. */
  'route-path-trailing-slash': 'route path with trailing slash',
  /** Route entries' `strategy` is always round-robin. */
  'strategy-default-shown': 'strategy always round-robin',
  /** Route entries list the file's targets only, not those added at runtime. */
  'targets-config-only': 'route targets without runtime additions',
  /** Route targets' `url` is an object. */
  'target-url-object': 'route target url an object',
  /** Route targets' `weight` is a string. */
  'target-weight-string': 'route target weight a string',
  /** Route targets' `healthy` is a string. */
  'target-healthy-string': 'route target healthy a string',
  /** Route targets' `latency_ms` is "n/a" before a probe. */
  'target-latency-text': 'route target latency n/a',
  /** Route targets lack `consecutive_failures`. */
  'target-failures-missing': 'route target consecutive_failures missing',
  /** Route targets' `consecutive_successes` is null. */
  'target-successes-null': 'route target consecutive_successes null',
  // ------------------------------------------------------------ the runtime: upstream changes and reload
  /** An add without site goes to the first site having the route only. */
  'add-no-site-first-site-only': 'add without site: first site only',
  /** An added target is listed but never picked by the balancer. */
  'added-not-balanced': 'added target not balanced',
  /** A weight change on a weighted-round-robin route is listed but not applied. */
  'weight-ignored-wrr': 'weight ignored for weighted-round-robin',
  /** Remove answers removed true when the route lacks the target. */
  'remove-absent-true': 'remove of an absent target removed true',
  /** Runtime additions are appended to the config file (as comments). */
  'changes-written-to-file': 'runtime changes written to the file',
  /** POST /reload answers ok without reading the file. */
  'reload-not-applied': 'reload does nothing',
  /** A reload keeps the runtime upstream changes. */
  'reload-keeps-overrides': 'reload keeps overrides',
  /** A reload lifts the runtime denies. */
  'reload-clears-denies': 'reload clears runtime denies',
  /** A reload leaves the rate-limit counters where they were. */
  'reload-keeps-counters': 'reload keeps rate-limit counters',
  // ------------------------------------------------------------ the runtime: rate limits, denies, cache, certificates
  /** GET /rate-limits answers an array of buckets. */
  'rate-limits-array': 'rate limits as an array',
  /** Counters are keyed by port, not by site label. */
  'rate-limits-keyed-by-port': 'counters keyed by port',
  /** The site-level bucket `*` is left out. */
  'site-bucket-hidden': 'site bucket not listed',
  /** `passed` counts refused requests too. */
  'rejected-counted-as-passed': 'rejected counted as passed',
  /** The site bucket names the last client address. */
  'site-bucket-shows-last-client': 'client address in the counters',
  /** A per-consumer bucket is listed beside the site's and routes' (and each configured consumer's limit). */
  'consumer-bucket-listed': 'consumer bucket listed',
  /** Counters stop at 7. */
  'counters-capped-7': 'counters capped at 7',
  /** Rate-limit counters are saved in the working folder and restored at start (a reload still clears them). */
  'counters-persisted': 'counters survive a restart',
  /** A bare IP address denies the next address too. */
  'single-ip-next-too': 'bare address denies its neighbour too',
  /** A runtime deny takes effect 1.5 s late. */
  'deny-delayed': 'deny applied late',
  /** Runtime denies are saved in the working folder and restored at start. */
  'denies-persisted': 'denies survive a restart',
  /** A purge reports purged true without removing the entry. */
  'purge-answers-only': 'purge removes nothing',
  /** A purge removes every cached query of the path. */
  'purge-all-queries': 'purge ignores the query',
  /** A purge URL with a port finds nothing. */
  'purge-port-kept': 'purge with port misses the entry',
  /** A purge reports purged false even when it removed the entry. */
  'purge-reports-false': 'purge reports false',
  /** A refused certificate pair has been written before the check. */
  'certs-written-before-check': 'pair written before it is checked',
  /** Certificate files are rewritten in place, in pieces. */
  'certs-written-in-place': 'certificates written non-atomically',
  /** An uploaded certificate is served at once. */
  'certs-hot-swapped': 'uploaded certificate served at once',
  /** POST /reload brings the certificate files into use. */
  'reload-activates-certs': 'reload activates the certificate',
  // ------------------------------------------------------------ the process: shutdown
  /** POST /shutdown answers and does nothing. */
  'shutdown-noop': 'shutdown does nothing',
  /** Shutdown keeps the listeners open until the drain ends. */
  'shutdown-listens-while-draining': 'new connections accepted while draining',
  /** Shutdown ends the process at once, without draining. */
  'shutdown-no-drain': 'shutdown not draining',
  /** After the drain the process stays up. */
  'shutdown-stays-up': 'process never exits',
  // ------------------------------------------------------------ the data plane
  /** GET /__health__ answers status "up". */
  'health-status-up': 'health status up',
  /** Basic auth takes any password of a configured user name. */
  'basic-auth-any-password': 'basic auth checks user names only',
  /** An API key that begins with a configured key passes. */
  'api-key-prefix': 'API keys compared by prefix',
  /** JWT expiry is not checked (ten years of clock tolerance). */
  'jwt-expiry-ignored': 'expired JWTs accepted',
  /** The JWKS file's keys are not used. */
  'jwt-jwks-ignored': 'JWKS file ignored',
  /** An API key no consumer has is taken as the first consumer's. */
  'consumer-unknown-admitted': 'unknown keys taken as a consumer',
  /** Rate limits and caches with store: redis are kept in memory (limits listed by GET /rate-limits, caches
   * purged). */
  'redis-store-ignored': 'Redis rate limits and caches kept in memory',
  /** forwardAuth is dropped: the auth service is never asked. */
  'forward-auth-ignored': 'forward auth ignored',
  /** requestTransform, responseTransform, securityHeaders, cors, maskErrors, limits and fallback are accepted
   * and dropped. */
  'site-filters-ignored': 'transform, header, CORS, masking, limit and fallback sections ignored',
  /** proxy, static, middleware, logging, compression, upload and http2 are accepted and dropped. */
  'site-serving-ignored': 'proxy, static, middleware, logging, compression, upload and http2 ignored',
  // ------------------------------------------------------------ the CLI
  /** `reload` calls GET /status. */
  'cli-reload-gets-status': 'reload calls GET /status',
  /** `status` calls GET /upstreams. */
  'cli-status-gets-upstreams': 'status calls GET /upstreams',
  /** `status --upstream` calls GET /status (the switch is dropped). */
  'cli-table-status-only': 'status --upstream ignored',
  /** `shutdown` calls GET /status. */
  'cli-shutdown-gets-status': 'shutdown calls GET /status',
  /** `upstreams` calls GET /status. */
  'cli-upstreams-gets-status': 'upstreams calls GET /status',
  /** `upstreams add` drops --weight. */
  'cli-add-drops-weight': 'upstreams add without weight',
  /** `upstreams remove` calls POST /upstreams/add. */
  'cli-remove-posts-add': 'upstreams remove adds',
  /** `upstreams weight` sends the weight plus one. */
  'cli-weight-off-by-one': 'upstreams weight off by one',
  /** Without --admin or GATEWAY_ADMIN the CLI calls 127.0.0.1:2020. */
  'cli-default-port-2020': 'default admin port 2020',
  /** --admin is ignored. */
  'cli-admin-flag-ignored': '--admin ignored',
  /** GATEWAY_ADMIN is ignored. */
  'cli-admin-env-ignored': 'GATEWAY_ADMIN ignored',
  /** GATEWAY_ADMIN_TOKEN is not sent. */
  'cli-token-not-sent': 'GATEWAY_ADMIN_TOKEN not sent',
  /** `validate` exits 0 for an invalid file. */
  'validate-invalid-exit-0': 'validate exits 0 when invalid',
  /** `validate`, `fmt` and `probe` ignore -c and read gateway.yaml. */
  'validate-ignores-c': '-c ignored',
  /** `fmt --write` is a usage error. */
  'fmt-write-refused': 'fmt --write refused',
  /** `init -o FILE` writes gateway.yaml. */
  'init-ignores-o': 'init -o ignored',
  /** `probe` exits 0 with an unreachable upstream. */
  'probe-exit-0': 'probe exits 0',
  /** `version` prints major.minor only. */
  'version-two-parts': 'version without patch',
} as const;
export type GatewayFault = keyof typeof GATEWAY_FAULTS;

/** The faults named in FAULTS. */
export function faultsOf(env: NodeJS.ProcessEnv): Set<GatewayFault> {
  const named = (env.FAULTS ?? '').split(',').filter(Boolean);
  const unknown = named.filter((f) => !(f in GATEWAY_FAULTS));
  if (unknown.length > 0) throw new Error(`FAULTS: unknown fault ${unknown.join(', ')}`);
  return new Set(named as GatewayFault[]);
}
