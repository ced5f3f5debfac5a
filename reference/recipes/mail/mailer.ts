// The mailer of one set of SMTP settings: rebuilt by the server whenever the settings change. Not configured
// (smtpHost empty) it sends nothing: `configured` is false and send() refuses with MailError not-configured,
// which is the server's cue to hand the link back in its answer. Configured, each send opens a connection,
// delivers and closes it, within `timeoutMs` in all (connect, greeting, every command, the whole exchange:
// nodemailer's per-stage timeouts plus an AbortSignal on the send), so a dead server costs at most that long.
import { createTransport } from 'nodemailer';
import { MailError, mailErrorOf } from './mail-error.ts';
import type { OutgoingMail } from './mail-messages.ts';
import { DEFAULT_SEND_TIMEOUT_MS, type SmtpSettings, smtpConfigured, transportPlan } from './smtp-settings.ts';

export interface MailerOptions {
  /** Bound on one send, milliseconds; default 10 s. */
  readonly timeoutMs?: number;
}

export interface SentMail {
  readonly messageId: string;
  /** Recipients the server accepted. */
  readonly accepted: readonly string[];
}

export interface Mailer {
  readonly configured: boolean;
  /** The sender address (undefined when not configured). */
  readonly from: string | undefined;
  /** Delivers `mail` to the SMTP server; a MailError when it cannot. */
  send(mail: OutgoingMail): Promise<SentMail>;
}

/** A mailer for `settings`; MailError invalid-settings at once when they are configured but unusable. */
export function createMailer(settings: SmtpSettings, options: MailerOptions = {}): Mailer {
  const timeoutMs = options.timeoutMs ?? DEFAULT_SEND_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) {
    throw new MailError('invalid-settings', `timeoutMs: ${timeoutMs} is not a positive integer`);
  }
  if (!smtpConfigured(settings)) {
    return {
      configured: false,
      from: undefined,
      send: async () => {
        throw new MailError('not-configured', 'SMTP is not configured (smtpHost is empty)');
      },
    };
  }
  const plan = transportPlan(settings, timeoutMs);
  const transport = createTransport(plan.transport);
  return {
    configured: true,
    from: plan.from,
    async send(mail) {
      try {
        const info = await transport.sendMail({
          from: plan.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          signal: AbortSignal.timeout(timeoutMs),
        });
        return { messageId: info.messageId, accepted: info.accepted.map(String) };
      } catch (err) {
        throw mailErrorOf(err);
      }
    },
  };
}
