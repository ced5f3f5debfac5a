/** A fault in how the runner was called or in what it was pointed at: exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
