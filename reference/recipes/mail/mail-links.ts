// Links in mails, and in API answers when SMTP is not configured (catalog recipes/config/app-url-in-links,
// app-url-default, recipes/email/link-fields, recipes/invites/representation), built on APP_URL:
//
//   verification  APP_URL/api/auth/verify-email?token=<token>   the API endpoint itself: a click verifies
//   reset         APP_URL/reset-password?token=<token>           a page of the front end, which posts the token
//   invite        APP_URL/register?inviteToken=<token>           a page of the front end, which registers with it
//
// APP_URL is an absolute http(s) URL, possibly with a path (https://example.org/recipes) but without query,
// fragment or credentials; trailing slashes are removed. Unset or empty, it is http://localhost:<PORT>.
import { MailError } from './mail-error.ts';

export const LINK_PATHS = Object.freeze({
  verification: { path: '/api/auth/verify-email', param: 'token' },
  reset: { path: '/reset-password', param: 'token' },
  invite: { path: '/register', param: 'inviteToken' },
});
export type LinkKind = keyof typeof LINK_PATHS;

/** The base of every link: APP_URL normalised, or http://localhost:<port> when unset; MailError otherwise. */
export function resolveAppUrl(value: string | undefined, port: number): string {
  if (value === undefined || value.trim() === '') return `http://localhost:${port}`;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new MailError('invalid-settings', `APP_URL: ${JSON.stringify(value)} is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new MailError('invalid-settings', `APP_URL: ${JSON.stringify(value)} must be an http: or https: URL`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new MailError('invalid-settings', `APP_URL: ${JSON.stringify(value)} must have no query, fragment or credentials`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export type MailLinks = Readonly<Record<LinkKind, (token: string) => string>>;

/** The link builders for a resolved APP_URL (see resolveAppUrl). */
export function mailLinks(appUrl: string): MailLinks {
  const build = (kind: LinkKind) => {
    const { path, param } = LINK_PATHS[kind];
    const prefix = `${appUrl}${path}?${param}=`;
    return (token: string) => prefix + encodeURIComponent(token);
  };
  return { verification: build('verification'), reset: build('reset'), invite: build('invite') };
}
