// The one error class of the upstream client, with a stable code per way an exchange can fail; platform
// errors (ECONNREFUSED, ECONNRESET, TLS failures…) are kept as its cause.

export type UpstreamErrorCode =
  /** No connection within the connect timeout. */
  | 'connect-timeout'
  /** The connection failed or closed before the answer was complete (the cause says how, when known). */
  | 'connection-lost'
  /** No response headers within the headers timeout. */
  | 'headers-timeout'
  /** No body bytes within the body timeout. */
  | 'body-timeout'
  /** The answer is not HTTP/1 the parser accepts (or its headers exceed the size limit). */
  | 'bad-response'
  /** The request cannot be sent as given (a CR, LF or NUL in a header value). */
  | 'invalid-request'
  /** The request's own body failed or was cut before its end. */
  | 'request-body'
  /** The pool was destroyed with the request still under way or queued. */
  | 'pool-destroyed';

export class UpstreamError extends Error {
  readonly code: UpstreamErrorCode;

  constructor(code: UpstreamErrorCode, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'UpstreamError';
    this.code = code;
  }
}
