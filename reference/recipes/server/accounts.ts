// Creating and removing user records in the store: one update each, so the email's uniqueness (and, for setup,
// "no admin yet") is checked against the document the write applies to, not a stale read.
import { randomUUID } from 'node:crypto';
import type { Role, User } from '../store/index.ts';
import { ApiError } from './api-error.ts';
import type { NewAccount } from './account-fields.ts';
import type { ServerContext } from './server-context.ts';

export const EMAIL_TAKEN = 'Email address already registered';
export const SETUP_DONE = 'Setup already completed';

export interface AccountOptions {
  readonly role: Role;
  readonly emailVerified: boolean;
  /** Refuse (409, SETUP_DONE) when an admin exists by the time of the write. */
  readonly onlyIfNoAdmin?: boolean;
}

export function createUser(ctx: ServerContext, account: NewAccount, passwordHash: string, options: AccountOptions): Promise<User> {
  const now = new Date().toISOString();
  const user: User = {
    id: randomUUID(),
    email: account.email,
    name: account.name,
    passwordHash,
    role: options.role,
    isActive: true,
    emailVerified: options.emailVerified,
    tokenVersion: 0,
    createdAt: now,
    updatedAt: now,
  };
  return ctx.store.update((draft) => {
    const users = Object.values(draft.users);
    if (options.onlyIfNoAdmin && users.some((u) => u.role === 'admin')) throw new ApiError(409, SETUP_DONE);
    if (users.some((u) => u.email === user.email)) throw new ApiError(409, EMAIL_TAKEN);
    draft.users[user.id] = user;
    return user;
  });
}

/** Takes back an account whose registration did not complete (a mail that could not be sent). */
export async function removeUser(ctx: ServerContext, id: string): Promise<void> {
  await ctx.oneTime.forgetSubject(id);
  await ctx.store.update((draft) => {
    delete draft.users[id];
  });
}

/** Marks the user's email verified; false when the user no longer exists. */
export function markEmailVerified(ctx: ServerContext, id: string): Promise<boolean> {
  return ctx.store.update((draft) => {
    const user = draft.users[id];
    if (user === undefined) return false;
    if (!user.emailVerified) {
      user.emailVerified = true;
      user.updatedAt = new Date().toISOString();
    }
    return true;
  });
}

/**
 * Sets a new password hash and raises the token version, so every bearer token issued before is refused
 * (recipes/auth/jwt-claims); false when the user no longer exists.
 */
export function replacePassword(ctx: ServerContext, id: string, passwordHash: string): Promise<boolean> {
  return ctx.store.update((draft) => {
    const user = draft.users[id];
    if (user === undefined) return false;
    user.passwordHash = passwordHash;
    user.tokenVersion += 1;
    user.updatedAt = new Date().toISOString();
    return true;
  });
}
