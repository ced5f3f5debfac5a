// The web gateway: `translate-web [--help]`. HTTP on PORT (default 4000, 0 picks a free one) on WEB_BIND
// (default all interfaces), forwarding to the gRPC service at TRANSLATE_GRPC_URL (default localhost:5100).
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { type CommandName, exitFailure, exitUsageError, failureMessage, parseCommandLine } from '../shared/command-line.ts';
import { listenFailure } from '../shared/listen-failure.ts';
import { DEFAULT_BIND, DEFAULT_GRPC_TARGET, DEFAULT_PORT, type GatewayOptions, MAX_BODY_BYTES, normalizeOptions } from './gateway-options.ts';
import { GrpcForwarder } from './grpc-forwarder.ts';
import { createHandler } from './http-handler.ts';

const PUBLIC_DIR = fileURLToPath(new URL('./public', import.meta.url));

const COMMAND: CommandName = { name: 'translate-web', synopsis: 'translate-web [--help]' };

const USAGE = `Usage: ${COMMAND.synopsis}

HTTP/JSON gateway and browser client for vendor.translate.v1.TranslateService.
Routes: GET /api/capabilities, POST /api/translate, /api/detect, /api/localize, /api/transcribe,
/api/translate-audio, /api/synthesize; GET /api/openapi.json; the client page at GET /.

Environment (an empty variable counts as unset):
  PORT                   HTTP port (default ${DEFAULT_PORT}; 0 picks a free port)
  WEB_BIND               address to listen on (default ${DEFAULT_BIND}, all interfaces)
  TRANSLATE_GRPC_URL     gRPC service, host:port or a grpc-js target, plaintext (default ${DEFAULT_GRPC_TARGET})
  TRANSLATE_TIMEOUT_MS   deadline of POST /api/translate in ms (default: none)
  LOCALIZE_TIMEOUT_MS    deadline of POST /api/localize in ms (default: none)
  TRANSCRIBE_TIMEOUT_MS  deadline of POST /api/transcribe and /api/translate-audio in ms (default: none)
Capabilities, detect and synthesize have a fixed 30 s deadline. Request bodies up to ${MAX_BODY_BYTES / 2 ** 20} MiB.

It keeps no data. -h, --help prints this text.
`;

function fail(message: string): never {
  exitFailure(`error: ${message}`);
}

const urlHost = (host: string) => (host.includes(':') ? `[${host}]` : host);

async function main(): Promise<void> {
  let help: boolean | undefined;
  try {
    help = parseCommandLine({ options: { help: { type: 'boolean', short: 'h' } } }).values.help;
  } catch (err) {
    exitUsageError(COMMAND, failureMessage(err));
  }
  if (help) {
    process.stdout.write(USAGE);
    return;
  }
  let options: GatewayOptions;
  try {
    options = normalizeOptions(process.env);
  } catch (err) {
    fail(failureMessage(err));
  }
  let forwarder: GrpcForwarder;
  try {
    forwarder = new GrpcForwarder(options.grpcTarget);
  } catch (err) {
    fail(`TRANSLATE_GRPC_URL: "${options.grpcTarget}" is not a gRPC target: ${failureMessage(err)}`);
  }
  const server = createServer(createHandler(options, forwarder, PUBLIC_DIR));
  await new Promise<void>((resolve) => {
    server.once('error', (err) => fail(listenFailure(err, options, { port: 'PORT', host: 'WEB_BIND' }).reason));
    server.listen(options.port, options.host, resolve);
  });
  const { port } = server.address() as { port: number };
  process.stdout.write(`listening on http://${urlHost(options.host)}:${port}\n`);

  const stop = (): void => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    forwarder.close();
    // In-flight calls may be slow (no deadline): leave them a moment, then go.
    setTimeout(() => process.exit(0), 2_000).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

await main().catch((err: unknown) => fail(failureMessage(err)));
