// The recipes suite can fail: the faulty recipe manager (tools/test/faulty/faulty-recipes.ts, the reference
// behind a front that injects faults) breaks documented rules, and for each set of faults, run on the cases of
// the clauses it names (those it must turn red and a few neighbours), exactly their clauses must go red - no
// more (no collateral), no fewer (no blind spot). Each set mixes faults whose cases do not meet, so that each
// fault has a red clause of its own in its set (a fault that stops what most cases need, an account or a
// token, runs alone); every fault is used once, and every must-clause of the catalog goes red under some fault.
// Clauses are named, not matched by wildcards: cases the suite adds for other clauses stay out.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import type { JsonReport } from '../conform/report-json.ts';
import { RECIPES_FAULTS, type RecipesFault } from './faulty/faulty-recipes-faults.ts';
import { redClauses, redMismatch } from './red-clauses.ts';
import { bundleTarget, runTool, tempDir } from './run-cli.ts';

// Bundled once: the suite starts a recipe manager for many cases, and a bundle starts in a fraction of tsx's time.
bundleTarget('tools/test/faulty/faulty-recipes.ts', '.cache/faulty/faulty-recipes.mjs');

const TARGET = 'recipes=cmd:node {root}/.cache/faulty/faulty-recipes.mjs';
// The reference's shapes and capabilities, with its environment (loopback bind, imports from the suite's pages).
const DESCRIPTION = 'recipes=tools/test/faulty/faulty-recipes.json';

interface FaultRun {
  faults: RecipesFault[];
  /** Clause IDs without the `recipes/` prefix: the clauses that must go red. */
  expectedRed: string[];
  /** Further clauses whose cases run too (those expected informational, and neighbours that must stay green). */
  also?: string[];
  /** Clauses of the reference's choices the faults break (reported, never failing the run). */
  expectedInformational?: string[];
  /** Cases (without `recipes/`) that must end `error`: the fault takes away what they need to judge. */
  errors?: string[];
}

