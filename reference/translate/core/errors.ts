// One error class for the whole service, with a closed set of codes. The gRPC layer maps each code to a
// status (grpc/status-map.ts); the core knows no wire format.
export const ERROR_CODES = [
  'INVALID_ARGUMENT',
  'PERMISSION_DENIED',
  'FAILED_PRECONDITION',
  'RESOURCE_EXHAUSTED',
  'NOT_FOUND',
  'UNAVAILABLE',
  'DEADLINE_EXCEEDED',
  'INTERNAL',
  'UNIMPLEMENTED',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class ServiceError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = 'ServiceError';
  }
}

export const invalidArgument = (message: string): ServiceError => new ServiceError('INVALID_ARGUMENT', message);
