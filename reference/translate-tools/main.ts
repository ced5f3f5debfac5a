// The tool server for AI clients: `translate-tools [--help]`. Speaks MCP on stdin/stdout and serves each
// tool by calling the translation service at TRANSLATE_GRPC_URL (default localhost:5100) over plaintext gRPC.
import { readFileSync } from 'node:fs';
import { type CommandName, exitFailure, exitUsageError, failureMessage, parseCommandLine } from '../shared/command-line.ts';
import { DEFAULT_GRPC_URL, normalizeAddress } from './grpc-address.ts';
import { TranslateGrpcClient } from './grpc-client.ts';
import { StdioLineTransport } from './stdio-lines.ts';
import { createToolServer } from './tool-server.ts';

const COMMAND: CommandName = { name: 'translate-tools', synopsis: 'translate-tools [--help]' };

const USAGE = `Usage: ${COMMAND.synopsis}

An MCP tool server on standard input and output (started by an AI client as a child process). Tools:
translate_text, detect_language, translate_localization, transcribe_audio, get_capabilities.

Environment: TRANSLATE_GRPC_URL  address of the translation service's gRPC endpoint (default ${DEFAULT_GRPC_URL}):
  host:port or a grpc-js target (dns:///host:port, unix:///path); an http:// prefix is ignored. Plaintext.

It opens no port and keeps no data. -h, --help prints this text.
`;

function fail(message: string): never {
  exitFailure(`error: ${message}`);
}

let help: boolean | undefined;
try {
  help = parseCommandLine({ options: { help: { type: 'boolean', short: 'h' } } }).values.help;
} catch (err) {
  exitUsageError(COMMAND, failureMessage(err));
}
if (help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

// Standard output is the protocol stream: a stray console.log from any library would corrupt it.
console.log = console.info = console.debug = console.error;

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const address = normalizeAddress(process.env.TRANSLATE_GRPC_URL);
let client: TranslateGrpcClient;
try {
  client = new TranslateGrpcClient(address);
} catch (err) {
  fail(`TRANSLATE_GRPC_URL: "${address}" is not a usable gRPC address: ${failureMessage(err)}`);
}
const server = createToolServer(client, version);
server.onerror = (err) => process.stderr.write(`translate-tools: ${err.message}\n`);

// The session ends when the client closes our standard input (or output); calls still running are abandoned.
let closing = false;
function shutdown(): void {
  if (closing) return;
  closing = true;
  client.close();
  void server.close().finally(() => process.exit(0));
}
process.stdin.once('end', shutdown);
process.stdout.on('error', shutdown);
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);

await server.connect(new StdioLineTransport());
process.stderr.write(`translate-tools ${version}: MCP on stdio, translation service at ${address}\n`);
