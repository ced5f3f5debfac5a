// The faults that live in the reference's own services (its ServerContext): the bearer token check and the
// mailer, changed in place where a real recipe manager would get them wrong.
import { decodeJwt } from 'jose';
import { AuthError, type JwtClaims } from '../../../reference/recipes/auth/index.ts';
import { createMailer, type Mailer } from '../../../reference/recipes/mail/index.ts';
import type { ServerContext } from '../../../reference/recipes/server/server-context.ts';
import type { RecipesFault } from './faulty-recipes-faults.ts';

/** The sender of every mail under mail-sender-ignored. */
export const FIXED_SENDER = 'no-reply@faulty-recipes.invalid';

/** The claims of a token, read without checking its signature or expiry (undefined when it has none). */
function unverifiedClaims(token: unknown): JwtClaims | undefined {
  try {
    const { sub, role, tv, iat, exp } = decodeJwt(String(token));
    if (typeof sub !== 'string' || (role !== 'admin' && role !== 'user') || typeof tv !== 'number' || typeof iat !== 'number' || typeof exp !== 'number') {
      return undefined;
    }
    return { sub, role, tv, iat, exp };
  } catch {
    return undefined;
  }
}

export function injectContextFaults(ctx: ServerContext, on: (fault: RecipesFault) => boolean): void {
  const verify = ctx.jwt.verify.bind(ctx.jwt);
  ctx.jwt.verify = async (token) => {
    try {
      return await verify(token);
    } catch (err) {
      const code = err instanceof AuthError ? err.code : undefined;
      const claims = unverifiedClaims(token);
      // token-any-secret: the claims of a token whose signature does not verify are taken as they are (its
      // expiry still counts); expiry-not-checked: an expired token's claims are taken.
      if (on('token-any-secret') && code === 'token-signature' && claims && claims.exp * 1000 > Date.now()) return claims;
      if (on('expiry-not-checked') && code === 'token-expired' && claims) return claims;
      throw err;
    }
  };

  const mailer = ctx.mailer.bind(ctx);
  let fixedSender: { key: string; mailer: Mailer } | undefined;
  ctx.mailer = () => {
    const real = mailer();
    if (!real.configured) return real;
    // no-mail: configured SMTP, and the mail is "sent" nowhere.
    if (on('no-mail')) return { configured: true, from: real.from, send: async () => ({ messageId: '<none@faulty>', accepted: [] }) };
    if (on('mail-sender-ignored')) {
      const { smtpHost, smtpPort, smtpUser, smtpPass } = ctx.store.data.settings;
      const key = JSON.stringify([smtpHost, smtpPort, smtpUser, smtpPass]);
      if (fixedSender?.key !== key) fixedSender = { key, mailer: createMailer({ smtpHost, smtpPort, smtpUser, smtpPass, smtpFrom: FIXED_SENDER }) };
      return fixedSender.mailer;
    }
    return real;
  };
}
