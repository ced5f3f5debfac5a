// How a verification (or reset) link reaches the user (catalog recipes/email/smtp-empty-returns-links,
// smtp-configured-sends-mail, smtp-empty-definition, send-failure): with smtpHost set, by mail through the SMTP
// server, and the answer carries no link; with smtpHost empty, in the answer itself.
import type { LinkKind } from '../mail/index.ts';
import { composeMail } from '../mail/index.ts';
import type { ServerContext } from './server-context.ts';

export interface LinkRecipient {
  readonly email: string;
  readonly name: string;
}

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
