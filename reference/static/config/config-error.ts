/** A configuration fault found at startup. `key` is the dotted path of the offending key (for example
 * `sites[1].redirects[0].status`), `reason` says what is wrong and, where one exists, the allowed bound. */
export class ConfigError extends Error {
  readonly key: string;
  readonly reason: string;
  constructor(key: string, reason: string, options?: { cause?: unknown }) {
    super(`${key}: ${reason}`, options);
    this.name = 'ConfigError';
    this.key = key;
    this.reason = reason;
  }
}
