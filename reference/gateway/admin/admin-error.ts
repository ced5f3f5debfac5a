// Every failure of an admin call is an AdminError: an HTTP status, a message and extra headers. The runtime
// throws GatewayError (it knows no HTTP); httpError maps it here, and anything else becomes a 500 that says
// nothing of the cause (catalog gateway/errors/unexpected-500).
import { GatewayError, type GatewayErrorCode } from '../runtime/gateway-runtime.ts';

export class AdminError extends Error {
  override name = 'AdminError';
  constructor(
    readonly httpStatus: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

function statusOf(code: GatewayErrorCode): number {
  switch (code) {
    case 'bad-request': // validation, cold change, unreadable file, invalid CIDR, invalid certificate pair
      return 400;
    case 'not-found': // unknown route, site or target
      return 404;
    case 'not-implemented': // cache purge without the in-memory cache
      return 501;
    case 'internal': // certificate files could not be written
      return 500;
  }
}

/** The error answer for `err`; `unexpected` is told of failures that are not the runtime's own errors. */
export function httpError(err: unknown, unexpected: (err: unknown) => void): AdminError {
  if (err instanceof AdminError) return err;
  if (err instanceof GatewayError) return new AdminError(statusOf(err.code), err.message);
  unexpected(err);
  return new AdminError(500, 'internal error');
}

export const unauthorized = () => new AdminError(401, 'unauthorized', { 'WWW-Authenticate': 'Bearer' });
export const badRequest = (message: string) => new AdminError(400, message);
