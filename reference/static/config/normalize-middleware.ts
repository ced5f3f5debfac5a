// Options of the wrapped middleware packages: logging (morgan), compression, responseTime, helmet, cors.
// Known fields are checked here; anything else in an options object is handed to the package as is.
import { resolve } from 'node:path';
import { ConfigError } from './config-error.ts';
import { booleanOrObject, expectBoolean, expectInteger, isPlainObject, show } from './check-values.ts';
import {
  ABSENT_LOG_FORMAT,
  type CompressionOptions,
  DEFAULT_LOG_FORMAT,
  LOG_FORMATS,
  type LogFormat,
  type LoggingOptions,
  type ResponseTimeOptions,
} from './site-config.ts';

/** Absent => `dev` on stdout; `false` => off; `true` => same as absent; object => `{format, file}`. */
export function normalizeLogging(value: unknown, key: string, baseDir: string): LoggingOptions | null {
  if (value === undefined || value === true) return { format: ABSENT_LOG_FORMAT, file: null };
  if (value === false) return null;
  if (!isPlainObject(value)) throw new ConfigError(key, `must be false or an object {format, file} (got ${show(value)})`);
  let format: LogFormat = DEFAULT_LOG_FORMAT;
  if (value.format !== undefined) {
    if (!LOG_FORMATS.includes(value.format as LogFormat)) {
      throw new ConfigError(`${key}.format`, `must be one of ${LOG_FORMATS.join(', ')} (got ${show(value.format)})`);
    }
    format = value.format as LogFormat;
  }
  let file: string | null = null;
  if (value.file !== undefined) {
    if (typeof value.file !== 'string' || value.file === '') {
      throw new ConfigError(`${key}.file`, `must be a file path (got ${show(value.file)})`);
    }
    file = resolve(baseDir, value.file);
  }
  return { format, file };
}

export function normalizeCompression(value: unknown, key: string): CompressionOptions | null {
  const options = booleanOrObject(value, key);
  if (options === null) return null;
  if (options.level !== undefined) expectInteger(options.level, `${key}.level`, -1, 9);
  const threshold = options.threshold;
  if (threshold !== undefined) {
    const ok =
      (typeof threshold === 'number' && Number.isFinite(threshold) && threshold >= 0) ||
      (typeof threshold === 'string' && /^\d+(\.\d+)?\s*(b|kb|mb|gb)?$/i.test(threshold));
    if (!ok) {
      throw new ConfigError(`${key}.threshold`, `must be a byte count >= 0 or a size like "1kb" (got ${show(threshold)})`);
    }
  }
  return options;
}

export function normalizeResponseTime(value: unknown, key: string): ResponseTimeOptions | null {
  const options = booleanOrObject(value, key);
  if (options === null) return null;
  const result: ResponseTimeOptions = {};
  if (options.digits !== undefined) result.digits = expectInteger(options.digits, `${key}.digits`, 0, 20);
  if (options.suffix !== undefined) result.suffix = expectBoolean(options.suffix, `${key}.suffix`);
  return result;
}

/** helmet and cors take their own option objects; `true` means the package defaults. */
export function normalizePassThrough(value: unknown, key: string): Record<string, unknown> | null {
  return booleanOrObject(value, key);
}
