// The recipe manager's mail module: links built on APP_URL, the verification / reset / invite mails, and a
// mailer over the SMTP settings (nodemailer). It knows no HTTP and no store: the server reads the settings,
// rebuilds the mailer when they change, returns the link itself when `configured` is false, and maps MailError
// codes to statuses.

// Public
export { createMailer, type Mailer, type MailerOptions, type SentMail } from './mailer.ts';
export { MAIL_ERROR_CODES, MailError, type MailErrorCode } from './mail-error.ts';
export { LINK_PATHS, type LinkKind, type MailLinks, mailLinks, resolveAppUrl } from './mail-links.ts';
export { APP_NAME, composeMail, type MailContent, type OutgoingMail } from './mail-messages.ts';
export {
  DEFAULT_SEND_TIMEOUT_MS,
  DEFAULT_SMTP_PORT,
  EMPTY_SMTP_SETTINGS,
  type SmtpSettings,
  smtpConfigured,
} from './smtp-settings.ts';
