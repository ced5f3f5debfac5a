// Every failure of the mail module is a MailError with a stable code; nodemailer's error codes are mapped here
// and nowhere else. The module knows no HTTP: the server decides the statuses (catalog recipes/email/send-failure
// has every send failure answer 502; not-configured is not a failure but the cue to return the link instead).

export const MAIL_ERROR_CODES = [
  'not-configured', //  smtpHost is empty: nothing is sent, the links go back in the API response
  'invalid-settings', // settings or APP_URL unusable (port out of range, not an http(s) URL…)
  'auth', //             the SMTP server refused the credentials, or wants some and none are set
  'timeout', //          connect, greeting, a command or the whole send took longer than the bound
  'connection', //       refused, reset, closed, DNS failure
  'tls', //              TLS handshake or certificate failed
  'rejected', //         the server refused the sender, a recipient or the message
  'protocol', //         the server answered something that is not SMTP, or anything else went wrong
] as const;
export type MailErrorCode = (typeof MAIL_ERROR_CODES)[number];

export class MailError extends Error {
  override name = 'MailError';
  readonly code: MailErrorCode;
  constructor(code: MailErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** The MailError for an error nodemailer raised (its `code` is one of nodemailer's ERROR_CODES). */
export function mailErrorOf(err: unknown): MailError {
  if (err instanceof MailError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  const message = err instanceof Error ? err.message : String(err);
  return new MailError(codeOf(typeof code === 'string' ? code : '', err), message, { cause: err });
}

function codeOf(code: string, err: unknown): MailErrorCode {
  switch (code) {
    case 'EAUTH': // credentials refused
    case 'ENOAUTH': // the server wants credentials and none are set
      return 'auth';
    case 'ETIMEDOUT': // nodemailer's connection, greeting or socket timeout
    case 'EABORT': // our own deadline (the send's AbortSignal)
      return 'timeout';
    case 'ETLS':
      return 'tls';
    case 'ESOCKET': // a socket error: a TLS one when its cause says so (an expired certificate, for one)
      return isTlsFailure(err) ? 'tls' : 'connection';
    case 'ECONNECTION':
    case 'EDNS':
    case 'EPROXY':
      return 'connection';
    case 'EENVELOPE': // sender or recipient refused
    case 'EMESSAGE': // the message refused after DATA
    case 'EMAXRECIPIENTS':
      return 'rejected';
    case 'ECONFIG':
      return 'invalid-settings';
    default: // EPROTOCOL and anything unforeseen
      return 'protocol';
  }
}

function isTlsFailure(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && /^(CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)/.test(e.code)) return true;
  }
  return err instanceof Error && /certificate|ssl|tls/i.test(err.message);
}
