// The variants the permitted-variant recipe manager can take on (VARIANTS=a,b,...), each a choice document 002
// (part B) leaves open, with the sentence of the document or the catalog clause (spec/recipes.yaml) that leaves
// it open. The payload variants (own-shapes, own-envelope, mine-1, categories-strings, code-param,
// photo-field-image) change what the cases send and read: a set turning them on declares them in its
// description's `shapes` (variant-recipes.json).
export const RECIPES_VARIANTS = {
  // ------------------------------------------------------------ payloads
  /** Recipe fields of its own — title as name, description as summary, servings as yield, an ingredient's name
   * as item and its quantity as amount, a step's text as instruction (isPublic and a step's order keep the names
   * the document gives them; a user's name stays name) — and answers wrapped: {recipe}, {user}, {settings}, {tags}, {categories}, {draft}, {invite},
   * the login and setup token as accessToken, the setup state as {needsSetup}; the servings of a scaled read asked as ?yield= ("Request and response payload shapes of the recipe manager: not
   * shown"; "Fields of the recipe, user and invite records beyond those named: not shown";
   * recipes/recipes/payload, recipes/auth/login-payload, recipes/setup/payload, recipes/recipes/servings-scaling:
   * "how the API exposes it is not shown"). */
  'own-shapes': 'renamed fields, wrapped answers',
  /** Recipes numbered 1, 2, 3… in answers and paths rather than UUIDs (recipes/api/json-representation: "The
   * document shows no … identifier formats"). */
  'numeric-ids': 'recipes numbered',
  /** Lists as {data: [...], meta: {page, perPage, total}} (users and invites: {data, meta: {total}}); the page
   * size parameter stays `limit`, which the document names (recipes/list-query/envelope,
   * recipes/admin-users/list-shape, recipes/invites/representation). */
  'own-envelope': 'its own list envelope',
  /** Pages counted from 0: page=0 is the first page, and the envelope's page says so (recipes/list-query/
   * pagination-defaults: "Paging defaults, maxima and invalid values are not stated"; the document names page
   * "selecting which page" and no first number). */
  'zero-based-pages': 'pages counted from 0',
  /** Three recipes a page when limit is not given, so a list of a few recipes takes several pages
   * (recipes/list-query/pagination-defaults). */
  'small-pages': 'three recipes a page by default',
  /** Ten recipes per page when limit is not given, at most 50 (more is clamped) (recipes/list-query/
   * pagination-defaults: "Paging defaults, maxima and invalid values are not stated"). */
  'paging-alt': 'other paging defaults',
  /** Error bodies {message, code, fields?} in words of its own, 422 for input it cannot accept, 401 for every
   * refused login ("Error bodies of the recipe manager: not shown"; recipes/errors/error-body,
   * recipes/errors/validation, recipes/auth/login-unverified-status, recipes/auth/inactive-user). */
  'own-errors': 'its own error bodies and statuses',
  /** Non-admins on admin routes and non-owners on a recipe's changes are answered 404, as if nothing were
   * there (recipes/admin-users/admin-refusal-status, recipes/recipes/ownership). */
  '404-not-403': 'refusals by role or ownership as 404',
  /** Another user's private recipe is answered 403 (401 without a token) rather than as a missing one
   * (recipes/recipes/private-access: "Who may read a private recipe, and what others receive, is not stated"). */
  '403-not-404': "others' private recipes as 403",
  /** 200 where the reference answers 201 or 204, with a small JSON body for deletions and favorites
   * (recipes/api/json-representation, recipes/recipes/delete-semantics, recipes/saved/semantics,
   * recipes/invites/revoke-status, recipes/admin-users/deleted-user-content). */
  'own-success-codes': '200 for every success',
  /** mine=1 selects one's own recipes; any other value of mine is refused (recipes/list-query/mine-meaning:
   * "The accepted values of mine and exactly what it selects are not stated"). */
  'mine-1': 'mine takes 1 only',
  /** GET /api/categories answers the category names a recipe uses, as strings (recipes/categories/
   * source-and-shape: "how a recipe names one, and the list shape are not shown"). */
  'categories-strings': 'categories as strings',
  /** No categories on a fresh install: a recipe names a category of its own (any name), and GET /api/categories
   * lists the categories recipes name, as {slug, name} (recipes/categories/source-and-shape: "Where categories
   * come from, how a recipe names one, and the list shape are not shown"). */
  'categories-from-recipes': 'categories named by recipes, none seeded',
  /** GET /api/recipes/tags answers each tag with the number of recipes carrying it, [{tag, count}]
   * (recipes/tags/scope-and-shape: "the answer shape are not shown"). */
  'tags-counted': 'tags as {tag, count}',
  /** Each answer shaped for its call: creating a recipe answers {id, href} (not the recipe), a photo upload
   * {photo: {url}} (the stored photo, main or the step's), an update the bare recipe, the public list a bare
   * array ("Request and response payload shapes of the recipe manager: not shown"; recipes/recipes/payload,
   * recipes/recipe-photos/upload-format, recipes/public/query-and-shape). */
  'answers-by-call': 'answers shaped per call',
  /** The token of a reset link is its `key` parameter and of an invite link its `invite` parameter (the
   * verification link keeps its own: `token`, or `code` with code-param) (recipes/email/link-fields: "the link
   * formats are not shown"). */
  'link-params': 'a token parameter per kind of link',
  /** The page an import fetches is sent as `link` ({link: "https://…"}); a `url` field is not read
   * (recipes/import/request-and-result: "The import request shape … and the answer are not shown"). */
  'import-field-link': 'the import request names its page link',
  /** POST /api/admin/invites needs the invitee's address ({email}); an invite asked for nobody is refused (400)
   * (recipes/invites/representation: the invite's fields and the creation's body are not shown). */
  'invite-for-email': 'an invite is made for an email address',
  /** A fresh install keeps registration closed (allowRegistration false) until an admin opens it
   * (recipes/settings/defaults: "Initial setting values are not stated"). */
  'registration-closed-by-default': 'registration closed on a fresh install',
  /** Links in answers under `links` ({links: {verify}}, {links: {reset}}, {links: {invite}}) (recipes/email/
   * link-fields: "The response fields carrying the links and the link formats are not shown"). */
  'links-elsewhere': 'links under a field of their own',
  /** The token of verification, reset and invite links, and of GET /api/auth/verify-email, is the query
   * parameter `code`; an invite link leads to /join (recipes/auth/verify-email-params, recipes/email/
   * link-fields, recipes/invites/representation). */
  'code-param': 'tokens passed as code',
  /** The setup admin verifies an email like anyone: the setup answer carries the verification link and no
   * token (recipes/setup/payload: "whether the setup admin must verify an email, are not shown"). */
  'setup-admin-unverified': 'the setup admin verifies an email',
  /** A verification link that works answers 303 to the front end's sign-in page (APP_URL/login?verified=1)
   * rather than JSON, as a link clicked in a mail should (recipes/auth/verify-email-params: "How the
   * verification token is passed and what the verification endpoint answers are not shown"). */
  'verify-redirect': 'verification answered with a redirect',
  /** Mails as HTML alone, the link behind a button (nothing is said of the mails' form; recipes/email/
   * smtp-configured-sends-mail asks for the links and the sender only). */
  'html-mail': 'HTML-only mails',
  /** Photos uploaded in the multipart field `image` (recipes/recipe-photos/upload-format: "The upload encoding,
   * field name and answer are not shown"). */
  'photo-field-image': 'photo field image',
  /** Without mine, GET /api/recipes lists the caller's own recipes only, public and private (recipes/recipes/
   * list-visibility: "Which recipes an authenticated list returns is not stated"). */
  'list-own-only': 'the list holds only own recipes',
  /** GET /api/recipes/public ignores q, tag, category, page and limit: the 100 newest public recipes in one
   * answer (recipes/public/query-and-shape: "Whether the public list supports filters and paging, and its
   * shape, are not shown"). */
  'public-unfiltered': 'an unfiltered public list',
  /** GET /api/recipes/tags draws on public recipes only, token or not (recipes/tags/scope-and-shape: "Which
   * recipes the tags are drawn from and the answer shape are not shown"). */
  'tags-public-only': 'tags of public recipes only',
  /** The health answer at GET /api/health only, like every other endpoint; GET /health is not served
   * (recipes/health/path-and-body: "It is not stated whether /health sits inside or outside the /api
   * prefix"). */
  'health-under-api': 'health under /api only',
  /** A bearer token sent to a public read (a recipe, the public list, the tags) is checked too: an invalid one
   * answers 401 (the document gives public reads no rule for a bad token; recipes/auth/unauthenticated). */
  'strict-tokens': 'bad tokens refused on public reads',
  /** Its own documentation page at /api/docs: server-made HTML listing every endpoint, with a form that calls
   * the public GET endpoints; no OpenAPI document (recipes/docs/format-and-access: "The technology of the
   * interactive docs, the machine-readable description behind them, and whether they require login are not
   * stated"). */
  'own-docs': 'its own docs page',
  /** Photos kept without their metadata: text, Exif and time chunks are dropped from a PNG before it is stored,
   * as a server careful of its users' privacy does ("Uploaded photos are stored as files in an uploads
   * directory": nothing says their bytes are kept as sent; recipes/recipe-photos/upload-format, limits). */
  'strip-metadata': 'photos stored without metadata',
  // ------------------------------------------------------------ more than the document
  /** More fields in answers: a request id in every answer object, links and a rating in recipes, an avatar and
   * a locale in users ("Fields of the recipe, user and invite records beyond those named: not shown"). */
  'extra-fields': 'extra fields',
  /** GET /api/version, GET /api/stats and GET /api/recipes/:id/print (a text rendering) besides the table's
   * endpoints (nothing limits a server to the endpoints listed; recipes/errors/not-found leaves unknown routes'
   * answers open). */
  'extra-endpoints': 'extra endpoints',
  // ------------------------------------------------------------ the process
  /** Banner lines on stdout at start (nothing is said of the process's output). */
  banner: 'a banner on stdout',
  /** No SIGTERM/SIGINT handler: the default ends the process (shutdown is not described). */
  'no-sigterm': 'no signal handlers',
  /** 30-80 ms more before each answer ("Limits of the recipe manager: not shown"; no latency is stated). */
  slow: 'slower answers',
} as const;
export type RecipesVariant = keyof typeof RECIPES_VARIANTS;
