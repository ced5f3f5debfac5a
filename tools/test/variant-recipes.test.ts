// The recipes suite passes a different but right recipe manager: the permitted variant (tools/test/variant/
// variant-recipes.ts: the reference recipe manager behind a front of the variant's own design) changes only what
// document 002 (part B) and the catalog leave open — payload shapes (declared in its description, per answer
// and per depth), the list envelope, paging defaults and the first page's number, error bodies and statuses, 403 or 404, success codes, the values of mine, the
// categories list and where categories come from, the tags' shape, where links are and how tokens are passed, whether the setup admin verifies an email,
// the import's request field, an invite's body, registration closed on a fresh install, which
// recipes the lists and tags hold, the photo field, the docs page, extra fields and endpoints, stdout, signals,
// timing — and per set of variants no must-case fails or errs, and exactly the listed informational cases (the
// reference's recorded choices the variant does not share) come out informational. The last sets are choices
// the suite does not pass yet: their must failures are the cases going further than their clauses.
import { bundleTarget } from './run-cli.ts';
import { variantSuite } from './variant-run.ts';
import { RECIPES_VARIANTS, type RecipesVariant } from './variant/variant-recipes-variants.ts';

// Bundled once, as the reference is: the suite starts a recipe manager for many cases.
bundleTarget('tools/test/variant/variant-recipes.ts', '.cache/variant/recipes/variant-recipes.mjs');

const TARGET = 'cmd:node {root}/.cache/variant/recipes/variant-recipes.mjs';
const describe = (file: string): string[] => ['--describe', `recipes=tools/test/variant/${file}`];
const id = (rest: string) => `recipes/${rest}`;

