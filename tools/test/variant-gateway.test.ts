// The gateway suite passes a different but right gateway: the permitted variant (tools/test/variant/
// variant-gateway.ts: the reference gateway's modules with the variant's layers over them, its own config key
// naming through its adapter, its own command line) changes only what document 001 and the catalog leave open,
// and per set of variants no must-case fails or errs, and exactly the listed informational cases (the
// reference's recorded choices the variant does not share) come out informational.
import { bundleTarget } from './run-cli.ts';
import { variantSuite } from './variant-run.ts';
import { GATEWAY_VARIANTS, type GatewayVariant } from './variant/variant-gateway-variants.ts';

// Bundled once, as the reference is: the suite starts a gateway for almost every case, and a bundle starts in a
// fraction of the time tsx needs.
bundleTarget('tools/test/variant/variant-gateway.ts', '.cache/variant/gateway/variant-gateway.mjs');

const TARGET = 'cmd:node {root}/.cache/variant/gateway/variant-gateway.mjs serve -c {config}';
/** The variant's CLI, its adapter (neutral setup -> its own keys) and config name: edge.yaml, or edge.json. */
const DESCRIBE_YAML = ['--describe', 'gateway=tools/test/variant/variant-gateway.json'];
const DESCRIBE_JSON = ['--describe', 'gateway=tools/test/variant/variant-gateway-json.json'];
const id = (rest: string) => `gateway/${rest}`;

