// gRPC status codes → HTTP statuses for the gateway's answers (catalog translate-web/errors/status-mapping),
// and the code names used in the error body.
import { status } from '@grpc/grpc-js';

/** Every gRPC code with its name, in numeric order (the closed set the error body's `code` comes from). */
export const GRPC_CODES: readonly status[] = Object.values(status).filter((value): value is status => typeof value === 'number');

export function codeName(code: status): string {
  return status[code];
}

export function httpStatusOf(code: status): number {
  switch (code) {
    case status.OK:
      return 200;
    // The request itself is wrong: repeating it unchanged cannot succeed.
    case status.INVALID_ARGUMENT:
    case status.FAILED_PRECONDITION:
    case status.OUT_OF_RANGE:
      return 400;
    case status.UNAUTHENTICATED:
      return 401;
    case status.PERMISSION_DENIED:
      return 403;
    case status.NOT_FOUND:
      return 404;
    case status.ALREADY_EXISTS:
    case status.ABORTED:
      return 409;
    // The gateway's only source is an oversize body, hence 413 rather than 429.
    case status.RESOURCE_EXHAUSTED:
      return 413;
    // The client went away (nginx's 499); seldom written, since nobody is left to read it.
    case status.CANCELLED:
      return 499;
    case status.UNKNOWN:
    case status.INTERNAL:
    case status.DATA_LOSS:
      return 500;
    case status.UNIMPLEMENTED:
      return 501;
    // 503 and 504 are the statuses the browser client retries.
    case status.UNAVAILABLE:
      return 503;
    case status.DEADLINE_EXCEEDED:
      return 504;
  }
}

/** A code received from grpc-js, with anything outside the enum read as UNKNOWN. */
export function knownCode(code: number): status {
  return GRPC_CODES.includes(code) ? code : status.UNKNOWN;
}
