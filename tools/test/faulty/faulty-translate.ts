// A deliberately faulty translation service, for proving that the translate suite can fail. It starts the
// reference (from source, under tsx) on a private port with the same configuration and relays every call
// through a gRPC front that forwards raw bytes and metadata, and its standard error line by line; each fault
// named in FAULTS (comma-separated, see faulty-translate-faults.ts) alters requests, responses, status codes
// or that log to break one documented rule (the speech faults are in faulty-translate-speech.ts).
//
//   node --import <tsx> tools/test/faulty/faulty-translate.ts [--port N] [reference options...]
//
// Port: --port, else TRANSLATE_PORT, else 5100 (0 picks a free one); address TRANSLATE_BIND (127.0.0.1).
// Other options go to the reference; without --config (or TRANSLATE_CONFIG) it gets the reference target's
// configuration. Health checks and server reflection are relayed too; any other method is UNIMPLEMENTED.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import {
  Client,
  credentials,
  type Metadata,
  Server,
  ServerCredentials,
  type ServerDuplexStream,
  type ServerUnaryCall,
  type ServerWritableStream,
  type ServiceDefinition,
  type ServiceError,
  type sendUnaryData,
  status,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { PROJECT_ROOT } from '../../../conformance/harness/launch.ts';
import { TranslateService } from '../../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { leafStrings, type Node, parseJson, serialize, stringAt } from '../../../reference/translate/service/json-tree.ts';
import type { TranslateFault } from './faulty-translate-faults.ts';
import { SPEECH_REQUEST_FAULTS, SPEECH_RESPONSE_FAULTS, speechFaults } from './faulty-translate-speech.ts';
import { callReference, decode, encode, type Fields, identity } from './faulty-translate-wire.ts';

const REFERENCE = join(PROJECT_ROOT, 'reference/translate/main.ts');
const TSX = join(PROJECT_ROOT, 'node_modules/tsx/dist/loader.mjs');
const REFERENCE_CONFIG = join(PROJECT_ROOT, 'conformance/translate/reference-target/config.json');
/** The reference's own receive limit (above the 50 MB audio bound). */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
const SHUTDOWN_GRACE_MS = 5_000;

const faults = new Set((process.env.FAULTS ?? '').split(',').filter(Boolean) as TranslateFault[]);
const on = (f: TranslateFault): boolean => faults.has(f);
const speech = speechFaults(on);

type Kind = 'unary' | 'serverStream' | 'bidi';

const isBlank = (text: string): boolean => text.trim() === '';

// ---------------------------------------------------------------- command line

interface Args {
  port: number;
  /** Arguments for the reference, minus --port. */
  rest: string[];
  help: boolean;
  configFile: string | undefined;
}

function fail(message: string): never {
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
}

function parsePort(raw: string, source: string): number {
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535) fail(`${source}: "${raw}" is not a port number (0-65535)`);
  return port;
}

function parseCommandLine(argv: string[]): Args {
  const rest: string[] = [];
  let port: number | undefined;
  let configFile: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--port' || arg.startsWith('--port=')) {
      const value = arg === '--port' ? argv[++i] : arg.slice('--port='.length);
      if (value === undefined) fail('--port needs a value');
      port = parsePort(value, '--port');
      continue;
    }
    if (arg === '--config') configFile = argv[i + 1];
    else if (arg.startsWith('--config=')) configFile = arg.slice('--config='.length);
    rest.push(arg);
  }
  const fromEnv = process.env.TRANSLATE_PORT ? parsePort(process.env.TRANSLATE_PORT, 'TRANSLATE_PORT') : 5100;
  return { port: port ?? fromEnv, rest, help: argv.includes('--help') || argv.includes('-h'), configFile };
}

