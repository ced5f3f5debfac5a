// The fully normalised shape of one site. Every optional feature is either `null` (unconfigured: it adds
// no middleware) or a complete options object, so the request path never checks for missing fields.
import type { CgiOptions } from '../features/cgi.ts';
import type { UploadOptions } from '../features/upload-options.ts';

export const DEFAULT_PORT = 8000;
export const DEFAULT_CONFIG_NAME = 'server-config.json';
export const DEFAULT_LOG_FORMAT = 'combined';
/** Logging when the `logging` key is absent. */
export const ABSENT_LOG_FORMAT = 'dev';
export const LOG_FORMATS = ['combined', 'common', 'dev', 'short', 'tiny'] as const;
export const DEFAULT_HEALTH_PATH = '/__health__';
export const DEFAULT_RATE_WINDOW_MS = 60_000;
export const DEFAULT_RATE_LIMIT = 5;
export const DEFAULT_RATE_MESSAGE = 'Too many requests, please try again later.';
export const DEFAULT_REALM = 'Restricted';
export const DEFAULT_REDIRECT_STATUS = 301;
export const REDIRECT_STATUSES = [301, 302, 307, 308] as const;
export const DEFAULT_UNHANDLED_STATUS = 404;
export const UNHANDLED_KEYS = ['html', 'json', 'xml', '*'] as const;

export type LogFormat = (typeof LOG_FORMATS)[number];
export type RedirectStatus = (typeof REDIRECT_STATUSES)[number];
export type UnhandledKey = (typeof UNHANDLED_KEYS)[number];

/** One static directory mounted at a URL path (`/` or `/docs`, never a trailing slash). */
export interface FolderMount {
  mount: string;
  dir: string;
  /** Key path in the config, for messages. */
  key: string;
}

export interface ProxyTarget {
  /** The target as configured, for messages. */
  href: string;
  url: URL;
}

/** One proxy prefix; `prefix` is `/` for the string form. Several targets rotate round-robin. */
export interface ProxyRule {
  prefix: string;
  targets: ProxyTarget[];
}

export interface RedirectRule {
  from: string;
  to: string;
  status: RedirectStatus;
}

export interface UnhandledEntry {
  status: number;
  /** Header name/value pairs, validated at startup. */
  headers: [string, string][];
  /** Body from `send` (string as is, object as JSON); null when only `file` (or nothing) is set. */
  send: { body: string; json: boolean } | null;
  /** Absolute path of `file`, used only when `send` is null. */
  file: string | null;
}

export type UnhandledOptions = Partial<Record<UnhandledKey, UnhandledEntry>>;

export interface SslOptions {
  /** Absolute paths. */
  key: string;
  cert: string;
  ca: string | null;
  /** Plain HTTP port that redirects to this HTTPS port. */
  redirect: number | null;
}

export interface LoggingOptions {
  format: LogFormat;
  /** Absolute path; when set, logs go to this file only. */
  file: string | null;
}

export interface CompressionOptions {
  level?: number;
  threshold?: number | string;
  [option: string]: unknown;
}

export interface ResponseTimeOptions {
  digits?: number;
  suffix?: boolean;
}

export interface RateLimitOptions {
  windowMs: number;
  limit: number;
  message: string | Record<string, unknown> | unknown[];
}

export interface BasicAuthOptions {
  users: Map<string, string>;
  challenge: boolean;
  realm: string;
}

export interface SiteConfig {
  /** Position in the config file. */
  index: number;
  /** Prefix of every key path of this site: `sites[1].` for the array form, empty for a single object. */
  keyPrefix: string;
  port: number;
  /** Lower-cased host to match; null is the catch-all (`*` or no `host`). */
  host: string | null;
  folders: FolderMount[] | null;
  proxy: ProxyRule[] | null;
  unhandled: UnhandledOptions | null;
  headers: [string, string][] | null;
  redirects: RedirectRule[] | null;
  ssl: SslOptions | null;
  logging: LoggingOptions | null;
  /** True only when configured and the mode is development. */
  hotReload: boolean;
  compression: CompressionOptions | null;
  helmet: Record<string, unknown> | null;
  cors: Record<string, unknown> | null;
  /** Absolute path of the icon file. */
  favicon: string | null;
  responseTime: ResponseTimeOptions | null;
  rateLimit: RateLimitOptions | null;
  basicAuth: BasicAuthOptions | null;
  healthCheck: { path: string } | null;
  cgi: CgiOptions[] | null;
  upload: UploadOptions[] | null;
}
