// Every failure of the auth module is an AuthError with a stable code. The module knows no HTTP: the server maps
// the codes to statuses (intended mapping in the comments). Refusals that are answers rather than faults — a
// login on a disabled account, a token of a deleted user — are returned as values by access.ts, not thrown.

export const AUTH_ERROR_CODES = [
  'config', //           JWT_SECRET / JWT_EXPIRES_IN unusable: the server refuses to start
  'password-policy', //  a password outside the policy (400, naming the field and the bound)
  'token-malformed', //  not a compact JWS of our shape: wrong type, too long, bad segments, bad JSON (401)
  'token-signature', //  signature does not match: tampered, or signed with another secret (401)
  'token-algorithm', //  alg other than HS256, including "none" (401)
  'token-expired', //    exp reached (401)
  'token-claims', //     signature good but sub/role/tv/iat/exp missing or of the wrong type (401)
  'one-time-invalid', // verification/reset/invite token unknown, already used, revoked or of another kind (400)
  'one-time-expired', // that token existed but its lifetime is over (400)
] as const;
export type AuthErrorCode = (typeof AUTH_ERROR_CODES)[number];

export class AuthError extends Error {
  override name = 'AuthError';
  readonly code: AuthErrorCode;
  constructor(code: AuthErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** Whether `err` is an AuthError that refuses a bearer token (the server's 401). */
export function isTokenRefusal(err: unknown): err is AuthError {
  if (!(err instanceof AuthError)) return false;
  switch (err.code) {
    case 'token-malformed':
    case 'token-signature':
    case 'token-algorithm':
    case 'token-expired':
    case 'token-claims':
      return true;
    case 'config':
    case 'password-policy':
    case 'one-time-invalid':
    case 'one-time-expired':
      return false;
  }
}