variantSuite({
  surface: 'recipes',
  target: TARGET,
  variants: Object.keys(RECIPES_VARIANTS) as RecipesVariant[],
  sets: [
    {
      // An independently designed recipe manager: its own field names (a recipe's title is its name, an
      // ingredient's name its item) and wrapped answers, answers shaped per call, envelopes and paging defaults,
      // pages counted from 0, errors and statuses, values of mine, categories, tags with counts, links and token
      // parameters, photo field, docs page, numbered recipes, extra fields and endpoints, a banner, no signal
      // handlers, slower answers, the import's page sent as link, invites made for an address. Its shapes
      // (pageBase 0, rename.import, inviteBody among them) are in variant-recipes.json.
      variants: [
        'own-shapes',
        'own-envelope',
        'paging-alt',
        'own-errors',
        '404-not-403',
        'own-success-codes',
        'mine-1',
        'categories-strings',
        'links-elsewhere',
        'code-param',
        'photo-field-image',
        'own-docs',
        'numeric-ids',
        'extra-fields',
        'extra-endpoints',
        'banner',
        'no-sigterm',
        'slow',
        'zero-based-pages',
        'answers-by-call',
        'link-params',
        'tags-counted',
        'import-field-link',
        'invite-for-email',
      ],
      args: describe('variant-recipes.json'),
      informational: [
        // own-success-codes: 200 where the reference answers 201 or 204
        'api/json-representation/json-answers-ids-timestamps-statuses',
        'auth/register-payload/created-unverified-user-no-token',
        'email/smtp-empty-definition/host-empty-means-unconfigured',
        'recipes/payload/created-201-full-recipe',
        'recipes/delete-semantics/no-content-then-not-found',
        'saved/semantics/idempotent-204-readable-only',
        'invites/revoke-status/204-then-404',
        'admin-users/deleted-user-content/recipes-go-too',
        // own-shapes (and own-success-codes): the token at accessToken, answers wrapped, ?yield= for servings
        'auth/login-payload/token-and-user-401-alike',
        'setup/payload/201-token-verified-admin',
        'invites/representation/created-once-listed-without-token',
        'invites/lifetime/seven-days-single-use',
        'settings/defaults/fresh-values',
        'settings/patch-semantics/partial-typed-unknown-400',
        'tags/scope-and-shape/private-tags-for-owner-only',
        'recipes/servings-scaling/quantities-scale-and-return',
        'config/persistence/restart-keeps-accounts',
        // own-envelope and paging-alt: {data, meta}, ten a page
        'list-query/envelope/items-page-limit-total',
        'public/query-and-shape/filters-and-envelope',
        'admin-users/list-shape/array-oldest-first',
        // own-errors: 422 for input it cannot take, 401 for every refused login
        'auth/password-policy/8-to-128-characters',
        'auth/register-gate/403-closed-400-bad-invite',
        'auth/reset-token-lifetime/newer-request-supersedes',
        'auth/verification-token-lifetime/single-use-stays-verified',
        'auth/login-unverified-status/403',
        'auth/inactive-user/login-403-tokens-401-until-reactivated',
        'invites/invited-user-verification/verify-before-login',
        'admin-users/update-fields/role-active-only-404-unknown',
        'import/failures/non-http-url-refused',
        'import/failures/not-a-url-refused',
        'list-query/pagination-defaults/past-the-end-empty',
        'recipe-photos/upload-format/answer-shows-photo-and-replaces',
        'recipes/step-order-values/sorted-by-order',
        'categories/source-and-shape/seeded-slugs-by-name',
        // answers-by-call: the create answer is {id, href}
        'tags/normalization/trimmed-lower-case',
        // 404-not-403: non-admins and non-owners answered 404
        'admin-users/admin-refusal-status/401-without-token-403-for-users',
        'settings/get-access/admin-only-password-hidden',
        'recipes/ownership/only-owner-or-admin-changes',
        'recipes/ownership/others-change-nothing-admins-may',
        // mine-1: mine=true, false and 0 refused
        'list-query/mine-meaning/true-or-1-own-false-or-0-none',
        // links-elsewhere
        'email/link-fields/verification-url-and-reset-url',
        // code-param: the verification token is ?code=
        'auth/verify-email-params/token-query-200-bad-400',
        // extra-fields: a request id in every answer object, more fields in users
        'auth/user-representation/fields',
        'auth/reset-password-payload/200-bad-token-400',
        'setup/status-shape/admin-exists-boolean',
        // own-docs: no Swagger UI, no OpenAPI document
        'docs/format-and-access/openapi-json-lists-every-endpoint',
        'docs/format-and-access/swagger-ui-try-it-out',
      ].map(id),
    },
    {
      // The reference's shapes (variant-recipes-plain.json) with the other choices: others' private recipes
      // refused as 403, a setup admin who verifies an email, a list of one's own recipes, an unfiltered public
      // list, tags of public recipes only and with their counts (found out: no tagKey declared), bad tokens
      // refused on public reads, extra fields, no seeded categories (a recipe names its own), three recipes a
      // page by default, registration closed on a fresh install (the suite's admin opens it).
      variants: [
        '403-not-404',
        'setup-admin-unverified',
        'list-own-only',
        'public-unfiltered',
        'tags-public-only',
        'strict-tokens',
        'extra-fields',
        'categories-from-recipes',
        'tags-counted',
        'small-pages',
        'registration-closed-by-default',
      ],
      args: describe('variant-recipes-plain.json'),
      informational: [
        // 403-not-404
        'recipes/private-access/others-get-not-found',
        'recipes/ownership/only-owner-or-admin-changes',
        'recipes/ownership/others-change-nothing-admins-may',
        'saved/semantics/idempotent-204-readable-only',
        // setup-admin-unverified: no token in the setup answer
        'setup/payload/201-token-verified-admin',
        // list-own-only (mine=false and 0, and the saved=true list, too)
        'recipes/list-visibility/own-and-others-public',
        'list-query/mine-meaning/true-or-1-own-false-or-0-none',
        'saved/listing/saved-flag-and-filter',
        // public-unfiltered
        'public/query-and-shape/filters-and-envelope',
        // tags-public-only (and tags-counted)
        'tags/scope-and-shape/private-tags-for-owner-only',
        // categories-from-recipes
        'categories/source-and-shape/seeded-slugs-by-name',
        // extra-fields: answers compared whole
        'auth/user-representation/fields',
        'auth/reset-password-payload/200-bad-token-400',
        'auth/verify-email-params/token-query-200-bad-400',
        'invites/representation/created-once-listed-without-token',
        'settings/defaults/fresh-values',
        'settings/patch-semantics/partial-typed-unknown-400',
        'setup/status-shape/admin-exists-boolean',
      ].map(id),
    },
    {
      // Pages counted from 0, three recipes a page, and no pageBase declared (the reference's shapes): the cases
      // not about paging read every list as the target pages it (the cases about paging take the declared
      // pageBase, as in the first set).
      variants: ['zero-based-pages', 'small-pages'],
      args: describe('variant-recipes-plain.json'),
      selection: [
        'recipes/list-query/q/**',
        'recipes/list-query/tag/**',
        'recipes/list-query/category/**',
        'recipes/list-query/mine/**',
        'recipes/list-query/combination/**',
        'recipes/list-query/q-matching/**',
        'recipes/recipes/list-visibility/**',
        'recipes/recipes/create/**',
        'recipes/public/list-public/**',
        'recipes/import/request-and-result/**',
      ],
      informational: [],
    },
    // Permitted choices the suite once went further than its clauses on (now detected: the health path, a photo
    // stored re-encoded, a verification answered with a redirect, HTML-only mails): each set keeps to the cases
    // it concerns.
    {
      // The health check under /api like every other endpoint, and only there: the must-cases try GET /health,
      // then GET /api/health.
      variants: ['health-under-api'],
      args: describe('variant-recipes-plain.json'),
      selection: ['recipes/health/**', 'recipes/config/port-*/**'],
      informational: ['health/path-and-body/status-ok-and-uptime'].map(id),
    },
    {
      // Photos stored without their metadata: the must-cases take a file holding the bytes sent, or the same
      // pixel in a PNG of the target's writing.
      variants: ['strip-metadata'],
      args: describe('variant-recipes-plain.json'),
      selection: ['recipes/recipe-photos/**'],
      informational: ['recipe-photos/serving/photo-url-serves-the-bytes'].map(id),
    },
    {
      // Verification answered with a redirect: cases and their set-up steps take a 2xx or a 3xx as accepted.
      variants: ['verify-redirect'],
      args: describe('variant-recipes-plain.json'),
      selection: ['recipes/auth/**', 'recipes/email/**', 'recipes/invites/invited-user-verification/**'],
      informational: ['auth/verify-email-params/token-query-200-bad-400'].map(id),
    },
    {
      // Mails as HTML alone: the mailbox reads the link out of mailparser's text rendering, "Open [<url>]", with
      // the closing bracket.
      variants: ['html-mail'],
      args: describe('variant-recipes-plain.json'),
      selection: ['recipes/email/**', 'recipes/config/app-url-*/**'],
      informational: [],
    },
  ],
});
