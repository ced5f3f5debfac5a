// TRANSLATE_GRPC_URL → the grpc-js target the tools call: normalised once, at start-up.
export const DEFAULT_GRPC_URL = 'localhost:5100';

/** Unset or blank is the default; an `http://` prefix and a final `/` are dropped (the channel is plaintext). */
export function normalizeAddress(raw: string | undefined): string {
  const value = raw?.trim() ?? '';
  if (value === '') return DEFAULT_GRPC_URL;
  return value.replace(/^http:\/\//i, '').replace(/\/$/, '');
}
