// The three mails: subject, plain text and a simple HTML alternative, each carrying its link and how long it
// works. User-supplied text (the name) is escaped in the HTML; the subjects are fixed.
import type { LinkKind } from './mail-links.ts';

export const APP_NAME = 'Recipes';

export interface OutgoingMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

export interface MailContent {
  /** Recipient address. */
  readonly to: string;
  /** Recipient's display name, when known (not for an invite to a new address). */
  readonly name?: string;
  /** The link the mail is about (mailLinks). */
  readonly url: string;
  /** How long the link works, in milliseconds (the token's lifetime). */
  readonly validForMs: number;
}

const TEMPLATES: Readonly<Record<LinkKind, { subject: string; intro: string; action: string; ignore: string }>> = {
  verification: {
    subject: `Confirm your email address for ${APP_NAME}`,
    intro: `Please confirm the email address of your new ${APP_NAME} account.`,
    action: 'Confirm my email address',
    ignore: 'If you did not create an account, you can ignore this email.',
  },
  reset: {
    subject: `Reset your ${APP_NAME} password`,
    intro: `Someone asked to reset the password of your ${APP_NAME} account.`,
    action: 'Choose a new password',
    ignore: 'If you did not ask for this, you can ignore this email: your password stays as it is.',
  },
  invite: {
    subject: `You are invited to ${APP_NAME}`,
    intro: `You have been invited to create an account on ${APP_NAME}.`,
    action: 'Create my account',
    ignore: 'If you do not want an account, you can ignore this email.',
  },
};

/** The mail of `kind` for `content`. */
export function composeMail(kind: LinkKind, content: MailContent): OutgoingMail {
  const template = TEMPLATES[kind];
  const greeting = content.name ? `Hello ${content.name},` : 'Hello,';
  const validity = `The link works for ${formatDuration(content.validForMs)} and only once.`;
  const text = [greeting, '', template.intro, `${template.action}:`, content.url, '', validity, template.ignore, ''].join('\n');
  const html = [
    '<!doctype html>',
    '<html><body>',
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(template.intro)}</p>`,
    `<p><a href="${escapeHtml(content.url)}">${escapeHtml(template.action)}</a></p>`,
    `<p>Or open this address: ${escapeHtml(content.url)}</p>`,
    `<p>${escapeHtml(validity)} ${escapeHtml(template.ignore)}</p>`,
    '</body></html>',
    '',
  ].join('\n');
  return { to: content.to, subject: template.subject, text, html };
}

/** 86400000 → "24 hours", 3600000 → "1 hour", 604800000 → "7 days", 90000 → "2 minutes" (rounded up). */
export function formatDuration(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  const [amount, unit] =
    minutes % (24 * 60) === 0 && minutes > 24 * 60
      ? [minutes / (24 * 60), 'day']
      : minutes % 60 === 0
        ? [minutes / 60, 'hour']
        : [minutes, 'minute'];
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`;
}

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}
