// The translation service: `translate-server [--port N] [--config FILE]`.
// Port: --port, else TRANSLATE_PORT, else 5100 (0 picks a free one); address TRANSLATE_BIND (0.0.0.0).
// Configuration: --config, else TRANSLATE_CONFIG, else the embedded default; environment overrides.
import { randomUUID } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { logVerbosity, type Server, setLogVerbosity } from '@grpc/grpc-js';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { type CommandName, exitFailure, exitUsageError, failureMessage, parseCommandLine } from '../shared/command-line.ts';
import { listenFailure } from '../shared/listen-failure.ts';
import { ConfigError } from './config/config-error.ts';
import { loadRawConfig } from './config/load-config.ts';
import { normalizeConfig } from './config/normalize-config.ts';
import { createDetector } from './detect/create-detector.ts';
import { bind, createGrpcServer } from './grpc/grpc-server.ts';
import { ModelRegistry } from './models/model-registry.ts';
import { SpeechEngines } from './speech/speech-engines.ts';

export const DEFAULT_PORT = 5100;
const SHUTDOWN_GRACE_MS = 5_000;

const COMMAND: CommandName = { name: 'translate-server', synopsis: 'translate-server [--port N] [--config FILE]' };

const USAGE = `Usage: ${COMMAND.synopsis}

Serves vendor.translate.v1.TranslateService over gRPC (plaintext), with server reflection and grpc.health.v1.

  --port N       listening port (default TRANSLATE_PORT or ${DEFAULT_PORT}; 0 picks a free port)
  --config FILE  JSON configuration (default TRANSLATE_CONFIG or the embedded default)
  -h, --help     this text

Environment: TRANSLATE_PORT, TRANSLATE_CONFIG (as above), TRANSLATE_BIND (default 0.0.0.0),
TRANSLATE_INSTANCE_ID (redirect chains), GRPC_VERBOSITY (grpc-js's own log lines), and any
configuration key with __ for ':' (Translation__AutoDetect, AllowedModels, ModelTtlMinutes).

It keeps no data: models and voices are read from the paths its configuration names, and speech
engines use temporary files only while they work.
`;

function fail(message: string): never {
  exitFailure(`error: ${message}`);
}

/** The port, or undefined when `raw` is not one. */
function parsePort(raw: string): number | undefined {
  const port = Number(raw);
  return /^\d+$/.test(raw) && port <= 65535 ? port : undefined;
}

const notAPort = (source: string, raw: string) => `${source}: "${raw}" is not a port number (0-65535)`;

/** Binds without grpc-js logging the failure too (the caller reports it once), unless GRPC_VERBOSITY or
 * GRPC_NODE_VERBOSITY asks for grpc-js's lines. */
async function bindQuietly(server: Server, host: string, port: number): Promise<number> {
  const quiet = !process.env.GRPC_VERBOSITY && !process.env.GRPC_NODE_VERBOSITY;
  if (quiet) setLogVerbosity(logVerbosity.NONE);
  try {
    return await bind(server, host, port);
  } finally {
    if (quiet) setLogVerbosity(logVerbosity.ERROR);
  }
}

async function main(): Promise<void> {
  let args: { port?: string; config?: string; help?: boolean };
  try {
    args = parseCommandLine({ options: { port: { type: 'string' }, config: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }).values;
  } catch (err) {
    exitUsageError(COMMAND, failureMessage(err));
  }
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  const envPort = process.env.TRANSLATE_PORT;
  // A bad --port is a bad command line (exit 2); a bad TRANSLATE_PORT a bad setting (exit 1).
  const port =
    args.port !== undefined
      ? (parsePort(args.port) ?? exitUsageError(COMMAND, notAPort('--port', args.port)))
      : envPort
        ? (parsePort(envPort) ?? fail(notAPort('TRANSLATE_PORT', envPort)))
        : DEFAULT_PORT;
  const host = process.env.TRANSLATE_BIND || '0.0.0.0';
  let config: ReturnType<typeof normalizeConfig>;
  try {
    const file = args.config ?? (process.env.TRANSLATE_CONFIG || undefined);
    // Without a file, one line says which engines the embedded default found on this machine.
    const raw = loadRawConfig(file, process.env, (found) => process.stderr.write(`${found}\n`));
    config = normalizeConfig(raw, file === undefined ? process.cwd() : dirname(resolve(file)));
  } catch (err) {
    fail(err instanceof ConfigError ? err.message : `config: ${failureMessage(err)}`);
  }
  const models = new ModelRegistry(config, process.env.TRANSLATE_INSTANCE_ID || randomUUID());
  const speech = new SpeechEngines(config);
  const { server, health } = createGrpcServer({ config, detector: createDetector(config.autoDetect), models, speech });
  let bound: number;
  try {
    bound = await bindQuietly(server, host, port);
  } catch (err) {
    fail(listenFailure(err, { port, host }, { port: '--port or TRANSLATE_PORT', host: 'TRANSLATE_BIND' }).reason);
  }
  health.setStatus('', 'SERVING');
  health.setStatus(TranslateService.typeName, 'SERVING');
  process.stdout.write(`listening on ${host}:${bound}\n`);

  const stop = (): void => {
    const force = setTimeout(() => server.forceShutdown(), SHUTDOWN_GRACE_MS);
    force.unref();
    server.tryShutdown(() => {
      models.stop();
      void speech.close().finally(() => process.exit(0));
    });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

await main().catch((err: unknown) => fail(failureMessage(err)));
