// The gateway suite can fail: the faulty gateway (tools/test/faulty/faulty-gateway.ts, the reference gateway
// with faults injected) breaks documented rules, and for each set of faults, run on the cases of the clauses it
// names (those it must turn red and a few neighbours), exactly their clauses must go red - no more (no
// collateral), no fewer (no blind spot). Each set mixes faults whose cases do not meet, so that each fault has
// a red clause of its own in its set; every fault is used, and every must-clause of the catalog goes red under
// some fault. Clauses are named, not matched by wildcards: cases the suite adds for other clauses stay out.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import type { JsonReport } from '../conform/report-json.ts';
import { GATEWAY_FAULTS, type GatewayFault } from './faulty/faulty-gateway-faults.ts';
import { redClauses, redMismatch } from './red-clauses.ts';
import { bundleTarget, runTool, tempDir } from './run-cli.ts';

// Bundled once, as the reference is: the suite starts a gateway for almost every case, and a bundle starts in
// a fraction of the time tsx needs.
bundleTarget('tools/test/faulty/faulty-gateway.ts', '.cache/faulty/faulty-gateway.mjs');

const TARGET = 'gateway=cmd:node {root}/.cache/faulty/faulty-gateway.mjs run -c {config}';
// The reference's description with the faulty gateway's own CLI command.
const DESCRIPTION = 'gateway=tools/test/faulty/faulty-gateway.json';

interface FaultRun {
  faults: GatewayFault[];
  /** Clause IDs without the `gateway/` prefix: the clauses that must go red. */
  expectedRed: string[];
  /** Further clauses whose cases run too (those expected informational, and neighbours that must stay green). */
  also?: string[];
  /** Clauses of the reference's choices the faults break (reported, never failing the run). */
  expectedInformational?: string[];
  /** Cases that must end `error`: the fault takes away what they need to judge (their clause is judged elsewhere). */
  errors?: string[];
}

const FILTER_CLAUSES = ['request-transform', 'response-transform', 'security-headers', 'cors', 'mask-errors', 'limits', 'fallback'].map(
  (s) => `site-filters/${s}`,
);

const SERVING_CLAUSES = ['proxy', 'static', 'middleware', 'logging', 'compression', 'upload', 'http2'].map((s) => `site-serving/${s}`);