/** Model keys the reference will know: those of the config file and of Translation__Models__<key>__… variables. */
function configuredModels(file: string | undefined): { keys: Set<string>; hasLoop: boolean } | undefined {
  try {
    const config = file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { Translation?: { Models?: Fields } }) : {};
    const keys = new Set(Object.keys(config.Translation?.Models ?? {}));
    const hasLoop = keys.has('loop');
    for (const name of Object.keys(process.env)) {
      const match = /^Translation__Models__(.+?)(__|$)/.exec(name);
      if (match) keys.add(match[1]!);
    }
    return { keys, hasLoop };
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------- the faults

const METHODS = new Map(TranslateService.methods.map((m) => [`/${TranslateService.typeName}/${m.name}`, m]));

const requestFaults: TranslateFault[] = ['flores200-accepted', 'unknown-model-default', 'native-label-bcp47', ...SPEECH_REQUEST_FAULTS];

interface Forward {
  bytes: Buffer;
  /** The decoded request as the caller sent it (for faults on the response). */
  request: Fields | undefined;
  /** The status the front answers instead of relaying. */
  refusal?: { code: status; details: string };
}

/** The request as forwarded. */
function alterRequest(method: string, bytes: Buffer, knownModels: Set<string> | undefined): Forward {
  const m = METHODS.get(method);
  if (!m || faults.size === 0) return { bytes, request: undefined };
  const request = decode(m.input, bytes);
  const refusal = speech.refusal(m.name, request);
  if (refusal) return { bytes, request, refusal };
  if (!requestFaults.some(on)) return { bytes, request };
  const altered = { ...request };
  speech.alterRequest(m.name, altered);
  const format = typeof altered.languageFormat === 'string' ? altered.languageFormat.toLowerCase() : undefined;
  if (on('flores200-accepted') && format === 'flores200') altered.languageFormat = '';
  if (on('native-label-bcp47') && m.name === 'DetectLanguage' && format === 'native') altered.languageFormat = 'bcp47';
  if (on('unknown-model-default') && typeof altered.model === 'string' && altered.model !== '' && knownModels && !knownModels.has(altered.model)) {
    altered.model = '';
  }
  return { bytes: encode(m.input, altered), request };
}

function optionalTree(text: string, field: string): Node | undefined {
  return isBlank(text) ? undefined : parseJson(text, field);
}

/** A leaf that the reference took from existing_translation. */
function reused(existing: Node | undefined, path: (string | number)[]): boolean {
  const value = stringAt(existing, path);
  return value !== undefined && !isBlank(value);
}

function alterLocalization(request: Fields, response: Fields): void {
  try {
    const input = parseJson(request.json as string, 'json');
    const existing = optionalTree(request.existingTranslation as string, 'existing_translation');
    let count = response.stringsTranslated as number;
    if (on('localization-skips-arrays')) {
      const output = parseJson(response.json as string, 'json');
      const replacements = new Map<Node, string>();
      for (const leaf of leafStrings(output)) {
        if (typeof leaf.path.at(-1) !== 'number' || reused(existing, leaf.path)) continue; // not an array element
        const original = stringAt(input, leaf.path);
        if (original === undefined) continue;
        replacements.set(leaf.node, original);
        if (!isBlank(original)) count--;
      }
      response.json = serialize(output, response.json as string, replacements);
    }
    if (on('count-includes-reused')) {
      count += leafStrings(input).filter((leaf) => !isBlank(leaf.text) && reused(existing, leaf.path)).length;
    }
    response.stringsTranslated = count;
  } catch {
    // Not JSON after all: leave the answer alone.
  }
}

/** GetCapabilitiesResponse field 1 (reserved `supported_languages`) as a length-delimited "en". */
const FIELD_1 = Buffer.from([(1 << 3) | 2, 2, 0x65, 0x6e]);

/** The language the reference detects in `text` (as BCP-47). */
async function detect(client: Client, text: string): Promise<string> {
  const detected = await callReference(client, TranslateService.method.detectLanguage, { text });
  return (detected?.language as string | undefined) ?? 'und';
}

async function alterResponse(client: Client, method: string, request: Fields | undefined, bytes: Buffer): Promise<Buffer> {
  const m = METHODS.get(method);
  if (!m || !request) return bytes;
  switch (m.name) {
    case 'TranslateText': {
      if (!on('detected-always') && !on('model-used-empty')) return bytes;
      const response = decode(m.output, bytes);
      const source = request.sourceLanguage as string;
      // Detection runs whatever the source: its result is reported even for an explicit source.
      if (on('detected-always') && response.detectedLanguage === '' && source !== '' && source.toLowerCase() !== 'auto') {
        response.detectedLanguage = await detect(client, request.text as string);
      }
      if (on('model-used-empty')) response.modelUsed = '';
      return encode(m.output, response);
    }
    case 'TranslateLocalization': {
      if (!on('localization-skips-arrays') && !on('count-includes-reused')) return bytes;
      const response = decode(m.output, bytes);
      alterLocalization(request, response);
      return encode(m.output, response);
    }
    case 'DetectLanguage': {
      if (!on('probability-out-of-range')) return bytes;
      const response = decode(m.output, bytes);
      if ((response.probability as number) > 0) response.probability = (response.probability as number) + 1;
      return encode(m.output, response);
    }
    case 'GetCapabilities':
      return on('capabilities-field-1') ? Buffer.concat([bytes, FIELD_1]) : bytes;
    case 'TranscribeAudio':
    case 'SynthesizeSpeech':
    case 'TranslateAudio': {
      if (!SPEECH_RESPONSE_FAULTS.some(on)) return bytes;
      const response = decode(m.output, bytes);
      await speech.alterResponse(client, m.name, request, response);
      return encode(m.output, response);
    }
    default:
      return bytes;
  }
}

function alterCode(code: number): number {
  if (on('not-allowed-invalid') && code === status.PERMISSION_DENIED) return status.INVALID_ARGUMENT;
  if (on('precondition-internal') && code === status.FAILED_PRECONDITION) return status.INTERNAL;
  return code;
}

// ---------------------------------------------------------------- relaying

/** Request metadata to pass on: the caller's own entries (x-redirect-id and the like), not transport headers. */
function forwardedMetadata(metadata: Metadata): Metadata {
  const out = metadata.clone();
  for (const key of Object.keys(out.getMap())) {
    if (key.startsWith(':') || key.startsWith('grpc-') || ['user-agent', 'content-type', 'te', 'host'].includes(key)) out.remove(key);
  }
  return out;
}

function relayedError(err: ServiceError, code = err.code): Partial<ServiceError> {
  return { code, details: err.details, metadata: err.metadata };
}

function relay(path: string, kind: Kind, upstream: () => Promise<{ client: Client; knownModels: Set<string> | undefined }>) {
  if (kind === 'unary') {
    return async (call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>) => {
      const { client, knownModels } = await upstream();
      let forward: Forward;
      try {
        forward = alterRequest(path, call.request, knownModels);
      } catch {
        forward = { bytes: call.request, request: undefined }; // undecodable: the reference answers for it
      }
      if (forward.refusal) {
        callback(forward.refusal);
        return;
      }
      const up = client.makeUnaryRequest(
        path,
        identity,
        identity,
        forward.bytes,
        forwardedMetadata(call.metadata),
        { deadline: call.getDeadline() },
        (err, response) => {
          if (err) callback(relayedError(err, alterCode(err.code)));
          else {
            alterResponse(client, path, forward.request, response!).then(
              (bytes) => callback(null, bytes),
              (e: unknown) => callback({ code: status.INTERNAL, details: `faulty front: ${(e as Error).message}` }),
            );
          }
        },
      );
      up.on('metadata', (metadata: Metadata) => call.sendMetadata(metadata));
      call.on('cancelled', () => up.cancel());
    };
  }
  if (kind === 'serverStream') {
    return async (call: ServerWritableStream<Buffer, Buffer>) => {
      const { client } = await upstream();
      const up = client.makeServerStreamRequest(path, identity, identity, call.request, forwardedMetadata(call.metadata), {
        deadline: call.getDeadline(),
      });
      up.on('data', (chunk: Buffer) => call.write(chunk));
      up.on('error', (err: ServiceError) => call.emit('error', relayedError(err)));
      up.on('end', () => call.end());
      call.on('cancelled', () => up.cancel());
    };
  }
  return async (call: ServerDuplexStream<Buffer, Buffer>) => {
    const { client } = await upstream();
    const up = client.makeBidiStreamRequest(path, identity, identity, forwardedMetadata(call.metadata), { deadline: call.getDeadline() });
    call.on('data', (chunk: Buffer) => up.write(chunk));
    call.on('end', () => up.end());
    up.on('data', (chunk: Buffer) => call.write(chunk));
    up.on('error', (err: ServiceError) => call.emit('error', relayedError(err)));
    up.on('end', () => call.end());
    call.on('cancelled', () => up.cancel());
  };
}

const PASSTHROUGH: [string, Kind][] = [
  ...[...METHODS.keys()].map((path): [string, Kind] => [path, 'unary']),
  ['/grpc.health.v1.Health/Check', 'unary'],
  ['/grpc.health.v1.Health/Watch', 'serverStream'],
  ['/grpc.reflection.v1.ServerReflection/ServerReflectionInfo', 'bidi'],
  ['/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo', 'bidi'],
];

function relayService(upstream: () => Promise<{ client: Client; knownModels: Set<string> | undefined }>): {
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
} {
  const definition: Record<string, ServiceDefinition[string]> = {};
  const implementation: UntypedServiceImplementation = {};
  for (const [path, kind] of PASSTHROUGH) {
    definition[path] = {
      path,
      requestStream: kind === 'bidi',
      responseStream: kind !== 'unary',
      requestSerialize: identity,
      requestDeserialize: identity,
      responseSerialize: identity,
      responseDeserialize: identity,
    };
    implementation[path] = relay(path, kind, upstream) as UntypedServiceImplementation[string];
  }
  return { definition, implementation };
}

// ---------------------------------------------------------------- the two processes

function startReference(args: string[], env: NodeJS.ProcessEnv, stdio: 'inherit' | 'pipe'): ChildProcess {
  return spawn(process.execPath, ['--import', TSX, REFERENCE, ...args], { env, stdio: ['ignore', stdio, stdio] });
}

async function main(): Promise<void> {
  const args = parseCommandLine(process.argv.slice(2));
  if (args.help) {
    const child = startReference(args.rest, process.env, 'inherit');
    child.on('exit', (code) => process.exit(code ?? 1));
    return;
  }
  const configFile = args.configFile ?? (process.env.TRANSLATE_CONFIG || undefined);
  const config = configFile === undefined ? ['--config', REFERENCE_CONFIG] : [];
  const models = configuredModels(configFile ?? REFERENCE_CONFIG);
  const host = process.env.TRANSLATE_BIND || '127.0.0.1';

  let ready!: (value: { client: Client; knownModels: Set<string> | undefined }) => void;
  const upstream = new Promise<{ client: Client; knownModels: Set<string> | undefined }>((resolve) => {
    ready = resolve;
  });
  const server = new Server({ 'grpc.max_receive_message_length': MAX_MESSAGE_BYTES });
  const { definition, implementation } = relayService(() => upstream);
  server.addService(definition, implementation);
  const port = await new Promise<number>((resolve) => {
    server.bindAsync(`${host}:${args.port}`, ServerCredentials.createInsecure(), (err, bound) => {
      if (err) fail(`cannot listen on ${host}:${args.port}: ${err.message}`);
      resolve(bound);
    });
  });

  // The reference's `loop` model leads back to this front (as the reference target's leads to itself),
  // so a redirect cycle passes through the front and its metadata relay.
  const env: NodeJS.ProcessEnv = { ...process.env, TRANSLATE_BIND: '127.0.0.1' };
  delete env.TRANSLATE_PORT;
  if (models?.hasLoop && env.Translation__Models__loop__address === undefined) env.Translation__Models__loop__address = `127.0.0.1:${port}`;
  for (const line of speech.startupLog()) process.stderr.write(`${line}\n`);
  const child = startReference(['--port', '0', ...config, ...args.rest], env, 'pipe');
  // The reference's log passes through the front line by line, so that faults can hide lines of it.
  createInterface({ input: child.stderr! }).on('line', (line) => {
    if (speech.relaysLogLine(line)) process.stderr.write(`${line}\n`);
  });
  let stopping = false;
  let client: Client | undefined;
  process.on('exit', () => child.kill('SIGKILL'));
  // 'close', not 'exit': the reference's last lines of output are relayed before the front exits.
  child.on('close', (code, signal) => {
    client?.close();
    server.forceShutdown();
    process.exit(stopping ? (code ?? 0) : (code ?? (signal ? 1 : 0)));
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      stopping = true;
      child.kill(signal);
      server.tryShutdown(() => {});
      setTimeout(() => server.forceShutdown(), SHUTDOWN_GRACE_MS).unref();
    });
  }
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const listening = /^listening on .+:(\d+)$/.exec(line);
    if (!listening) {
      process.stdout.write(`${line}\n`);
      return;
    }
    client = new Client(`127.0.0.1:${listening[1]}`, credentials.createInsecure(), {
      'grpc.max_receive_message_length': -1,
      'grpc.max_send_message_length': -1,
    });
    ready({ client, knownModels: models?.keys });
    process.stdout.write(`listening on ${host}:${port}\n`);
  });
}

await main();