const RUNS: FaultRun[] = [
  {
    faults: ['expires-in-ignored', 'token-any-secret', 'is-public-ignored'],
    expectedRed: [
      'config/jwt-expires-in', // expires-in-ignored (and the expiry it sets)
      'auth/jwt-expiry',
      'auth/jwt-signed-with-secret', // token-any-secret (and the secret verifying them)
      'config/jwt-secret',
      'recipes/is-public-field', // is-public-ignored
    ],
    also: ['auth/jwt-bearer'],
  },
  {
    faults: [
      'login-unverified',
      'me-other-user',
      'reset-noop',
      'password-hash-shown',
      'expiry-not-checked',
      'setup-twice',
      'settings-get-defaults',
      'mail-sender-ignored',
      'invites-outside-api',
      'api-v1-alias',
      'saved-noop',
    ],
    expectedRed: [
      'auth/login-needs-verified-email', // login-unverified
      'auth/me-endpoint', // me-other-user
      'auth/reset-password-endpoint', // reset-noop
      'auth/passwords-hashed', // password-hash-shown
      'auth/jwt-expiry', // expiry-not-checked (the duration JWT_EXPIRES_IN set)
      'config/jwt-expires-in',
      'setup/first-run-flow', // setup-twice
      'settings/get-endpoint', // settings-get-defaults
      'email/smtp-configured-sends-mail', // mail-sender-ignored
      'api/prefix', // invites-outside-api
      'versioning/fixed-prefix-no-version', // api-v1-alias
    ],
    // saved-noop: no must-case sees a favorite (the document has no way to list them): the reference's saved
    // flag and saved=true list do.
    also: ['saved/save', 'saved/listing', 'auth/login-endpoint'],
    expectedInformational: ['saved/listing'],
  },
  {
    faults: [
      'register-ignores-allow-registration',
      'user-update-noop',
      'user-delete-keeps-login',
      'invites-list-used',
      'forgot-noop',
      'categories-404',
      'tags-duplicated',
      'import-empty',
      'public-list-includes-private',
      'password-stored-plain',
      'app-url-ignored',
      'unsave-noop',
    ],
    expectedRed: [
      'auth/register-checks-settings', // register-ignores-allow-registration
      'admin-users/update', // user-update-noop
      'admin-users/delete', // user-delete-keeps-login
      'invites/list-active', // invites-list-used
      'auth/forgot-password-endpoint', // forgot-noop
      'categories/list', // categories-404
      'tags/list-distinct', // tags-duplicated
      'import/import-url', // import-empty
      'public/list-public', // public-list-includes-private
      'auth/passwords-hashed', // password-stored-plain
      'config/app-url-in-links', // app-url-ignored
    ],
    also: ['saved/unsave', 'saved/listing', 'config/app-url-default'],
    expectedInformational: ['saved/listing'], // unsave-noop
  },
  {
    faults: [
      'invite-token-ignored',
      'admin-open',
      'user-fields-missing',
      'steps-reversed',
      'list-open',
      'create-anonymous',
      'delete-noop',
      'ingredients-dropped',
      'reset-link-withheld',
      'jwt-secret-ignored',
    ],
    expectedRed: [
      'auth/register-checks-settings', // invite-token-ignored (an invited registration while closed)
      'invites/create',
      'admin-users/admin-role-required', // admin-open
      'admin-users/user-fields', // user-fields-missing (and the status change it hides)
      'admin-users/update',
      'recipes/steps-ordered', // steps-reversed
      'recipes/list-endpoint', // list-open
      'recipes/create', // create-anonymous
      'recipes/delete', // delete-noop
      'recipes/content', // ingredients-dropped
      'email/smtp-empty-returns-links', // reset-link-withheld
      'config/jwt-secret', // jwt-secret-ignored
    ],
  },
  {
    faults: ['invite-revoke-noop', 'users-list-admins-only', 'literal-route-shadowed', 'photo-404', 'saved-open', 'public-hidden-from-admins'],
    expectedRed: [
      'invites/revoke', // invite-revoke-noop (a revoked invite still active)
      'invites/list-active',
      'admin-users/list', // users-list-admins-only
      'recipes/literal-routes', // literal-route-shadowed
      'recipe-photos/main-photo-upload', // photo-404
      'saved/save', // saved-open
      'saved/unsave',
      'recipes/public-readable-without-auth', // public-hidden-from-admins (the access matrix's admin reader)
    ],
  },
  {
    faults: ['step-photo-wrong-step', 'update-noop', 'public-needs-token', 'settings-patch-noop', 'page-repeats', 'invite-token-unusable'],
    expectedRed: [
      'recipe-photos/step-photo-upload', // step-photo-wrong-step
      'recipes/update', // update-noop
      'recipes/public-readable-without-auth', // public-needs-token (and the visibility isPublic gives)
      'recipes/is-public-field',
      'settings/patch-endpoint', // settings-patch-noop (the change neither kept nor read back)
      'settings/keys',
      'settings/get-endpoint',
      'list-query/page-limit', // page-repeats
      'invites/create', // invite-token-unusable (registering with it)
      'auth/register-checks-settings',
    ],
  },
  {
    faults: ['private-readable', 'photo-in-db', 'settings-patch-open', 'settings-drop-key', 'no-mail', 'q-ignored', 'tag-ignored', 'category-ignored', 'mine-ignored', 'limit-ignored'],
    expectedRed: [
      'recipes/get', // private-readable (no token needed for a private recipe)
      'recipes/is-public-field',
      'recipe-photos/stored-as-files', // photo-in-db
      'settings/patch-endpoint', // settings-patch-open
      'admin-users/admin-role-required',
      'settings/keys', // settings-drop-key (and the settings read back)
      'settings/get-endpoint',
      'email/smtp-configured-sends-mail', // no-mail
      'list-query/q', // q-ignored
      'list-query/tag', // tag-ignored
      'list-query/category', // category-ignored
      'list-query/mine', // mine-ignored
      'list-query/page-limit', // limit-ignored
      'recipes/list-endpoint', // each of the five (the list's parameters)
    ],
  },
  // Each with the few cases that need nothing it takes away (an account, a verified address, a usable token,
  // an admin, the port).
  {
    faults: ['register-needs-token', 'health-404', 'setup-status-false'],
    expectedRed: ['auth/register-endpoint', 'health/endpoint', 'setup/status-endpoint'],
  },
  { faults: ['verify-noop', 'docs-404'], expectedRed: ['auth/verify-email-endpoint', 'docs/interactive-docs'] },
  { faults: ['login-token-unusable', 'port-default-8080'], expectedRed: ['auth/login-endpoint', 'config/port-default'] },
  { faults: ['bearer-ignored'], expectedRed: ['auth/jwt-bearer'] },
  {
    faults: ['verification-link-withheld'],
    expectedRed: ['email/smtp-empty-returns-links'],
    // The reset link is asked for by a verified user, whom the missing link does not let exist.
    errors: ['email/smtp-empty-returns-links/reset-link-in-answer'],
  },
  { faults: ['setup-makes-user'], expectedRed: ['setup/create-first-admin', 'setup/first-run-flow'] },
  // Every start listens on 8080: nothing else can run beside it.
  { faults: ['port-ignored'], expectedRed: ['config/port-env'] },
];