const RUNS: FaultRun[] = [
  {
    faults: [
      'admin-always-on',
      'no-background-without-admin',
      'ip-deny-error-text',
      'delete-body-ignored',
      'rate-limits-under-v1',
      'json-config-routes-dropped',
      'admin-bind-optional',
      'token-env-literal',
      'shutdown-timeout-drops-routes',
      'reload-keeps-hot-sections',
      'cold-workers-backlog-ignored',
      'tls-versions-accepted',
      'tls-ciphers-accepted',
      'fallback-replaces-routes',
      'ip-filter-ignored-at-start',
    ],
    expectedRed: [
      'admin/started-only-with-global-admin', // admin-always-on
      'admin/background-tasks-without-admin', // no-background-without-admin
      'admin/json-object-responses', // ip-deny-error-text
      'admin/json-request-bodies', // delete-body-ignored
      'versioning/no-path-version', // rate-limits-under-v1
      'config/single-file-yaml-or-json', // json-config-routes-dropped
      'config/admin-bind-required', // admin-bind-optional
      'config/token-env-substitution', // token-env-literal
      'config/shutdown-timeout-optional', // shutdown-timeout-drops-routes
      'config/hot-sections', // reload-keeps-hot-sections
      'config/cold-sections', // cold-workers-backlog-ignored
      'config/tls-versions-rejected', // tls-versions-accepted
      'config/tls-ciphers-rejected', // tls-ciphers-accepted
      'config/other-known-keys', // fallback-replaces-routes
      'config/ip-filter-deny-list', // ip-filter-ignored-at-start
    ],
    also: ['config/admin-token-optional', 'config/default-file-name', 'reload/whole-config-swap'],
    // reload-keeps-hot-sections: the authentication of the replaced config with the routes of the new one
    expectedInformational: ['reload/whole-config-swap'],
  },
  {
    faults: [
      'basic-auth-accepted',
      'status-open-without-header',
      'token-prefix-compare',
      'no-token-refused',
      'cli-token-not-sent',
      'status-ok',
      'inflight-zero',
      'retry-inflight-zero',
      'sites-hosted-only',
      'configured-upstreams-counts-routes',
      'healthy-upstreams-all',
      'total-probed-healthy-only',
      'config-path-dir',
    ],
    expectedRed: [
      'auth/bearer-only', // basic-auth-accepted
      'auth/token-required-on-every-request', // status-open-without-header
      'auth/missing-token-401',
      'auth/wrong-token-401', // token-prefix-compare
      'errors/unauthorized-401',
      'auth/no-token-open', // no-token-refused
      'config/admin-token-optional',
      'cli/token-env', // cli-token-not-sent
      'status/field-status', // status-ok
      'status/field-inflight', // inflight-zero
      'status/field-retry-inflight', // retry-inflight-zero
      'status/field-sites', // sites-hosted-only
      'status/field-configured-upstreams', // configured-upstreams-counts-routes
      'status/field-healthy-upstreams', // healthy-upstreams-all
      'status/field-total-probed-upstreams', // total-probed-healthy-only
      'status/field-config-path', // config-path-dir
    ],
    also: ['status/config-path-absolute', 'status/inflight-excludes-admin', 'auth/before-routing', 'auth/header-parsing'],
    expectedInformational: ['status/config-path-absolute'],
  },
  {
    faults: [
      'reload-status-reloaded',
      'warnings-string',
      'reload-keeps-overrides',
      'reload-invalid-500',
      'cold-change-409',
      'shutdown-timeout-ignored',
      'shutdown-status-stopping',
      'validate-invalid-exit-0',
    ],
    expectedRed: [
      'reload/success-body', // reload-status-reloaded
      'reload/warnings-field', // warnings-string
      'reload/resets-upstream-overrides', // reload-keeps-overrides
      'errors/reload-invalid-config-400', // reload-invalid-500
      'errors/reload-cold-change-400', // cold-change-409
      'shutdown/timeout-bound', // shutdown-timeout-ignored
      'shutdown/response-body', // shutdown-status-stopping
      'shutdown/running-to-shutting-down',
      'cli/validate-exit-codes', // validate-invalid-exit-0
    ],
    also: ['reload/failure-changes-nothing', 'reload/unreadable-file', 'reload/warnings-absent-when-none', 'shutdown/timeout-expiry', 'shutdown/response-then-close', 'shutdown/drains-inflight', 'shutdown/process-exits'],
    expectedInformational: [
      // reload-invalid-500: every refused reload but a cold change is a 500
      'reload/failure-changes-nothing',
      'reload/unreadable-file',
      'shutdown/timeout-expiry', // shutdown-timeout-ignored: the request outliving the timeout is answered
      'shutdown/response-then-close', // shutdown-status-stopping
    ],
  },
  {
    faults: [
      'healthy-as-string',
      'state-unknown-when-unused',
      'latency-fractional',
      'ewma-from-probes-only',
      'failures-capped-1',
      'successes-capped-1',
      '5xx-never-reset',
      'active-connections-zero',
      'ejected-null',
      'responses-4xx-in-5xx',
      'selected-counts-twice',
      'last-secs-millis',
    ],
    expectedRed: [
      'upstreams/entry-healthy', // healthy-as-string
      'upstreams/entry-state', // state-unknown-when-unused
      'upstream-state/state-values',
      'upstreams/entry-latency-ms', // latency-fractional
      'upstreams/entry-ewma-latency-ms', // ewma-from-probes-only
      'upstreams/entry-consecutive-failures', // failures-capped-1
      'upstreams/entry-consecutive-successes', // successes-capped-1
      'upstreams/entry-consecutive-5xx', // 5xx-never-reset
      'upstreams/entry-active-connections', // active-connections-zero
      'upstreams/entry-ejected', // ejected-null
      'upstreams/entry-responses', // responses-4xx-in-5xx
      'upstreams/entry-selected-total', // selected-counts-twice
      'upstreams/entry-selected-last-secs', // last-secs-millis
    ],
    also: ['upstreams/list-shape', 'versioning/v1-1-fields-present'],
  },
  {
    faults: [
      'route-site-port-only',
      'strategy-default-shown',
      'targets-config-only',
      'target-weight-string',
      'target-healthy-string',
      'target-latency-text',
      'target-failures-missing',
      'target-successes-null',
      'served-shown-busy',
      'unhealthy-shown-half-open',
      'ejected-flag-false',
    ],
    expectedRed: [
      'routes/field-site', // route-site-port-only
      'routes/field-strategy', // strategy-default-shown
      'routes/field-targets', // targets-config-only
      'routes/target-weight', // target-weight-string
      'routes/target-healthy', // target-healthy-string
      'routes/target-latency-ms', // target-latency-text
      'routes/target-consecutive-failures', // target-failures-missing
      'routes/target-consecutive-successes', // target-successes-null
      'upstream-state/healthy', // served-shown-busy
      'upstream-state/unhealthy', // unhealthy-shown-half-open
      'upstream-state/ejected', // ejected-flag-false
    ],
    also: ['upstream-state/busy'],
  },
  {
    faults: [
      'add-without-route-accepted',
      'add-without-target-accepted',
      'add-no-site-first-site-only',
      'add-echo-site-null',
      'added-not-balanced',
      'remove-without-route-accepted',
      'remove-site-null',
      'remove-absent-true',
      'weight-string-accepted',
      'weight-response-old-weight',
      'weight-ignored-wrr',
    ],
    expectedRed: [
      'upstreams/add-route-required', // add-without-route-accepted
      'upstreams/add-target-required', // add-without-target-accepted
      'upstreams/add-site-omitted-all-sites', // add-no-site-first-site-only
      'upstreams/add-response', // add-echo-site-null
      'upstreams/add-visible-in-listing', // added-not-balanced
      'upstreams/remove-fields', // remove-without-route-accepted
      'upstreams/remove-response', // remove-site-null
      'upstreams/remove-not-found-false', // remove-absent-true
      'upstreams/weight-fields', // weight-string-accepted
      'upstreams/weight-response', // weight-response-old-weight
      'upstreams/weight-wrr-only', // weight-ignored-wrr
    ],
    also: ['upstreams/runtime-in-memory-only'],
  },
  {
    faults: [
      'site-bucket-hidden',
      'rejected-counted-as-passed',
      'consumer-bucket-listed',
      'counters-capped-7',
      'counters-persisted',
      'deny-empty-cidr-accepted',
      'deny-action-deny',
      'single-ip-next-too',
      'delete-action-deleted',
      'denies-persisted',
      'deny-invalid-422',
      'ip-filter-reload-ignored',
      'deny-list-endpoint',
    ],
    expectedRed: [
      'rate-limits/keyed-by-route', // site-bucket-hidden
      'rate-limits/passed-rejected', // rejected-counted-as-passed
      'rate-limits/in-memory-buckets-only', // consumer-bucket-listed
      'rate-limits/monotonic-unbounded', // counters-capped-7
      'rate-limits/reset-on-restart-or-reload', // counters-persisted
      'ip-deny/add-cidr-required', // deny-empty-cidr-accepted
      'ip-deny/add-response', // deny-action-deny
      'ip-deny/accepts-single-ip', // single-ip-next-too
      'ip-deny/delete-response', // delete-action-deleted
      'ip-deny/delete-absent-still-removed',
      'ip-deny/lost-on-restart', // denies-persisted
      'errors/ip-deny-invalid-400', // deny-invalid-422
      'ip-deny/permanent-via-config', // ip-filter-reload-ignored
      'ip-deny/no-list-endpoint', // deny-list-endpoint
    ],
    also: ['rate-limits/data-plane-429', 'ip-deny/cidr-echo-and-duplicates', 'rate-limits/get-counters', 'rate-limits/keyed-by-site', 'rate-limits/aggregated-no-client-keys', 'ip-deny/immediate-effect', 'ip-deny/delete-cidr-required'],
    expectedInformational: [
      'rate-limits/data-plane-429', // rejected-counted-as-passed
      'ip-deny/cidr-echo-and-duplicates', // deny-action-deny
    ],
  },
  {
    faults: [
      'purge-response-no-url',
      'purge-no-cache-200',
      'purge-port-kept',
      'purge-all-queries',
      'certs-cert-optional',
      'certs-key-optional',
      'certs-response-no-note',
      'certs-no-tls-404',
      'certs-invalid-pair-422',
      'certs-write-failure-400',
      'certs-written-before-check',
      'certs-written-in-place',
      'entry-url-host-only',
    ],
    expectedRed: [
      'cache-purge/response', // purge-response-no-url
      'errors/cache-purge-no-feature-501', // purge-no-cache-200
      'cache-purge/port-ignored', // purge-port-kept
      'cache-purge/query-distinguishes', // purge-all-queries
      'certs/cert-required', // certs-cert-optional
      'certs/key-required', // certs-key-optional
      'certs/response', // certs-response-no-note
      'errors/certs-no-tls-site-400', // certs-no-tls-404
      'errors/certs-invalid-pair-400', // certs-invalid-pair-422
      'errors/certs-write-failure-500', // certs-write-failure-400
      'certs/validates-pair', // certs-written-before-check
      'certs/atomic-write', // certs-written-in-place
      'upstreams/entry-url', // entry-url-host-only
    ],
    also: ['certs/missing-field-400', 'certs/check-order-and-validity'],
    expectedInformational: [
      // certs-cert-optional, certs-key-optional: a missing field is accepted
      'certs/missing-field-400',
      'certs/check-order-and-validity',
    ],
  },
  {
    faults: [
      'cli-reload-gets-status',
      'cli-table-status-only',
      'cli-shutdown-gets-status',
      'cli-upstreams-gets-status',
      'cli-add-drops-weight',
      'cli-remove-posts-add',
      'cli-weight-off-by-one',
      'fmt-write-refused',
      'init-ignores-o',
      'probe-exit-0',
      'version-two-parts',
      'health-status-up',
      'metrics-path-ignored',
      'route-ignored-first-route',
      'target-url-object',
    ],
    expectedRed: [
      'cli/reload', // cli-reload-gets-status
      'cli/status-upstream-table', // cli-table-status-only
      'cli/shutdown', // cli-shutdown-gets-status
      'cli/upstreams-list', // cli-upstreams-gets-status
      'cli/upstreams-add', // cli-add-drops-weight
      'cli/upstreams-remove', // cli-remove-posts-add
      'cli/upstreams-weight', // cli-weight-off-by-one
      'cli/fmt', // fmt-write-refused
      'cli/init', // init-ignores-o
      'cli/probe-exit-codes', // probe-exit-0
      'versioning/semver-binaries', // version-two-parts
      'data-plane/health-endpoint', // health-status-up
      'data-plane/metrics-path', // metrics-path-ignored
      'data-plane/proxy-by-route', // route-ignored-first-route
      'routes/target-url', // target-url-object
    ],
    also: ['cli/status'],
  },
  // Faults each alone in their area, several areas to a run.
  {
    faults: [
      'shutdown-noop',
      'cli-status-gets-upstreams',
      'validate-ignores-c',
      'purge-absent-404',
      'delete-empty-clears-all',
      'rate-limits-array',
      'reload-activates-certs',
      'ejected-never-half-open',
      'add-default-weight-2',
    ],
    expectedRed: [
      'shutdown/running-to-shutting-down', // shutdown-noop
      'cli/status', // cli-status-gets-upstreams
      'cli/config-flag', // validate-ignores-c
      'cache-purge/purged-false-when-absent', // purge-absent-404
      'ip-deny/delete-cidr-required', // delete-empty-clears-all
      'rate-limits/get-counters', // rate-limits-array
      'certs/reload-does-not-activate', // reload-activates-certs
      'upstream-state/ejected-to-half-open', // ejected-never-half-open
      'upstreams/add-weight-default', // add-default-weight-2
    ],
  },
  {
    faults: [
      'shutdown-listens-while-draining',
      'cli-admin-flag-ignored',
      'purge-url-as-path',
      'delete-absent-not-found',
      'rate-limits-keyed-by-port',
      'certs-hot-swapped',
      'half-open-sticks',
      'status-lacks-sites',
      'reload-not-applied',
      'route-path-trailing-slash',
    ],
    expectedRed: [
      'shutdown/stops-accepting', // shutdown-listens-while-draining
      'cli/admin-flag', // cli-admin-flag-ignored
      'cache-purge/url-query-parameter', // purge-url-as-path
      'ip-deny/delete-absent-still-removed', // delete-absent-not-found
      'rate-limits/keyed-by-site', // rate-limits-keyed-by-port
      'certs/active-after-restart-only', // certs-hot-swapped
      'upstream-state/half-open', // half-open-sticks
      'status/get-status-object', // status-lacks-sites
      'reload/rereads-validates-applies', // reload-not-applied
      'routes/field-path', // route-path-trailing-slash
    ],
  },
  {
    faults: [
      'shutdown-no-drain',
      'cli-admin-env-ignored',
      'routes-key-renamed',
      'purge-answers-only',
      'deny-delayed',
      'site-bucket-shows-last-client',
      'certs-no-tls-message-missing',
      'reload-keeps-counters',
    ],
    expectedRed: [
      'shutdown/drains-inflight', // shutdown-no-drain
      'cli/admin-env', // cli-admin-env-ignored
      'upstreams/list-shape', // routes-key-renamed
      'cache-purge/removes-entry', // purge-answers-only
      'ip-deny/immediate-effect', // deny-delayed
      'rate-limits/aggregated-no-client-keys', // site-bucket-shows-last-client
      'errors/body-shape', // certs-no-tls-message-missing
      'reload/clears-rate-limit-counters', // reload-keeps-counters
      'rate-limits/reset-on-restart-or-reload',
    ],
  },
  {
    faults: [
      'shutdown-stays-up',
      'cli-default-port-2020',
      'purge-reports-false',
      'unauthorized-add-applied',
      'busy-shown-healthy',
      'no-v1-1-fields',
      'changes-written-to-file',
      'reload-clears-denies',
      'jwt-jwks-ignored',
    ],
    expectedRed: [
      'shutdown/process-exits', // shutdown-stays-up
      'cli/default-admin-address', // cli-default-port-2020
      'cache-purge/in-memory-only', // purge-reports-false
      'auth/missing-token-401', // unauthorized-add-applied
      'upstream-state/busy', // busy-shown-healthy
      'versioning/v1-1-fields-present', // no-v1-1-fields
      'upstreams/runtime-in-memory-only', // changes-written-to-file
      'reload/keeps-runtime-ip-denies', // reload-clears-denies
      'site-auth/jwt', // jwt-jwks-ignored
    ],
  },
  {
    faults: ['basic-auth-any-password', 'api-key-prefix', 'jwt-expiry-ignored', 'forward-auth-ignored', 'consumer-unknown-admitted', 'redis-store-ignored'],
    expectedRed: [
      'site-auth/basic', // basic-auth-any-password
      'site-auth/api-key', // api-key-prefix
      'site-auth/jwt', // jwt-expiry-ignored
      'site-auth/forward-auth', // forward-auth-ignored
      'site-auth/consumers', // consumer-unknown-admitted
      'rate-limits/in-memory-buckets-only', // redis-store-ignored
      'cache-purge/in-memory-only', // redis-store-ignored: the "Redis" cache is purged
    ],
    also: ['rate-limits/redis-store', 'cache-purge/redis-store', 'cache-purge/redis-backend'],
    // redis-store-ignored: each gateway counts and caches on its own, and purges answer as usual
    expectedInformational: ['rate-limits/redis-store', 'cache-purge/redis-store', 'cache-purge/redis-backend'],
  },
  {
    faults: ['site-filters-ignored'],
    expectedRed: ['config/hot-sections'],
    also: FILTER_CLAUSES,
    // the sections' own behaviour, the reference's choices
    expectedInformational: FILTER_CLAUSES,
  },
  {
    faults: ['site-serving-ignored'],
    expectedRed: ['config/hot-sections'],
    also: SERVING_CLAUSES,
    expectedInformational: SERVING_CLAUSES,
  },
];

