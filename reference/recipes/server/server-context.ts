// What the route handlers share, built once at start-up: the store, the token services, the link builders, the
// mailer of the current SMTP settings, the body limit and the log.
import { type AuthConfig, JwtTokens, OneTimeTokens } from '../auth/index.ts';
import { createMailer, type Mailer, type MailLinks, mailLinks, type SmtpSettings } from '../mail/index.ts';
import type { DeepReadonly, RecipesStore, Settings, User } from '../store/index.ts';
import { DEFAULT_QUOTA, type QuotaLimits } from './recipe-quota.ts';
import { StoreTokenRepository } from './store-token-repository.ts';

export type Log = (message: string) => void;

export interface ServerContext {
  readonly store: RecipesStore;
  readonly jwt: JwtTokens;
  readonly oneTime: OneTimeTokens;
  readonly links: MailLinks;
  /** Largest JSON body, bytes. */
  readonly jsonLimit: number;
  /** The folder of uploaded photo files (absolute); record fields `photo` name files in it. */
  readonly uploadsDir: string;
  readonly log: Log;
  /** Whether the import may fetch from loopback, private, link-local and unspecified addresses (RECIPES_IMPORT_PRIVATE=allow). */
  readonly importPrivate: boolean;
  /** What one user may keep (RECIPES_QUOTA_RECIPES, RECIPES_QUOTA_BYTES). */
  readonly quota: QuotaLimits;
  /** The mailer of the stored SMTP settings, rebuilt when they change. */
  mailer(): Mailer;
}

export interface ContextOptions {
  readonly store: RecipesStore;
  readonly auth: AuthConfig;
  /** APP_URL, resolved (mail/resolveAppUrl); asked at the first link, once the listening port is known. */
  readonly appUrl: () => string;
  readonly jsonLimit: number;
  /** The uploads folder, absolute. */
  readonly uploadsDir: string;
  readonly log: Log;
  /** Bound on one mail send, milliseconds (mail module default when absent). */
  readonly mailTimeoutMs?: number;
  /** Default: false. */
  readonly importPrivate?: boolean | undefined;
  /** Default: DEFAULT_QUOTA. */
  readonly quota?: QuotaLimits | undefined;
}

function smtpOf(settings: DeepReadonly<Settings>): SmtpSettings {
  const { smtpHost, smtpPort, smtpUser, smtpPass, smtpFrom } = settings;
  return { smtpHost, smtpPort, smtpUser, smtpPass, smtpFrom };
}

export function createContext(options: ContextOptions): ServerContext {
  const { store } = options;
  let cached: { key: string; mailer: Mailer } | undefined;
  let links: MailLinks | undefined;
  return {
    store,
    jwt: new JwtTokens(options.auth),
    oneTime: new OneTimeTokens(new StoreTokenRepository(store)),
    get links() {
      links ??= mailLinks(options.appUrl());
      return links;
    },
    jsonLimit: options.jsonLimit,
    uploadsDir: options.uploadsDir,
    log: options.log,
    importPrivate: options.importPrivate ?? false,
    quota: options.quota ?? DEFAULT_QUOTA,
    mailer() {
      const smtp = smtpOf(store.data.settings);
      const key = JSON.stringify(smtp);
      if (cached?.key !== key) {
        const timeout = options.mailTimeoutMs === undefined ? {} : { timeoutMs: options.mailTimeoutMs };
        cached = { key, mailer: createMailer(smtp, timeout) };
      }
      return cached.mailer;
    },
  };
}

/** The user by (normalised) email, or undefined. A scan: users are few next to recipes. */
export function userByEmail(store: RecipesStore, email: string): DeepReadonly<User> | undefined {
  for (const user of Object.values(store.data.users)) if (user.email === email) return user;
  return undefined;
}

export function adminExists(store: RecipesStore): boolean {
  return Object.values(store.data.users).some((user) => user.role === 'admin');
}

/** A user as every answer shows it (recipes/auth/user-representation): no hash, no tokens. */
export function userView(user: DeepReadonly<User>) {
  const { id, email, name, role, isActive, emailVerified, createdAt } = user;
  return { id, email, name, role, isActive, emailVerified, createdAt };
}
