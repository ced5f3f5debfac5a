// The account endpoints under /api/auth of this slice (catalog recipes/auth/*, recipes/email/*):
//
//   POST /register      201 {user, message, verificationUrl?}   403 before setup or while registration is closed
//                       without an invite; 400 for a bad invite; 409 for a taken email; 502 when the mail fails
//                       (the account is then not kept)
//   GET  /verify-email  ?token=…  200 {message: "Email verified"}; 400 for a missing, unknown, used or expired token
//   POST /login         200 {token, user}; 401 "Invalid email or password"; 403 disabled or not verified
//   GET  /me            bearer; 200 <user>
import type { Polka } from 'polka';
import { hashPassword, loginRefusal, verifyPassword } from '../auth/index.ts';
import { credentialsOf, newAccountOf, optionalString } from './account-fields.ts';
import { createUser, markEmailVerified, removeUser } from './accounts.ts';
import { ApiError } from './api-error.ts';
import { authenticate } from './bearer-auth.ts';
import { readJsonObject, sendJson } from './json-io.ts';
import { deliverLink } from './link-delivery.ts';
import { adminExists, type ServerContext, userByEmail, userView } from './server-context.ts';

export const INVALID_CREDENTIALS = 'Invalid email or password';
const LOGIN_REFUSALS = { 'account-disabled': 'Account is disabled', 'email-not-verified': 'Email address not verified' } as const;

export function mountAuth(app: Polka, ctx: ServerContext): void {
  app.post('/api/auth/register', async (req, res) => {
    const body = await readJsonObject(req, ctx.jsonLimit);
    const account = newAccountOf(body);
    const inviteToken = optionalString(body, 'inviteToken');
    if (!adminExists(ctx.store)) throw new ApiError(403, 'Setup required');
    // A supplied invite must be good whatever allowRegistration says (recipes/auth/register-gate).
    if (inviteToken !== undefined) await ctx.oneTime.check('invite', inviteToken);
    else if (!ctx.store.data.settings.allowRegistration) throw new ApiError(403, 'Registration is closed');
    const passwordHash = await hashPassword(account.password);
    const user = await createUser(ctx, account, passwordHash, { role: 'user', emailVerified: false });
    let verificationUrl: string | undefined;
    try {
      // Redeemed only now: a registration refused above (taken email) leaves the invite usable.
      if (inviteToken !== undefined) await ctx.oneTime.redeem('invite', inviteToken);
      const { token } = await ctx.oneTime.issue('verify-email', user.id);
      const url = ctx.links.verification(token);
      verificationUrl = await deliverLink(ctx, 'verification', user, url, ctx.oneTime.lifetimeMs('verify-email'));
    } catch (err) {
      await removeUser(ctx, user.id);
      throw err;
    }
    const message =
      verificationUrl === undefined
        ? 'Account created; follow the link sent by email to verify the address'
        : 'Account created; follow verificationUrl to verify the address';
    sendJson(res, 201, { user: userView(user), message, ...(verificationUrl === undefined ? {} : { verificationUrl }) });
  });

  app.get('/api/auth/verify-email', async (req, res) => {
    const record = await ctx.oneTime.redeem('verify-email', req.query['token']);
    if (!(await markEmailVerified(ctx, record.subject!))) throw new ApiError(400, 'Invalid or expired token');
    sendJson(res, 200, { message: 'Email verified' });
  });

  app.post('/api/auth/login', async (req, res) => {
    const { email, password } = credentialsOf(await readJsonObject(req, ctx.jsonLimit));
    const user = userByEmail(ctx.store, email);
    // Unknown email and wrong password: same answer, same time (verifyPassword hashes a dummy).
    if (!(await verifyPassword(user?.passwordHash, password)) || user === undefined) {
      throw new ApiError(401, INVALID_CREDENTIALS);
    }
    const refusal = loginRefusal(user);
    if (refusal !== undefined) throw new ApiError(403, LOGIN_REFUSALS[refusal]);
    sendJson(res, 200, { token: await ctx.jwt.issue(user), user: userView(user) });
  });

  app.get('/api/auth/me', async (req, res) => {
    sendJson(res, 200, userView(await authenticate(ctx, req)));
  });
}
