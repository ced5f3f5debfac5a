// One error class for every failed tool call, coded by gRPC status name; gRPC statuses and file-system
// errors are mapped to it here and nowhere else. A tool error's text is `<CODE>: <message>`.
import { type ServiceError, status } from '@grpc/grpc-js';

/** The closed set of codes: the names of the gRPC status codes (`OK` is never used for an error). */
export type ToolErrorCode = Exclude<keyof typeof status, 'OK'>;

export class ToolError extends Error {
  readonly code: ToolErrorCode;

  constructor(code: ToolErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = 'ToolError';
  }

  /** The text of the tool error result. */
  get text(): string {
    return `${this.code}: ${this.message}`;
  }
}

/** The name of a numeric status; a number outside the enum (a misbehaving peer) is UNKNOWN. */
export function codeName(code: number): ToolErrorCode {
  const name = status[code] as keyof typeof status | undefined;
  return name === undefined || name === 'OK' ? 'UNKNOWN' : name;
}

/** A failed RPC. UNAVAILABLE names the address, since the usual cause is a wrong TRANSLATE_GRPC_URL. */
export function fromGrpcError(err: ServiceError, address: string): ToolError {
  const code = codeName(err.code);
  const details = err.details || err.message;
  // grpc-js ends a connection failure with an empty "Resolution note: ".
  const message = code === 'UNAVAILABLE' ? `translation service at ${address}: ${details.replace(/ Resolution note: $/, '')}` : details;
  return new ToolError(code, message, { cause: err });
}

/** A failed stat or read of `path`. */
export function fromFileError(err: unknown, path: string): ToolError {
  const shown = JSON.stringify(path);
  switch ((err as NodeJS.ErrnoException).code) {
    // Nothing there, or a path through something that is not a directory.
    case 'ENOENT':
    case 'ENOTDIR':
    case 'ELOOP':
    case 'ENAMETOOLONG':
      return new ToolError('NOT_FOUND', `no file at ${shown}`, { cause: err });
    // The catalog treats a directory as not found.
    case 'EISDIR':
      return new ToolError('NOT_FOUND', `${shown} is a directory, not a file`, { cause: err });
    case 'EACCES':
    case 'EPERM':
      return new ToolError('PERMISSION_DENIED', `cannot read ${shown}: permission denied`, { cause: err });
    default:
      return new ToolError('INTERNAL', `cannot read ${shown}: ${(err as Error).message}`, { cause: err });
  }
}

/** Any thrown value as a ToolError; an unexpected fault is INTERNAL with its message. */
export function toToolError(err: unknown): ToolError {
  if (err instanceof ToolError) return err;
  return new ToolError('INTERNAL', err instanceof Error ? err.message : String(err), { cause: err });
}
