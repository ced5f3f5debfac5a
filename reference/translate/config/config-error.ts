// A configuration problem, named by its key path (`Translation:Models:x:adapter`).
export class ConfigError extends Error {
  readonly key: string;

  constructor(key: string, reason: string) {
    super(`${key}: ${reason}`);
    this.key = key;
    this.name = 'ConfigError';
  }
}
