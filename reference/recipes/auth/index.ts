// The recipe manager's auth module: password hashing, bearer JWTs, one-time tokens and access decisions. It
// knows no HTTP and no store: the server maps AuthError codes and refusal reasons to statuses and backs
// TokenRepository with its store.

// Public
export {
  type AccountChange,
  type AccountState,
  type AdminRefusal,
  adminRefusal,
  isRole,
  type LoginRefusal,
  leavesNoActiveAdmin,
  loginRefusal,
  ROLES,
  type Role,
  type SessionRefusal,
  sessionRefusal,
} from './access.ts';
export { type AuthConfig, DEFAULT_JWT_EXPIRES_IN, loadAuthConfig, MIN_JWT_SECRET_BYTES, parseJwtExpiresIn } from './auth-config.ts';
export { AUTH_ERROR_CODES, AuthError, type AuthErrorCode, isTokenRefusal } from './auth-error.ts';
export { type JwtClaims, type JwtOptions, JwtTokens, type TokenSubject } from './jwt-tokens.ts';
export { hashToken, type IssuedToken, ONE_TIME_LIFETIMES_MS, OneTimeTokens, type OneTimeTokensOptions } from './one-time-tokens.ts';
export {
  ARGON2_OPTIONS,
  hashPassword,
  needsRehash,
  PASSWORD_MAX_CHARS,
  PASSWORD_MIN_CHARS,
  passwordProblem,
  verifyPassword,
} from './passwords.ts';
export {
  MemoryTokenRepository,
  ONE_TIME_KINDS,
  type OneTimeKind,
  type OneTimeTokenRecord,
  type TokenRepository,
} from './token-repository.ts';
