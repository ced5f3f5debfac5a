// Password reset under /api/auth (catalog recipes/auth/forgot-password-*, reset-password-*, reset-token-lifetime,
// recipes/email/*):
//
//   POST /forgot-password  {email}            200 {message, resetUrl?}: the same message whether or not an account
//                          has the address; only for one is a reset token issued (replacing an earlier unused
//                          one) and its link mailed, or returned as resetUrl while smtpHost is empty (then valid
//                          15 minutes, not 1 hour, and logged for an admin); 502 when the mail fails (the token is
//                          then revoked); 429 past 3 requests for one address in 15 minutes (address-limit.ts)
//   POST /reset-password   {token, password}  200 {message: "Password updated"}; 400 for a missing, unknown, used
//                          or expired token, or a password outside the policy (checked first: it burns no token)
//
// A reset raises the user's token version: every bearer token issued before it is refused from then on; it is
// logged (address and role), so an operator can see a reset nobody asked for (catalog
// recipes/email/links-in-answer-exposure).
import type { Polka } from 'polka';
import { hashPassword } from '../auth/index.ts';
import { forgotEmailOf, passwordResetOf } from './account-fields.ts';
import { replacePassword } from './accounts.ts';
import { ApiError } from './api-error.ts';
import { readJsonObject, sendJson } from './json-io.ts';
import { AddressLimit } from './address-limit.ts';
import { ANSWERED_RESET_LIFETIME_MS, deliverLink, linksInAnswers } from './link-delivery.ts';
import { type ServerContext, userByEmail } from './server-context.ts';

export const FORGOT_PASSWORD_MESSAGE = 'If an account has this email address, a password reset link has been issued for it';
export const PASSWORD_UPDATED = 'Password updated';

export function mountPasswordReset(app: Polka, ctx: ServerContext): void {
  const perAddress = new AddressLimit();
  app.post('/api/auth/forgot-password', async (req, res) => {
    const email = forgotEmailOf(await readJsonObject(req, ctx.jsonLimit));
    // Before the lookup: unknown addresses are limited alike.
    perAddress.take(email);
    const user = userByEmail(ctx.store, email);
    let resetUrl: string | undefined;
    if (user !== undefined) {
      const answered = linksInAnswers(ctx);
      const lifetime = answered ? ANSWERED_RESET_LIFETIME_MS : ctx.oneTime.lifetimeMs('reset-password');
      const { token, record } = await ctx.oneTime.issue('reset-password', user.id, null, lifetime);
      try {
        resetUrl = await deliverLink(ctx, 'reset', user, ctx.links.reset(token), lifetime);
      } catch (err) {
        // A link nobody received should not stay usable.
        await ctx.oneTime.revoke('reset-password', record.id);
        throw err;
      }
      if (resetUrl !== undefined && user.role === 'admin') {
        ctx.log(`recipes: warning: a password reset link for ${user.email} (admin) was returned in an answer (SMTP is not configured)`);
      }
    }
    sendJson(res, 200, { message: FORGOT_PASSWORD_MESSAGE, ...(resetUrl === undefined ? {} : { resetUrl }) });
  });

  app.post('/api/auth/reset-password', async (req, res) => {
    const { token, password } = passwordResetOf(await readJsonObject(req, ctx.jsonLimit));
    const record = await ctx.oneTime.redeem('reset-password', token);
    const passwordHash = await hashPassword(password);
    if (!(await replacePassword(ctx, record.subject!, passwordHash))) throw new ApiError(400, 'Invalid or expired token');
    const user = Object.hasOwn(ctx.store.data.users, record.subject!) ? ctx.store.data.users[record.subject!] : undefined;
    if (user !== undefined) ctx.log(`recipes: password reset for ${user.email} (${user.role}) through a reset link`);
    sendJson(res, 200, { message: PASSWORD_UPDATED });
  });
}
