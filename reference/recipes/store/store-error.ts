// One error class for the store, with a closed set of codes. Platform errors (EACCES, ENOSPC, EIO…) are never
// thrown bare: they become the `cause` of a StoreError whose message names the file and the step that failed.

export type StoreErrorCode =
  /** Another process owns the file (its lock is held by a running process), or this process opened it already. */
  | 'locked'
  /** The file exists but is not a JSON document the store can start from: the store refuses to start. */
  | 'corrupt'
  /** Reading, writing or locking the file failed at the system level; `cause` holds the system error. */
  | 'io'
  /** The store was closed: no more changes are taken. */
  | 'closed';

export class StoreError extends Error {
  override name = 'StoreError';
  readonly code: StoreErrorCode;
  /** The data file the error is about. */
  readonly file: string;
  constructor(code: StoreErrorCode, file: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.file = file;
  }
}

/** A short form of a system error for messages: `no space left on device (ENOSPC)`. */
export function describeSystemError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  const text = error.message.replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '');
  return code ? `${text} (${code})` : text;
}
