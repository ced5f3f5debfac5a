// How a verification (or reset) link reaches the user (catalog recipes/email/smtp-empty-returns-links,
// smtp-configured-sends-mail, smtp-empty-definition, send-failure, links-in-answer-exposure): with smtpHost set, by
// mail through the SMTP server, and the answer carries no link; with smtpHost empty, in the answer itself. The
// document requires the latter, which lets anyone who knows an account's address reset its password: the server
// says so at start-up (and when SMTP is cleared), answered reset links live 15 minutes, and resets are logged.
import type { LinkKind } from '../mail/index.ts';
import { composeMail } from '../mail/index.ts';
import type { ServerContext } from './server-context.ts';

/** A reset link returned in an answer is used at once; a short life limits one left in a log or a history. */
export const ANSWERED_RESET_LIFETIME_MS = 15 * 60_000;

/** The one line logged at start-up (and when the SMTP settings are cleared) while links go in the answers. */
export const LINKS_IN_ANSWERS_WARNING =
  'recipes: warning: SMTP is not configured (smtpHost is empty), so verification and password reset links are ' +
  "returned in the API answers: anyone who knows an account's email address, the admin's included, can set its " +
  'password. Set smtpHost, smtpPort, smtpUser, smtpPass and smtpFrom (PATCH /api/admin/settings) to mail them instead';

export interface LinkRecipient {
  readonly email: string;
  readonly name: string;
}

/** Whether links are returned in the answers (SMTP not configured) rather than mailed. */
export const linksInAnswers = (ctx: ServerContext): boolean => !ctx.mailer().configured;

/**
 * Sends the link, or returns it when SMTP is not configured (the caller puts it in the answer). A send that
 * fails throws the MailError (502).
 */
export async function deliverLink(
  ctx: ServerContext,
  kind: LinkKind,
  to: LinkRecipient,
  url: string,
  validForMs: number,
): Promise<string | undefined> {
  const mailer = ctx.mailer();
  if (!mailer.configured) return url;
  await mailer.send(composeMail(kind, { to: to.email, name: to.name, url, validForMs }));
  return undefined;
}
