// The one error of the HTTP layer: a status from a closed list, the message of the standard error body and, for
// validation, the fields at fault (catalog recipes/errors/error-body). Faults of the other modules (AuthError,
// MailError, StoreError and the system errors of a refused write, through storage-errors.ts) are mapped to it here
// and nowhere else; anything unforeseen is a 500 whose details go to the log only (recipes/errors/internal).
import { AuthError } from '../auth/index.ts';
import { MailError } from '../mail/index.ts';
import { storageRefusal } from './storage-errors.ts';

export const API_STATUSES = [400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 502, 503, 507] as const;
export type ApiStatus = (typeof API_STATUSES)[number];

export interface FieldProblem {
  readonly field: string;
  readonly message: string;
}

export interface ErrorBody {
  readonly error: string;
  readonly details?: readonly FieldProblem[];
}

export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: ApiStatus;
  readonly details: readonly FieldProblem[] | undefined;
  /** Extra response headers (WWW-Authenticate on a 401). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    status: ApiStatus,
    message: string,
    options: { details?: readonly FieldProblem[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.status = status;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  get body(): ErrorBody {
    return this.details === undefined ? { error: this.message } : { error: this.message, details: this.details };
  }
}

/** A 400 for invalid input, naming each field at fault. */
export function validationError(problems: readonly FieldProblem[]): ApiError {
  const first = problems[0];
  const message = first === undefined ? 'Invalid request' : `${first.field}: ${first.message}`;
  return new ApiError(400, message, { details: problems });
}

export const AUTH_REQUIRED = 'Authentication required';
export const INVALID_TOKEN = 'Invalid or expired token';

/** A 401 for a bearer route (recipes/auth/unauthenticated): no token, or one that is not accepted. */
export function unauthenticated(tokenSent: boolean, cause?: unknown): ApiError {
  return new ApiError(401, tokenSent ? INVALID_TOKEN : AUTH_REQUIRED, {
    headers: { 'WWW-Authenticate': tokenSent ? 'Bearer error="invalid_token"' : 'Bearer' },
    cause,
  });
}

/**
 * The ApiError for any thrown value; `internal` is true when it is a fault to log with its stack, `logLine` the
 * one line to log for a fault that is the machine's, not the code's (a disk that is full or read-only).
 */
export function toApiError(err: unknown): { error: ApiError; internal: boolean; logLine?: string } {
  if (err instanceof ApiError) return { error: err, internal: err.status === 500 };
  const storage = storageRefusal(err);
  if (storage !== undefined) {
    const error = new ApiError(storage.status, storage.message, { cause: err });
    return { error, internal: false, logLine: err instanceof Error ? err.message : String(err) };
  }
  if (err instanceof AuthError) {
    switch (err.code) {
      case 'password-policy': // the message names the field and the bound
        return { error: validationError([{ field: 'password', message: err.message.replace(/^password: /, '') }]), internal: false };
      case 'one-time-invalid':
      case 'one-time-expired':
        return { error: new ApiError(400, 'Invalid or expired token', { cause: err }), internal: false };
      case 'token-malformed':
      case 'token-signature':
      case 'token-algorithm':
      case 'token-expired':
      case 'token-claims':
        return { error: unauthenticated(true, err), internal: false };
      case 'config': // only at start-up; reaching a request is our fault
        return { error: internalError(err), internal: true };
    }
  }
  if (err instanceof MailError) {
    // Every send failure is a 502 (recipes/email/send-failure); not-configured never reaches here.
    return { error: new ApiError(502, 'Could not send email', { cause: err }), internal: true };
  }
  return { error: internalError(err), internal: true };
}

const internalError = (cause: unknown) => new ApiError(500, 'Internal server error', { cause });
