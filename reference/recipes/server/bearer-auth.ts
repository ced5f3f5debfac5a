// The bearer check of every route marked bearer (catalog recipes/auth/jwt-bearer, jwt-signed-with-secret,
// jwt-expiry, unauthenticated, inactive-user): the Authorization header's Bearer token is verified (signature,
// HS256 only, expiry) and then judged against the stored user, so a deleted or disabled user, or one whose
// token version moved on, is refused even with a well-signed token. Every refusal is a 401. Admin routes add
// the stored role (recipes/admin-users/admin-refusal-status): 403 for an authenticated non-admin.
import type { IncomingMessage } from 'node:http';
import { adminRefusal, sessionRefusal } from '../auth/index.ts';
import type { DeepReadonly, User } from '../store/index.ts';
import { ApiError, unauthenticated } from './api-error.ts';
import type { ServerContext } from './server-context.ts';

export const ADMIN_REQUIRED = 'Admin access required';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** The token of the Authorization header: undefined without one, null when the header is not a Bearer one. */
function bearerToken(req: IncomingMessage): string | null | undefined {
  const header = req.headers.authorization;
  if (header === undefined || header.trim() === '') return undefined;
  return BEARER.exec(header)?.[1] ?? null;
}

/** The user the request's bearer token opens a session for, or a 401 ApiError. */
export async function authenticate(ctx: ServerContext, req: IncomingMessage): Promise<DeepReadonly<User>> {
  const token = bearerToken(req);
  if (token === undefined) throw unauthenticated(false);
  if (token === null) throw unauthenticated(true);
  const claims = await ctx.jwt.verify(token); // AuthError token-* → 401 (api-error.ts)
  const user = ctx.store.data.users[claims.sub];
  const refusal = sessionRefusal(claims, user);
  if (refusal !== undefined) throw unauthenticated(true, refusal);
  return user!;
}

/** The user of an admin route: a 401 as for any bearer route, then a 403 unless the stored user is an active admin. */
export async function authenticateAdmin(ctx: ServerContext, req: IncomingMessage): Promise<DeepReadonly<User>> {
  const user = await authenticate(ctx, req);
  if (adminRefusal(user) !== undefined) throw new ApiError(403, ADMIN_REQUIRED);
  return user;
}
