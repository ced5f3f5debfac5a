// The translation service: `translate-server [--port N] [--config FILE]`.
// Port: --port, else TRANSLATE_PORT, else 5100 (0 picks a free one); address TRANSLATE_BIND (0.0.0.0).
// Configuration: --config, else TRANSLATE_CONFIG, else the embedded default; environment overrides.
import { randomUUID } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { ConfigError } from './config/config-error.ts';
import { loadRawConfig } from './config/load-config.ts';
import { normalizeConfig } from './config/normalize-config.ts';
import { createDetector } from './detect/create-detector.ts';
import { bind, createGrpcServer } from './grpc/grpc-server.ts';
import { ModelRegistry } from './models/model-registry.ts';
import { SpeechEngines } from './speech/speech-engines.ts';

export const DEFAULT_PORT = 5100;
const SHUTDOWN_GRACE_MS = 5_000;

const USAGE = `Usage: translate-server [--port N] [--config FILE]

Serves vendor.translate.v1.TranslateService over gRPC (plaintext), with server reflection and grpc.health.v1.

  --port N       listening port (default TRANSLATE_PORT or ${DEFAULT_PORT}; 0 picks a free port)
  --config FILE  JSON configuration (default TRANSLATE_CONFIG or the embedded default)
  --help         this text

Environment: TRANSLATE_BIND (default 0.0.0.0), TRANSLATE_INSTANCE_ID (redirect chains),
and any configuration key with __ for ':' (Translation__AutoDetect, AllowedModels, ModelTtlMinutes).
`;

function fail(message: string): never {
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
}

function parsePort(raw: string, source: string): number {
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535) fail(`${source}: "${raw}" is not a port number (0-65535)`);
  return port;
}

async function main(): Promise<void> {
  let args: { port?: string; config?: string; help?: boolean };
  try {
    args = parseArgs({ options: { port: { type: 'string' }, config: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }).values;
  } catch (err) {
    fail(`${(err as Error).message}\n${USAGE}`);
  }
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  const port =
    args.port !== undefined
      ? parsePort(args.port, '--port')
      : process.env.TRANSLATE_PORT
        ? parsePort(process.env.TRANSLATE_PORT, 'TRANSLATE_PORT')
        : DEFAULT_PORT;
  const host = process.env.TRANSLATE_BIND || '0.0.0.0';
  let config: ReturnType<typeof normalizeConfig>;
  try {
    const file = args.config ?? (process.env.TRANSLATE_CONFIG || undefined);
    config = normalizeConfig(loadRawConfig(file, process.env), file === undefined ? process.cwd() : dirname(resolve(file)));
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
  const models = new ModelRegistry(config, process.env.TRANSLATE_INSTANCE_ID || randomUUID());
  const speech = new SpeechEngines(config);
  const { server, health } = createGrpcServer({ config, detector: createDetector(config.autoDetect), models, speech });
  let bound: number;
  try {
    bound = await bind(server, host, port);
  } catch (err) {
    fail(`cannot listen on ${host}:${port}: ${(err as Error).message}`);
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

await main();
