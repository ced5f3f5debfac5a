// Access log through morgan. The log file is opened synchronously at startup so a bad path is a startup
// error naming `logging.file`, not an unhandled stream error on the first request. Like every feature
// package, morgan is imported only when the feature is configured (see build-site).
import { createWriteStream, openSync } from 'node:fs';
import { ConfigError } from '../config/config-error.ts';
import type { LoggingOptions } from '../config/site-config.ts';
import type { Handler } from '../site/handler.ts';

export async function createLogging(options: LoggingOptions, key: string): Promise<Handler> {
  const { default: morgan } = await import('morgan');
  let stream: NodeJS.WritableStream = process.stdout;
  if (options.file !== null) {
    let fd: number;
    try {
      fd = openSync(options.file, 'a');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
      throw new ConfigError(`${key}.file`, `cannot open log file ${options.file} (${code})`, { cause: error });
    }
    const file = createWriteStream('', { fd, flags: 'a' });
    // A failing disk must not take the server down; the log line is lost, the request is not.
    file.on('error', (error) => process.stderr.write(`warning: ${key}.file: ${error.message}\n`));
    stream = file;
  }
  // morgan is written for express but only uses node's req/res; the cast bridges the declared types.
  return morgan(options.format, { stream }) as unknown as Handler;
}