const id = (rest: string) => `recipes/${rest}`;

/** At most this many conformance runs at once (each starts many recipe managers; the machine has two cores). */
const PARALLEL = 4;
let running = 0;
const waiting: (() => void)[] = [];
async function slot<T>(work: () => Promise<T>): Promise<T> {
  while (running >= PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

for (const { faults, expectedRed, also = [], expectedInformational = [], errors = [] } of RUNS) {
  const selection = [...new Set([...expectedRed, ...also])].map((clause) => `${id(clause)}/**`);
  test(`a faulty recipe manager (${faults.join(', ')}) turns exactly the expected clauses red`, async (t) => {
    const reports = tempDir();
    const run = await slot(() =>
      runTool(
        'conform',
        ['--surface', 'recipes', '--target', TARGET, '--describe', DESCRIPTION, ...selection.flatMap((glob) => ['--only', glob]), '--report-dir', reports],
        { FAULTS: faults.join(',') },
      ),
    );
    const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as JsonReport;
    // The default port's case needs port 3000 free on the machine: when it is not, the case cannot judge here.
    const portBusy = report.results.filter((r) => r.outcome === 'error' && /the harness could not have port \d+/.test(r.message));
    for (const r of portBusy) t.log(`${r.id}: not judged here (${r.message})`);
    const unjudged = new Set(portBusy.map((r) => r.clause));
    const expected = [...new Set(expectedRed.map(id))].filter((clause) => !unjudged.has(clause)).sort();
    t.is(run.code, expected.length > 0 || portBusy.length > 0 ? 1 : 0, run.stderr);
    t.deepEqual(redClauses(report), expected, redMismatch(report, expected));
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
    const errored = report.results.filter((r) => r.outcome === 'error' && !portBusy.includes(r));
    t.deepEqual(
      errored.map((r) => r.id).sort(),
      errors.map(id).sort(),
      errored.map((r) => `${r.id}: ${r.message.split('\n')[0]}`).join('\n'),
    );
    if (expected.length > 0) t.regex(run.stdout, /FAIL recipes\/\S+\n {2}clause recipes\/\S+ \(must\): [\s\S]*reproduce:/);
  });
}

test('every fault of the faulty recipe manager is exercised, each in one run', (t) => {
  const used = RUNS.flatMap((r) => r.faults).sort();
  t.deepEqual(used, [...new Set(used)], 'a fault in two runs');
  t.deepEqual(used, (Object.keys(RECIPES_FAULTS) as RecipesFault[]).sort());
});

test('every must-clause of the recipes catalog goes red under some fault', (t) => {
  const catalog = parse(readFileSync(join(PROJECT_ROOT, 'spec', 'recipes.yaml'), 'utf8')) as { clauses: { id: string; level: string }[] };
  const red = new Set(RUNS.flatMap((r) => r.expectedRed.map(id)));
  t.deepEqual(
    catalog.clauses.filter((c) => c.level === 'must' && !red.has(c.id)).map((c) => c.id),
    [],
  );
});
