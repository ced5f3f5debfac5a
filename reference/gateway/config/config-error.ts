/** A configuration fault. `field` is the key path of the offending value (`sites[0].routes[1].strategy`,
 * `global.admin.token`) or, for a file that cannot be read or parsed, the file's path; `reason` says what is
 * wrong and, where one exists, the allowed bound. The message is `<field>: <reason>`: validate prints it after
 * `error: `, and a rejected reload sends it as its 400 message. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly field: string;
  readonly reason: string;
  constructor(field: string, reason: string, options?: { cause?: unknown }) {
    super(`${field}: ${reason}`, options);
    this.field = field;
    this.reason = reason;
  }
}
