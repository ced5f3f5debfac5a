// The site's serving sections (proxy, static, middleware, logging, compression, upload; shape-checked by the
// schema) into its SiteServingConfig: defaults filled in, paths made absolute against the config's folder,
// regular expressions compiled (a bad one fails naming its key), `true` turned into the defaults, `false`
// into nothing.
import { resolve } from 'node:path';
import { ConfigError } from './config-error.ts';
import type { MiddlewareStep, SiteServingConfig } from './gateway-config.ts';

type RawRegexStep = { pattern: string; replacement: string };
type RawStep =
  | { stripPrefix: string }
  | { addPrefix: string }
  | { replacePathRegex: RawRegexStep }
  | { redirectRegex: RawRegexStep & { status?: 301 | 302 | 307 | 308 } };

export interface RawServingSections {
  proxy?: false | { preserveHost?: boolean; forwardedHeaders?: boolean };
  static?: false | { root: string; path?: string; index?: string | false; maxAgeSecs?: number };
  middleware?: RawStep[];
  logging?: boolean | { format?: 'combined' | 'common' | 'short' | 'tiny'; file?: string };
  compression?: boolean | { minBytes?: number };
  upload?: false | { path: string; dir: string; maxBytes?: number; maxFiles?: number };
}

/** The defaults of these sections (the schema's `default` values say the same; a test holds them equal). */
export const SERVING_DEFAULTS = Object.freeze({
  preserveHost: true,
  forwardedHeaders: true,
  staticPath: '/',
  staticIndex: 'index.html',
  staticMaxAgeSecs: 0,
  redirectStatus: 302,
  logFormat: 'combined',
  compressionMinBytes: 1024,
  uploadMaxBytes: 10 * 1024 * 1024,
  uploadMaxFiles: 10,
});

type At = (...keys: (string | number)[]) => string;

export function normalizeServing(raw: RawServingSections, baseDir: string, at: At): SiteServingConfig | undefined {
  const d = SERVING_DEFAULTS;
  const proxy = raw.proxy || {};
  const serving: SiteServingConfig = {
    proxy: { preserveHost: proxy.preserveHost ?? d.preserveHost, forwardedHeaders: proxy.forwardedHeaders ?? d.forwardedHeaders },
    static: raw.static
      ? {
          root: resolve(baseDir, raw.static.root),
          path: raw.static.path ?? d.staticPath,
          index: raw.static.index ?? d.staticIndex,
          maxAgeSecs: raw.static.maxAgeSecs ?? d.staticMaxAgeSecs,
        }
      : undefined,
    middleware: (raw.middleware ?? []).map((step, i) => middlewareStep(step, (...keys) => at('middleware', i, ...keys))),
    logging: raw.logging
      ? {
          format: (raw.logging === true ? undefined : raw.logging.format) ?? (d.logFormat as 'combined'),
          file: raw.logging === true || raw.logging.file === undefined ? undefined : resolve(baseDir, raw.logging.file),
        }
      : undefined,
    compression: raw.compression ? { minBytes: (raw.compression === true ? undefined : raw.compression.minBytes) ?? d.compressionMinBytes } : undefined,
    upload: raw.upload
      ? {
          path: raw.upload.path,
          dir: resolve(baseDir, raw.upload.dir),
          maxBytes: raw.upload.maxBytes ?? d.uploadMaxBytes,
          maxFiles: raw.upload.maxFiles ?? d.uploadMaxFiles,
        }
      : undefined,
  };
  const plainProxy = serving.proxy.preserveHost === d.preserveHost && serving.proxy.forwardedHeaders === d.forwardedHeaders;
  const { proxy: _, middleware, ...rest } = serving;
  return plainProxy && middleware.length === 0 && Object.values(rest).every((v) => v === undefined) ? undefined : serving;
}

function middlewareStep(raw: RawStep, at: At): MiddlewareStep {
  if ('stripPrefix' in raw) return { kind: 'stripPrefix', prefix: raw.stripPrefix };
  if ('addPrefix' in raw) return { kind: 'addPrefix', prefix: raw.addPrefix };
  if ('replacePathRegex' in raw) {
    const { pattern, replacement } = raw.replacePathRegex;
    return { kind: 'replacePathRegex', pattern: compile(pattern, at('replacePathRegex', 'pattern')), replacement };
  }
  const { pattern, replacement, status } = raw.redirectRegex;
  return {
    kind: 'redirectRegex',
    pattern: compile(pattern, at('redirectRegex', 'pattern')),
    replacement,
    status: status ?? SERVING_DEFAULTS.redirectStatus,
  };
}

function compile(pattern: string, key: string): RegExp {
  try {
    return new RegExp(pattern);
  } catch (error) {
    throw new ConfigError(key, `is not a valid regular expression: ${(error as Error).message}`);
  }
}
