// The faults the faulty recipe manager can inject (FAULTS=a,b,...), each breaking one rule of the document
// (the must clause of spec/recipes.yaml it breaks is named first), or, where said, one choice the document
// leaves open.
export const RECIPES_FAULTS = {
  // ---------------------------------------------------------------- the service and its environment
  /** api/prefix: the invite endpoints answer at /admin/invites, outside /api. */
  'invites-outside-api': 'invites served at /admin/invites, not under /api',
  /** versioning/fixed-prefix-no-version: the API answers under /api/v1 too. */
  'api-v1-alias': 'API served under /api/v1 as well',
  /** health/endpoint: no health endpoint: GET /health (and /api/health) answers 404. */
  'health-404': 'no GET /health',
  /** docs/interactive-docs: GET /api/docs answers 404. */
  'docs-404': 'no GET /api/docs',
  /** config/port-env: listens on 8080 whatever PORT says. */
  'port-ignored': 'PORT ignored (always 8080)',
  /** config/port-default: without PORT it listens on 8080. */
  'port-default-8080': 'default port 8080 instead of 3000',
  /** config/jwt-secret: tokens are signed and verified with a built-in secret, not JWT_SECRET. */
  'jwt-secret-ignored': 'JWT_SECRET ignored (built-in secret)',
  /** config/jwt-expires-in: tokens live 7 days whatever JWT_EXPIRES_IN says. */
  'expires-in-ignored': 'JWT_EXPIRES_IN ignored (always 7d)',
  /** config/app-url-in-links: links are built on http://localhost:<PORT> (the default), whatever APP_URL says. */
  'app-url-ignored': 'links ignore APP_URL',

  // ---------------------------------------------------------------- tokens
  /** auth/jwt-bearer: the token is read from an X-Access-Token header; Authorization: Bearer is ignored. */
  'bearer-ignored': 'Authorization: Bearer ignored (X-Access-Token only)',
  /** auth/jwt-signed-with-secret: a token whose signature does not verify is accepted on its claims. */
  'token-any-secret': 'bearer tokens with a bad signature accepted',
  /** auth/jwt-expiry: an expired token is accepted. */
  'expiry-not-checked': 'expired bearer tokens accepted',

  // ---------------------------------------------------------------- accounts
  /** auth/register-endpoint: POST /api/auth/register needs a bearer token. */
  'register-needs-token': 'registration refused without a token',
  /** auth/register-checks-settings: registration is open while allowRegistration is false. */
  'register-ignores-allow-registration': 'allowRegistration false does not close registration',
  /** auth/register-checks-settings: the inviteToken of a registration is dropped. */
  'invite-token-ignored': 'registration ignores inviteToken',
  /** auth/verify-email-endpoint: verify-email answers success and verifies nothing. */
  'verify-noop': 'verify-email verifies nothing',
  /** auth/login-endpoint: login answers a token that is not usable (signed with another secret). */
  'login-token-unusable': 'login token signed with another secret',
  /** auth/login-needs-verified-email: accounts are verified as soon as they register. */
  'login-unverified': 'unverified accounts log in',
  /** auth/me-endpoint: GET /api/auth/me answers another user than the token's. */
  'me-other-user': '/auth/me answers another user',
  /** auth/forgot-password-endpoint: forgot-password answers its message and issues no reset. */
  'forgot-noop': 'forgot-password issues no reset',
  /** auth/reset-password-endpoint: reset-password answers success and changes nothing. */
  'reset-noop': 'reset-password changes nothing',
  /** auth/passwords-hashed: user representations carry the password hash. */
  'password-hash-shown': 'answers show passwordHash',
  /** auth/passwords-hashed: the password is also stored in plain text in the user's record. */
  'password-stored-plain': 'passwords stored in plain text too',

  // ---------------------------------------------------------------- setup, settings, mail
  /** setup/status-endpoint: GET /api/admin/setup says no admin exists, always. */
  'setup-status-false': 'setup status always "no admin"',
  /** setup/create-first-admin: setup makes an account with the role user. */
  'setup-makes-user': 'setup creates a plain user',
  /** setup/first-run-flow: setup creates another admin after the first. */
  'setup-twice': 'setup stays open after the first admin',
  /** settings/keys: smtpFrom is missing from the settings. */
  'settings-drop-key': 'settings without smtpFrom',
  /** settings/get-endpoint: GET /api/admin/settings answers the defaults, not the stored settings. */
  'settings-get-defaults': 'GET settings answers the defaults',
  /** settings/patch-endpoint: a non-admin's PATCH /api/admin/settings is applied. */
  'settings-patch-open': 'non-admins may change the settings',
  /** settings/patch-endpoint: PATCH /api/admin/settings answers the change and stores nothing. */
  'settings-patch-noop': 'settings changes not kept',
  /** email/smtp-empty-returns-links: without SMTP the registration answer carries no verification link. */
  'verification-link-withheld': 'verification link withheld without SMTP',
  /** email/smtp-empty-returns-links: without SMTP the forgot-password answer carries no reset link. */
  'reset-link-withheld': 'reset link withheld without SMTP',
  /** email/smtp-configured-sends-mail: with SMTP configured, nothing is mailed (and no link is answered). */
  'no-mail': 'no mail sent with SMTP configured',
  /** email/smtp-configured-sends-mail: mails go out from a fixed sender, not smtpFrom. */
  'mail-sender-ignored': 'mails not sent from smtpFrom',

  // ---------------------------------------------------------------- admin users, invites
  /** admin-users/admin-role-required: the admin routes the document restricts only by that rule (user changes,
   * invites) accept a user's token. */
  'admin-open': 'user changes and invites open to users',
  /** admin-users/user-fields: user representations lack isActive. */
  'user-fields-missing': 'users shown without isActive',
  /** admin-users/list: GET /api/admin/users lists the admins only. */
  'users-list-admins-only': 'user list shows admins only',
  /** admin-users/update: PATCH /api/admin/users/:id answers the change and stores nothing. */
  'user-update-noop': 'user changes not kept',
  /** admin-users/delete: DELETE /api/admin/users/:id answers 204 and deletes nothing. */
  'user-delete-keeps-login': 'deleted users still log in',
  /** invites/create: the invite's token (and link) answered is not the one stored. */
  'invite-token-unusable': 'invite token unusable',
  /** invites/list-active: used and revoked invites are listed too. */
  'invites-list-used': 'used and revoked invites listed',
  /** invites/revoke: DELETE /api/admin/invites/:id answers 204 and revokes nothing. */
  'invite-revoke-noop': 'revoked invites still register',

  // ---------------------------------------------------------------- recipes
  /** recipes/content: a recipe's ingredients are not kept. */
  'ingredients-dropped': 'recipe ingredients not kept',
  /** recipes/is-public-field: isPublic sent is ignored (recipes stay private). */
  'is-public-ignored': 'isPublic ignored',
  /** recipes/steps-ordered: steps come back with their texts in reverse order of their order values. */
  'steps-reversed': 'steps out of order',
  /** recipes/list-endpoint: GET /api/recipes answers without a token. */
  'list-open': 'recipe list without a token',
  /** recipes/create: POST /api/recipes without a token creates a recipe. */
  'create-anonymous': 'recipes created without a token',
  /** recipes/public-readable-without-auth, recipes/is-public-field: a public recipe needs a token. */
  'public-needs-token': 'public recipes need a token',
  /** recipes/public-readable-without-auth: an admin reading someone else's public recipe is answered 404 (one
   * role of the readers: only a matrix that calls every role sees it every time). */
  'public-hidden-from-admins': "admins cannot read others' public recipes",
  /** recipes/get (a token is needed unless the recipe is public), recipes/is-public-field: anyone, without a
   * token too, reads a private recipe. */
  'private-readable': 'private recipes readable by anyone',
  /** recipes/update: PATCH /api/recipes/:id answers the change and stores nothing. */
  'update-noop': 'recipe changes not kept',
  /** recipes/delete: DELETE /api/recipes/:id answers 204 and deletes nothing. */
  'delete-noop': 'deleted recipes still there',
  /** recipes/literal-routes: /api/recipes/public and /api/recipes/tags are taken for recipe ids. */
  'literal-route-shadowed': 'fixed paths taken for recipe ids',
  /** recipe-photos/main-photo-upload: POST /api/recipes/:id/photo answers 404. */
  'photo-404': 'no main photo upload',
  /** recipe-photos/step-photo-upload: a step photo goes to the step after the one asked for (the first after the last). */
  'step-photo-wrong-step': 'step photos land on the next step',
  /** recipe-photos/stored-as-files: uploaded photos are kept in the database, not as files. */
  'photo-in-db': 'photos kept in the database',
  /** import/import-url: the import answers an empty draft. */
  'import-empty': 'import reads nothing from the page',
  /** public/list-public: the public list shows private recipes too. */
  'public-list-includes-private': 'public list shows private recipes',
  /** tags/list-distinct: a tag is listed once per recipe carrying it. */
  'tags-duplicated': 'tags listed more than once',
  /** saved/save, saved/unsave: saving and unsaving answer success without a token (and change nothing). */
  'saved-open': 'favorites changed without a token',
  /** saved/save: saving answers success and saves nothing (no must-case can see it: the document has no way to
   * list favorites; the reference's saved flag and saved=true list show it, recipes/saved/listing). */
  'saved-noop': 'favorites not saved',
  /** saved/unsave: unsaving answers success and removes nothing (seen only as saved-noop is). */
  'unsave-noop': 'favorites not removed',
  /** categories/list: GET /api/categories answers 404. */
  'categories-404': 'no categories',
  /** list-query/q: q is ignored. */
  'q-ignored': 'q ignored',
  /** list-query/tag: tag is ignored. */
  'tag-ignored': 'tag ignored',
  /** list-query/category: category is ignored. */
  'category-ignored': 'category ignored',
  /** list-query/mine: mine is ignored. */
  'mine-ignored': 'mine ignored',
  /** list-query/page-limit: limit is ignored (pages of the default size). */
  'limit-ignored': 'limit ignored',
  /** list-query/page-limit: page is ignored (always the first page). */
  'page-repeats': 'page ignored',
} as const;
export type RecipesFault = keyof typeof RECIPES_FAULTS;
