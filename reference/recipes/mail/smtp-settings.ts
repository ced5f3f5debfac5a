// From the application settings to nodemailer's transport options (catalog recipes/settings/keys,
// recipes/email/smtp-empty-definition).
//
// - smtpHost empty (after trimming): SMTP is not configured, whatever the other keys hold.
// - smtpPort null: 587 (submission). 465 means implicit TLS; any other port starts in plain text and upgrades
//   with STARTTLS whenever the server offers it (certificates are verified).
// - smtpUser empty: no authentication (smtpPass is then ignored).
// - smtpFrom empty: smtpUser when it is an email address, else no-reply@<smtpHost>.
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { MailError } from './mail-error.ts';

export interface SmtpSettings {
  readonly smtpHost: string;
  readonly smtpPort: number | null;
  readonly smtpUser: string;
  readonly smtpPass: string;
  readonly smtpFrom: string;
}

export const EMPTY_SMTP_SETTINGS: SmtpSettings = Object.freeze({ smtpHost: '', smtpPort: null, smtpUser: '', smtpPass: '', smtpFrom: '' });
export const DEFAULT_SMTP_PORT = 587;
export const IMPLICIT_TLS_PORT = 465;
/** The bound on one send, from connecting to the server's last answer (catalog: a dead server must not hang). */
export const DEFAULT_SEND_TIMEOUT_MS = 10_000;

export interface TransportPlan {
  readonly from: string;
  readonly transport: SMTPTransport.Options;
}

/** Whether the settings name an SMTP server (smtpHost non-empty). */
export function smtpConfigured(settings: SmtpSettings): boolean {
  return settings.smtpHost.trim() !== '';
}

/** The transport options for configured settings; MailError invalid-settings for a port out of range. */
export function transportPlan(settings: SmtpSettings, timeoutMs: number): TransportPlan {
  const host = settings.smtpHost.trim();
  const port = settings.smtpPort ?? DEFAULT_SMTP_PORT;
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new MailError('invalid-settings', `smtpPort: ${JSON.stringify(settings.smtpPort)} is not an integer from 1 to 65535`);
  }
  const user = settings.smtpUser.trim();
  const from = settings.smtpFrom.trim() || (/^[^\s@]+@[^\s@]+$/.test(user) ? user : `no-reply@${host}`);
  return {
    from,
    transport: {
      host,
      port,
      secure: port === IMPLICIT_TLS_PORT,
      ...(user === '' ? {} : { auth: { user, pass: settings.smtpPass } }),
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      dnsTimeout: timeoutMs,
      // Nothing of the connection in the server's log (credentials travel in it).
      logger: false,
      debug: false,
    },
  };
}
