// The recipe manager's HTTP server: see reference/recipes/README.md, "Server".

// Public: what main.ts and the tests use.
export { startRecipesServer, type RecipesServer, type RecipesServerOptions } from './create-server.ts';
export { ConfigError, DEFAULT_PORT, type ServerOptions, serverOptionsFromEnv } from './server-options.ts';
export { ensureUploadsDir, startupFailure } from './startup.ts';
export { StoreTokenRepository } from './store-token-repository.ts';
export { ApiError, type ErrorBody, type FieldProblem } from './api-error.ts';

// Internal: limits and messages the tests check.
export { DEFAULT_JSON_LIMIT } from './json-io.ts';
export { INVALID_CREDENTIALS } from './auth-handler.ts';
export { ADMIN_REQUIRED } from './bearer-auth.ts';
export { FORGOT_PASSWORD_MESSAGE, PASSWORD_UPDATED } from './password-handler.ts';
export { SETTING_KEYS, SETTING_MAX_CHARS } from './settings-fields.ts';
