// The gateway's one error class: a gRPC code (the body's `code`), the message shown to the client, and the
// HTTP status, which follows the code unless the gateway's own checks need another (405, 415).
import type { status } from '@grpc/grpc-js';
import { codeName, httpStatusOf } from './status-map.ts';

export class GatewayError extends Error {
  readonly code: status;
  readonly httpStatus: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: status, message: string, options: { httpStatus?: number; headers?: Record<string, string>; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'GatewayError';
    this.code = code;
    this.httpStatus = options.httpStatus ?? httpStatusOf(code);
    this.headers = options.headers ?? {};
  }

  /** The error body of catalog translate-web/errors/body. */
  toBody(): { error: { code: string; message: string } } {
    return { error: { code: codeName(this.code), message: this.message } };
  }
}
