// The static suite passes a different but right static/proxy server: the permitted variant
// (tools/test/variant/variant-static.ts: the reference in-process with the variant laid over it, its own
// help, --init and cluster manager) changes only what document 002 leaves open, and per set of variants no
// must-case fails or errs, and exactly the listed informational cases (the reference's recorded choices
// the variant does not share) come out informational.
import { bundleTarget } from './run-cli.ts';
import { loadReferenceTargets } from '../../conformance/harness/reference-targets.ts';
import { variantSuite } from './variant-run.ts';
import { STATIC_VARIANTS, type StaticVariant } from './variant/variant-static-variants.ts';

// Bundled once, as the references are: the suite starts a target for almost every case, and a bundle
// starts in a fraction of the time tsx needs. It runs the reference's bundle in its own process.
loadReferenceTargets(['static']);
bundleTarget('tools/test/variant/variant-static.ts', '.cache/variant/static/variant-static.mjs');

const TARGET = 'cmd:node {root}/.cache/variant/static/variant-static.mjs';
/** The alias command, and a cluster settings file in the format of the cluster manager in use: the variant's
 * own (`key = value` lines) with cluster-foreground, else the reference's pm2 ecosystem file; the first also
 * names the NODE_ENV values of mode-env-alt and the upload field of upload-field. */
const DESCRIBE_OWN_CLUSTER = ['--describe', 'static=tools/test/variant/variant-static.json'];
const DESCRIBE_PM2 = ['--describe', 'static=tools/test/variant/variant-static-pm2.json'];
const id = (rest: string) => `static/${rest}`;

variantSuite({
  surface: 'static',
  target: TARGET,
  variants: Object.keys(STATIC_VARIANTS) as StaticVariant[],
  sets: [
    {
      // What an independently written server showed: banners, a buffered log, a foreground cluster, an
      // --init that needs a terminal, no client added to pages, its own wording everywhere.
      // mode-env-alt and upload-field: their choices named in the description (modeEnv, uploadField).
      variants: [
        'banner', 'buffered-logs', 'no-config-8000', 'other-errors', 'init-tty', 'help-alt', 'cluster-foreground', 'no-inject', 'events-alt', 'slow',
        'no-sigterm', 'mode-env-alt', 'upload-field',
      ],
      args: DESCRIBE_OWN_CLUSTER,
      informational: [
        // banner
        'config/ready-line/listening-on-stdout',
        // no-config-8000
        'config/no-file-port-env/port-env-used',
        'config/no-file-warning-stream/stderr-warning-line',
        // no-sigterm
        'config/signal-shutdown/sigterm-exits-0',
        // other-errors: bodies and statuses
        'basic-auth/401-body/unauthorized-text',
        'cgi/spawn-failure-body/short-text-and-server-keeps-running',
        'hosts/no-matching-site/404',
        'proxy/upstream-unreachable/502',
        'rate-limit/default-message/text-body',
        'unhandled/default-body/plain-not-found',
        'upload/bad-request/no-file',
        'upload/bad-request/not-multipart',
        'upload/error-body/json-error-and-nothing-kept',
        // other-errors: startup messages and exit status 3
        'startup/config-file-missing-message/names-path-exit-1',
        'startup/duplicate-catch-all/two-catch-alls-rejected',
        'startup/error-format/one-error-line-no-stack',
        'startup/invalid-json/exit-1',
        'startup/invalid-value/names-key',
        'startup/port-in-use/exit-1',
        // init-tty: piped answers refused
        'cli/init-questions/answers-become-config',
        'cli/init-overwrite-prompt/yes-replaces',
        // help-alt
        'cli/help-output-and-exit/stdout-and-short-flag',
        'cli/unknown-flag/usage-error-exit-2',
        // cluster-foreground: start stays, its own settings format
        'cli/cluster-start-background/start-returns-while-cluster-serves',
        'cli/cluster-manager/ecosystem-file-sets-workers',
        // no-inject
        'hot-reload/script-injection/appended-without-body',
        'hot-reload/script-injection/inserted-before-body-end',
        // events-alt
        'hot-reload/event-names/connected-then-reload',
        'hot-reload/event-payload/json-path-relative-to-folder',
        'hot-reload/event-payload/quick-changes-one-reload',
        // upload-field: a field other than the one named is refused
        'upload/field-name/unset-any-field',
      ].map(id),
    },
    {
      // Answers that carry more, or other details, than the reference's.
      variants: ['mime-alt', 'extra-headers', 'upload-201', 'health-extra', 'cors-200', 'no-ratelimit-headers', 'realm-alt', 'strict-folders'],
      args: DESCRIBE_PM2,
      informational: [
        // mime-alt
        'favicon/response-headers/icon-type',
        'upload/get-details/content-type-by-extension',
        // upload-201
        'upload/success-status/200-json',
        // health-extra
        'health/status-and-type/json-200-and-head',
        // cors-200
        'cors/defaults/star-and-preflight-204',
        // no-ratelimit-headers
        'rate-limit/headers-and-window/ratelimit-headers',
        // realm-alt
        'basic-auth/realm-default/restricted',
      ].map(id),
    },
  ],
});
