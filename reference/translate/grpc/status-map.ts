// The core's error codes ↔ gRPC status codes, and every thrown value → a status the client can read.
import { status } from '@grpc/grpc-js';
import { ERROR_CODES, type ErrorCode, ServiceError } from '../core/errors.ts';

export function grpcStatus(code: ErrorCode): status {
  switch (code) {
    case 'INVALID_ARGUMENT':
      return status.INVALID_ARGUMENT;
    case 'PERMISSION_DENIED':
      return status.PERMISSION_DENIED;
    case 'FAILED_PRECONDITION':
      return status.FAILED_PRECONDITION;
    case 'RESOURCE_EXHAUSTED':
      return status.RESOURCE_EXHAUSTED;
    case 'NOT_FOUND':
      return status.NOT_FOUND;
    case 'UNAVAILABLE':
      return status.UNAVAILABLE;
    case 'DEADLINE_EXCEEDED':
      return status.DEADLINE_EXCEEDED;
    case 'INTERNAL':
      return status.INTERNAL;
    case 'UNIMPLEMENTED':
      return status.UNIMPLEMENTED;
  }
}

const BY_NUMBER = new Map<number, ErrorCode>(ERROR_CODES.map((code) => [grpcStatus(code), code]));

/** A status received from another instance, as the core's error (unknown codes become INTERNAL). */
export function fromGrpcStatus(code: number, message: string): ServiceError {
  return new ServiceError(BY_NUMBER.get(code) ?? 'INTERNAL', message);
}

/** Any thrown value as `{code, details}`; unexpected faults become INTERNAL without a stack trace. */
export function toStatus(err: unknown): { code: status; details: string } {
  if (err instanceof ServiceError) return { code: grpcStatus(err.code), details: err.message };
  return { code: status.INTERNAL, details: 'internal error' };
}
