// Options of the upload feature: types, defaults and the normaliser run at startup. Kept apart from the
// handler so that reading a config does not load busboy for sites that have no upload.
import { resolve } from 'node:path';
import {
  childKey,
  directoryForms,
  expectInteger,
  expectObject,
  expectString,
  expectUrlPath,
  show,
} from '../config/check-values.ts';
import { ConfigError } from '../config/config-error.ts';
import type { SiteContext } from '../site/handler.ts';

export interface UploadOptions {
  /** URL path: starts with `/`, no trailing slash except the root `/`. */
  path: string;
  /** Absolute directory the files are stored in (created when missing). */
  dir: string;
  /** Largest accepted file in bytes; null = no limit. */
  maxFileSize: number | null;
  /** Most files in one request; null = no limit. */
  maxFiles: number | null;
  /** Lower-case MIME types, `type/*` wildcards allowed; null = any type. */
  allowedTypes: string[] | null;
  /** The only form field that may carry files; null = any field. */
  fieldName: string | null;
}

const DEFAULT_PATH = '/upload';
const DEFAULT_DIR = './uploads';
const OPTION_KEYS = ['path', 'dir', 'maxFileSize', 'maxFiles', 'allowedTypes', 'fieldName'];
const MIME_PATTERN = /^(\*\/\*|[a-z0-9!#$&^_.+-]+\/(\*|[a-z0-9!#$&^_.+-]+))$/;

export function normalizeUpload(value: unknown, key: string, ctx: SiteContext): UploadOptions[] {
  return directoryForms(
    value,
    key,
    (dir) => ({ ...defaults(ctx), dir: resolve(ctx.baseDir, dir) }),
    (item, itemKey) => normalizeEntry(item, itemKey, ctx),
  );
}

function defaults(ctx: SiteContext): UploadOptions {
  return {
    path: DEFAULT_PATH,
    dir: resolve(ctx.baseDir, DEFAULT_DIR),
    maxFileSize: null,
    maxFiles: null,
    allowedTypes: null,
    fieldName: null,
  };
}

function normalizeEntry(value: unknown, key: string, ctx: SiteContext): UploadOptions {
  const entry = expectObject(value, key);
  for (const name of Object.keys(entry)) {
    if (!OPTION_KEYS.includes(name)) {
      throw new ConfigError(childKey(key, name), `is not an upload option (allowed: ${OPTION_KEYS.join(', ')})`);
    }
  }
  const out = defaults(ctx);
  if (entry.path !== undefined) out.path = expectUrlPath(entry.path, `${key}.path`);
  if (entry.dir !== undefined) out.dir = resolve(ctx.baseDir, expectString(entry.dir, `${key}.dir`));
  if (entry.maxFileSize !== undefined) {
    out.maxFileSize = expectInteger(entry.maxFileSize, `${key}.maxFileSize`, 1, Number.MAX_SAFE_INTEGER);
  }
  if (entry.maxFiles !== undefined) {
    out.maxFiles = expectInteger(entry.maxFiles, `${key}.maxFiles`, 1, Number.MAX_SAFE_INTEGER);
  }
  if (entry.allowedTypes !== undefined) {
    const list = entry.allowedTypes;
    const types = Array.isArray(list) ? list.map((t) => (typeof t === 'string' ? t.trim().toLowerCase() : '')) : [];
    if (types.length === 0 || !types.every((t) => MIME_PATTERN.test(t))) {
      throw new ConfigError(
        `${key}.allowedTypes`,
        `must be a non-empty array of MIME types like "image/png" or "image/*" (got ${show(list)})`,
      );
    }
    out.allowedTypes = types;
  }
  if (entry.fieldName !== undefined) out.fieldName = expectString(entry.fieldName, `${key}.fieldName`);
  return out;
}