const id = (rest: string) => `gateway/${rest}`;

for (const { faults, expectedRed, also = [], expectedInformational = [], errors = [] } of RUNS) {
  const selection = [...expectedRed, ...also].map((clause) => `${id(clause)}/**`);
  // One at a time: the cases judge timing (drains, probes, ejections) on a two-core machine.
  test.serial(`a faulty gateway (${faults.join(', ')}) turns exactly the expected clauses red`, async (t) => {
    const reports = tempDir();
    const run = await runTool(
      'conform',
      ['--surface', 'gateway', '--target', TARGET, '--describe', DESCRIPTION, ...selection.flatMap((glob) => ['--only', glob]), '--report-dir', reports],
      { FAULTS: faults.join(',') },
    );
    const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as JsonReport;
    t.is(run.code, 1, run.stderr);
    t.deepEqual(redClauses(report), expectedRed.map(id).sort(), redMismatch(report, expectedRed.map(id)));
    const informational = report.results.filter((r) => r.outcome === 'informational');
    t.deepEqual(
      [...new Set(informational.map((r) => r.clause))].sort(),
      expectedInformational.map(id).sort(),
      informational.map((r) => `${r.id}: ${r.message.split('\n')[0]}`).join('\n'),
    );
    t.deepEqual(
      report.results.filter((r) => r.outcome === 'not-applicable').map((r) => r.id),
      [],
    );
    const errored = report.results.filter((r) => r.outcome === 'error');
    t.deepEqual(
      errored.map((r) => r.id).sort(),
      errors.map(id).sort(),
      errored.map((r) => `${r.id}: ${r.message.split('\n')[0]}`).join('\n'),
    );
    t.regex(run.stdout, /FAIL gateway\/\S+\n {2}clause gateway\/\S+ \(must\): [\s\S]*reproduce:/);
  });
}

test('every fault of the faulty gateway is exercised, each in one run', (t) => {
  const used = RUNS.flatMap((r) => r.faults).sort();
  t.deepEqual(used, [...new Set(used)], 'a fault in two runs');
  t.deepEqual(used, (Object.keys(GATEWAY_FAULTS) as GatewayFault[]).sort());
});

test('every must-clause of the gateway catalog goes red under some fault', (t) => {
  const catalog = parse(readFileSync(join(PROJECT_ROOT, 'spec', 'gateway.yaml'), 'utf8')) as { clauses: { id: string; level: string }[] };
  const red = new Set(RUNS.flatMap((r) => r.expectedRed.map(id)));
  t.deepEqual(
    catalog.clauses.filter((c) => c.level === 'must' && !red.has(c.id)).map((c) => c.id),
    [],
  );
});
