// The import's limits, normalised once: defaults as named constants, and an error naming the field, the value
// and the bound for anything out of range.

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 5;
export const DEFAULT_USER_AGENT = 'Mozilla/5.0 (compatible; RecipeManagerImport/1.0)';

export interface ImportOptions {
  /** The whole fetch — every redirect, headers and body — must end within this time (ms). */
  timeoutMs: number;
  /** Each TCP connection must be established within this time (ms). */
  connectTimeoutMs: number;
  /** Most bytes of body read (after decompression); reading stops beyond it. */
  maxBytes: number;
  /** Most redirects followed; each target is checked like the URL given. */
  maxRedirects: number;
  userAgent: string;
  /** Fetch from loopback, private, link-local, unspecified and other non-public addresses too (address-check.ts).
   * Default false: only public unicast addresses, checked on the address connected to, for every redirect. */
  allowPrivateAddresses: boolean;
}

const BOUNDS: Record<Exclude<keyof ImportOptions, 'userAgent' | 'allowPrivateAddresses'>, [min: number, max: number]> = {
  timeoutMs: [1, 600_000],
  connectTimeoutMs: [1, 600_000],
  maxBytes: [1, 1024 * 1024 * 1024],
  maxRedirects: [0, 20],
};

export function normalizeImportOptions(partial: Partial<ImportOptions> = {}): ImportOptions {
  const options: ImportOptions = {
    timeoutMs: partial.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    connectTimeoutMs: partial.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    maxBytes: partial.maxBytes ?? DEFAULT_MAX_BYTES,
    maxRedirects: partial.maxRedirects ?? DEFAULT_MAX_REDIRECTS,
    userAgent: partial.userAgent ?? DEFAULT_USER_AGENT,
    allowPrivateAddresses: partial.allowPrivateAddresses ?? false,
  };
  for (const [field, [min, max]] of Object.entries(BOUNDS)) {
    const value = options[field as keyof typeof BOUNDS];
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      throw new RangeError(`import option ${field} must be an integer from ${min} to ${max}, got ${String(value)}`);
    }
  }
  if (typeof options.userAgent !== 'string' || !/^[\x20-\x7e]{1,200}$/.test(options.userAgent)) {
    throw new RangeError('import option userAgent must be 1 to 200 printable ASCII characters');
  }
  if (typeof options.allowPrivateAddresses !== 'boolean') throw new RangeError('import option allowPrivateAddresses must be a boolean');
  return options;
}
