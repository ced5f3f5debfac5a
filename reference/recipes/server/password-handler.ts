// Password reset under /api/auth (catalog recipes/auth/forgot-password-*, reset-password-*, reset-token-lifetime,
// recipes/email/*):
//
//   POST /forgot-password  {email}            200 {message, resetUrl?}: the same message whether or not an account
//                          has the address; only for one is a reset token issued (replacing an earlier unused
//                          one) and its link mailed, or returned as resetUrl while smtpHost is empty; 502 when
//                          the mail fails (the token is then revoked)
//   POST /reset-password   {token, password}  200 {message: "Password updated"}; 400 for a missing, unknown, used
//                          or expired token, or a password outside the policy (checked first: it burns no token)
//
// A reset raises the user's token version: every bearer token issued before it is refused from then on.
import type { Polka } from 'polka';
import { hashPassword } from '../auth/index.ts';
import { forgotEmailOf, passwordResetOf } from './account-fields.ts';
import { replacePassword } from './accounts.ts';
import { ApiError } from './api-error.ts';
import { readJsonObject, sendJson } from './json-io.ts';
import { deliverLink } from './link-delivery.ts';
import { type ServerContext, userByEmail } from './server-context.ts';

export const FORGOT_PASSWORD_MESSAGE = 'If an account has this email address, a password reset link has been issued for it';
export const PASSWORD_UPDATED = 'Password updated';

export function mountPasswordReset(app: Polka, ctx: ServerContext): void {
  app.post('/api/auth/forgot-password', async (req, res) => {
    const email = forgotEmailOf(await readJsonObject(req, ctx.jsonLimit));
    const user = userByEmail(ctx.store, email);
    let resetUrl: string | undefined;
    if (user !== undefined) {
      const { token, record } = await ctx.oneTime.issue('reset-password', user.id);
      try {
        resetUrl = await deliverLink(ctx, 'reset', user, ctx.links.reset(token), ctx.oneTime.lifetimeMs('reset-password'));
      } catch (err) {
        // A link nobody received should not stay usable.
        await ctx.oneTime.revoke('reset-password', record.id);
        throw err;
      }
    }
    sendJson(res, 200, { message: FORGOT_PASSWORD_MESSAGE, ...(resetUrl === undefined ? {} : { resetUrl }) });
  });

  app.post('/api/auth/reset-password', async (req, res) => {
    const { token, password } = passwordResetOf(await readJsonObject(req, ctx.jsonLimit));
    const record = await ctx.oneTime.redeem('reset-password', token);
    const passwordHash = await hashPassword(password);
    if (!(await replacePassword(ctx, record.subject!, passwordHash))) throw new ApiError(400, 'Invalid or expired token');
    sendJson(res, 200, { message: PASSWORD_UPDATED });
  });
}