variantSuite({
  surface: 'gateway',
  target: TARGET,
  variants: Object.keys(GATEWAY_VARIANTS) as GatewayVariant[],
  sets: [
    {
      // An independently written gateway: its own statuses, errors, 401, command line and defaults, a config
      // format read off the text, unknown keys ignored, a route keeping its last target, denied connections
      // closed, refused API keys and tokens answered 403, a banner and access log, no signal handlers, slower
      // answers.
      variants: [
        'own-codes',
        'status-word',
        'own-errors',
        'oauth-401',
        'strict-bearer',
        'extra-endpoints',
        'own-cli',
        'sniff-format',
        'lenient-keys',
        'keep-last-target',
        'strategies-alt',
        'deny-drop',
        'auth-403',
        'timeout-503',
        'banner',
        'no-sigterm',
        'slow',
      ],
      args: DESCRIBE_YAML,
      informational: [
        // own-codes: 201 for add, ip-deny and certs, 202 for shutdown (the document names no success status)
        'admin/success-http-200/every-success-200-json',
        'shutdown/response-then-close/admin-closes-too',
        // status-word: `status` "success" where its value is not given; `site` "all" for remove without site
        'admin/success-status-ok/status-ok-field',
        'upstreams/remove-site-omitted/every-site-star',
        // own-errors: statuses and wording of the errors the document does not give ("not shown")
        'admin/unknown-path-404/error-body-names-path',
        'admin/wrong-method-405/allow-header',
        'admin/invalid-json-body-400/malformed-and-non-object',
        'admin/wrong-content-type-415/other-type-refused-none-parsed',
        'upstreams/missing-field-400/names-field',
        'upstreams/invalid-field-400/names-field-and-reason',
        'upstreams/unknown-route-404/add-remove-weight',
        'upstreams/unknown-site-404/names-label',
        'upstreams/weight-unknown-target-404/names-target',
        'upstreams/weight-range/1-to-1000-integers',
        'upstreams/add-duplicate-target/listed-once-reweighted',
        'certs/missing-field-400/names-field',
        'certs/check-order-and-validity/fields-then-site',
        'ip-deny/delete-body-and-validation/400s',
        'cache-purge/missing-or-invalid-url-400/names-url',
        'reload/unreadable-file/400-naming-path',
        'config/token-env-unset/start-refused',
        // oauth-401: "Body of the 401 response: not shown"
        'errors/unauthorized-body/reference-body-and-challenge',
        // strict-bearer: how the header is parsed is not stated
        'auth/header-parsing/scheme-any-case-and-spaces',
        // extra-endpoints: GET /events (a JSON log of reloads and changes; "Events: not shown")
        'admin/no-events/no-event-stream',
        // own-cli: the command line's output, exit codes, address handling, `serve`, version line (`-V` only),
        // edge.yaml
        'cli/output-and-exit-codes/json-0-errors-1-usage-2',
        'cli/status-upstream-columns/reference-header',
        'cli/validate-output/line-or-error-field',
        'cli/init-behaviour/default-name-asks-before-overwrite',
        'cli/probe-reachability/line-per-upstream',
        'cli/run-server/invalid-config-exit-1',
        'cli/address-precedence-and-form/flag-beats-env-url-form',
        'cli/site-for-remove-and-weight/site-passed',
        'versioning/version-command/bare-semver',
        // sniff-format: the format read off the text, not the name
        'config/format-detection/json-extension-json-else-yaml',
        // lenient-keys: unknown keys ignored with a warning
        'config/site-key-set/unknown-key-named',
        // keep-last-target: a route's last target cannot be removed, so "all removed" never happens either
        'upstreams/remove-last-target/empty-route-503',
        'data-plane/no-upstream-available-503/removed-503-unreachable-502',
        // strategies-alt: least-conn by default, no random
        'routes/strategy-set/default-round-robin-and-random',
        // deny-drop: a denied client's connection closed without an answer
        'data-plane/denied-client-403/forbidden',
        // auth-403: a refused API key or token answered 403 without a challenge
        'site-auth/refusal-details/challenges-bodies-502',
        // timeout-503: what the shutdown timeout cuts is answered 503
        'shutdown/timeout-expiry/connection-closed-without-answer',
        // own-codes, own-errors: a purge the Redis-backed cache cannot do is answered otherwise
        'cache-purge/redis-backend/501',
      ].map(id),
    },
    {
      // Answers shaped otherwise, on a JSON config: more fields, keys sorted, other labels and listings, other
      // echoes, counts and defaults (a shutdown timeout shorter than a request the suite drains), rate-limit
      // buckets listed once they count, OpenMetrics; every route's prefix stripped before forwarding; the cache
      // feature there without a cache section (the description says so: cacheSectionAbsent).
      variants: [
        'purge-without-section',
        'extra-fields',
        'counted-buckets-only',
        'sorted-keys',
        'any-host-label',
        'per-route-entries',
        'last-secs-null',
        'config-path-relative',
        'counts-admin',
        'normalised-echo',
        'defaults-alt',
        'openmetrics',
        'strip-prefix',
      ],
      args: DESCRIBE_JSON,
      informational: [
        // extra-fields: /__health__ with more fields, as application/health+json; `warnings: []` on a reload
        'data-plane/health-response-details/200-json-exact-before-limits',
        'reload/warnings-absent-when-none/no-warnings-key',
        // any-host-label: `:<port>` for a site of any host
        'routes/site-label-without-host/star-port',
        // per-route-entries: one upstream entry per route target
        'upstreams/entry-per-distinct-url/once-and-counted-once',
        // counted-buckets-only: an untouched bucket is not listed, nor a site none of whose buckets counted
        'rate-limits/empty-and-untouched-buckets/listed-at-zero-and-empty-object',
        // last-secs-null: last_secs null before the first pick
        'upstreams/entry-selected-never/zero-total-zero-secs',
        // config-path-relative
        'status/config-path-absolute/resolved-path',
        // counts-admin: the GET /status asking is in flight too
        'status/inflight-excludes-admin/idle-zero',
        // normalised-echo: targets and purge URLs echoed in their normal form (the block the case sends, a /32,
        // is in its normal form already)
        'upstreams/target-comparison/normalised-echoed-as-sent',
        'cache-purge/url-echo-and-variants/echo-and-head-dropped',
        // openmetrics (and defaults-alt: a metrics section without a path serves /-/metrics)
        'data-plane/metrics-format/prometheus-text-default-path',
        // strip-prefix: `/api/v2/x` reaches the upstream as `/x` (how a path is matched and forwarded is
        // "not spelled out")
        'data-plane/route-prefix-matching/segment-boundary-longest-wins-path-unchanged',
      ].map(id),
      // purge-without-section, declared (cacheSectionAbsent: available): a gateway with the cache feature has it
      // without a cache section, so the 501 is judged only on a target without the feature.
      notApplicable: [id('errors/cache-purge-no-feature-501/no-cache-configured')],
    },
  ],
});
