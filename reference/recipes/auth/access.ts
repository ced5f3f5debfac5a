// Roles and the refusals of login, bearer sessions and admin routes (catalog recipes/auth/login-needs-verified-
// email, inactive-user, jwt-claims, recipes/admin-users/*). Refusals are returned, not thrown: they are
// ordinary answers. Every decision reads the stored user, never the token's role claim, so a role change or a
// deactivation takes effect on the user's next request.
import type { JwtClaims } from './jwt-tokens.ts';

export const ROLES = ['admin', 'user'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return value === 'admin' || value === 'user';
}

/** What the auth module needs of a stored user. */
export interface AccountState {
  readonly id: string;
  readonly role: Role;
  readonly isActive: boolean;
  readonly emailVerified: boolean;
  /** Raised by a password reset: tokens carrying an older version are refused. Starts at 0. */
  readonly tokenVersion: number;
}

/**
 * Why a login with the right password is refused, or undefined when it may proceed. A disabled account is
 * reported before an unverified email: the admin's decision is the one the user cannot fix alone. The server
 * answers 403 to both (catalog login-unverified-status, inactive-user).
 */
export type LoginRefusal = 'account-disabled' | 'email-not-verified';
export function loginRefusal(user: AccountState): LoginRefusal | undefined {
  if (!user.isActive) return 'account-disabled';
  if (!user.emailVerified) return 'email-not-verified';
  return undefined;
}

/**
 * Why a verified bearer token does not open a session, or undefined when it does: its user was deleted, is
 * disabled (until reactivated), or has reset the password since the token was issued. The server answers 401.
 */
export type SessionRefusal = 'unknown-user' | 'account-disabled' | 'token-revoked';
export function sessionRefusal(claims: JwtClaims, user: AccountState | undefined): SessionRefusal | undefined {
  if (user === undefined || user.id !== claims.sub) return 'unknown-user';
  if (!user.isActive) return 'account-disabled';
  if (user.tokenVersion !== claims.tv) return 'token-revoked';
  return undefined;
}

/** Why an authenticated user may not use an admin route, or undefined (the server answers 403). */
export type AdminRefusal = 'admin-required';
export function adminRefusal(user: AccountState): AdminRefusal | undefined {
  return user.role === 'admin' && user.isActive ? undefined : 'admin-required';
}

/** A change an admin asks for on a user: new role or status, or deletion. */
export interface AccountChange {
  readonly id: string;
  readonly role?: Role;
  readonly isActive?: boolean;
  readonly delete?: boolean;
}

/**
 * Whether applying `change` to `users` would leave no active admin (catalog admin-users/self-protection: such a
 * change answers 409 and changes nothing). Only a change that removes an active admin can do it.
 */
export function leavesNoActiveAdmin(users: Iterable<AccountState>, change: AccountChange): boolean {
  let others = 0;
  let target: AccountState | undefined;
  for (const user of users) {
    if (user.id === change.id) target = user;
    else if (user.role === 'admin' && user.isActive) others++;
  }
  if (target === undefined || !(target.role === 'admin' && target.isActive)) return false;
  const stays = !change.delete && (change.role ?? target.role) === 'admin' && (change.isActive ?? target.isActive);
  return !stays && others === 0;
}
