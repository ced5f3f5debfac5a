// Access log through morgan. The log file is opened synchronously at startup so a bad path is a startup
// error naming `logging.file`, not an unhandled stream error on the first request. Like every feature
// package, morgan is imported only when the feature is configured (see build-site). Lines for standard
// output are gathered over one turn of the event loop and written at once: a write to a pipe or a file is a
// system call made synchronously, which at one a request was a good part of a small file's cost. The dev
// format's colours are for a person at a terminal: a file, a pipe or NO_COLOR gets the same line without them.
import { createWriteStream, openSync } from 'node:fs';
import { ConfigError } from '../config/config-error.ts';
import type { LoggingOptions } from '../config/site-config.ts';
import type { Handler } from '../site/handler.ts';

interface LineSink {
  write(line: string): boolean;
}

export async function createLogging(options: LoggingOptions, key: string): Promise<Handler> {
  const { default: morgan } = await import('morgan');
  let stream: LineSink = stdoutLines;
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
  const terminal = options.file === null && process.stdout.isTTY === true;
  const plain = options.format === 'dev' && !(terminal && wantsColour(process.env));
  return (plain ? morgan(morgan.compile(PLAIN_DEV), { stream }) : morgan(options.format, { stream })) as unknown as Handler;
}

/** morgan's dev line without its colour codes. */
const PLAIN_DEV = ':method :url :status :response-time ms - :res[content-length]';

/** NO_COLOR (no-color.org): set and not empty turns colours off. */
const wantsColour = (env: NodeJS.ProcessEnv): boolean => (env['NO_COLOR'] ?? '') === '';

/** Standard output, one write per turn of the event loop for the lines of every site; what is pending when
 * the process exits is written then. */
const stdoutLines: LineSink = (() => {
  let pending = '';
  const flush = () => {
    const out = pending;
    pending = '';
    if (out !== '') process.stdout.write(out);
  };
  process.once('exit', flush);
  return {
    write(line) {
      if (pending === '') setImmediate(flush);
      pending += line;
      return true;
    },
  };
})();
