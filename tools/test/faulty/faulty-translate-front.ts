// A gRPC front over the reference translation service, shared by the faulty front (faulty-translate.ts) and
// the permitted-variant front (tools/test/variant/variant-translate.ts). It starts the reference (from
// source, under tsx) on a private port with the same configuration and relays every call as raw bytes with
// its metadata, and the reference's standard error line by line; the hooks alter requests, answers, status
// codes and that log. Health checks and server reflection are relayed too; any other method is
// UNIMPLEMENTED.
//
// Command line: [--port N] [reference options...]. Port: --port, else TRANSLATE_PORT, else 5100 (0 picks a
// free one); address TRANSLATE_BIND (127.0.0.1). Other options go to the reference; without --config (or
// TRANSLATE_CONFIG) it gets the reference target's configuration.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
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
import { type Fields, identity } from './faulty-translate-wire.ts';

const REFERENCE = join(PROJECT_ROOT, 'reference/translate/main.ts');
const TSX = join(PROJECT_ROOT, 'node_modules/tsx/dist/loader.mjs');
export const REFERENCE_CONFIG = join(PROJECT_ROOT, 'conformance/translate/reference-target/config.json');
/** The reference's own receive limit (above the 50 MB audio bound). */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
const SHUTDOWN_GRACE_MS = 5_000;

export type Method = (typeof TranslateService.methods)[number];

/** What a hook knows about the call and the reference behind the front. */
export interface CallContext {
  /** The reference's client (for calls of the front's own). */
  client: Client;
  /** Model keys the reference will know (from its configuration), when they could be read. */
  knownModels: Set<string> | undefined;
}

/** The request as forwarded, or the status the front answers itself. */
export type Forward = { bytes: Buffer; request?: Fields } | { refusal: Partial<ServiceError> };

export interface FrontHooks {
  /** Before a TranslateService call is relayed (`bytes` as the caller sent them). */
  request?(method: Method, bytes: Buffer, context: CallContext): Forward | Promise<Forward>;
  /** The reference's answer to a TranslateService call; `request` as the request hook decoded it. */
  response?(method: Method, request: Fields | undefined, bytes: Buffer, context: CallContext): Buffer | Promise<Buffer>;
  /** A failed TranslateService call's status as the caller gets it. */
  error?(method: Method, err: ServiceError): Partial<ServiceError>;
  /** Trailing metadata of a successful TranslateService call. */
  trailer?(method: Method): Metadata | undefined;
  /** Lines printed on standard error at start-up, before the reference logs anything. */
  startupLog?(): string[];
  /** Whether a line of the reference's standard error is passed on. */
  relaysLogLine?(line: string): boolean;
  /** The front's receive limit (default the reference's 64 MiB). */
  maxMessageBytes?: number;
}

type Kind = 'unary' | 'serverStream' | 'bidi';

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

// ---------------------------------------------------------------- relaying

const METHODS = new Map(TranslateService.methods.map((m) => [`/${TranslateService.typeName}/${m.name}`, m]));

/** Request metadata to pass on: the caller's own entries (x-redirect-id and the like), not transport headers. */
function forwardedMetadata(metadata: Metadata): Metadata {
  const out = metadata.clone();
  for (const key of Object.keys(out.getMap())) {
    if (key.startsWith(':') || key.startsWith('grpc-') || ['user-agent', 'content-type', 'te', 'host'].includes(key)) out.remove(key);
  }
  return out;
}

function relayedError(err: ServiceError): Partial<ServiceError> {
  return { code: err.code, details: err.details, metadata: err.metadata };
}

type Upstream = () => Promise<CallContext>;

function relayUnary(path: string, hooks: FrontHooks, upstream: Upstream) {
  const method = METHODS.get(path);
  return async (call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>) => {
    const context = await upstream();
    let forward: Forward = { bytes: call.request };
    if (method && hooks.request) {
      try {
        forward = await hooks.request(method, call.request, context);
      } catch {
        forward = { bytes: call.request }; // undecodable: the reference answers for it
      }
    }
    if ('refusal' in forward) {
      callback(forward.refusal);
      return;
    }
    const { request } = forward;
    const up = context.client.makeUnaryRequest(path, identity, identity, forward.bytes, forwardedMetadata(call.metadata), { deadline: call.getDeadline() }, (err, response) => {
      if (err) callback(method && hooks.error ? hooks.error(method, err) : relayedError(err));
      else if (!method || !hooks.response) callback(null, response!, method && hooks.trailer?.(method));
      else {
        (async () => hooks.response!(method, request, response!, context))().then(
          (bytes) => callback(null, bytes, hooks.trailer?.(method)),
          (e: unknown) => callback({ code: status.INTERNAL, details: `front: ${(e as Error).message}` }),
        );
      }
    });
    up.on('metadata', (metadata: Metadata) => call.sendMetadata(metadata));
    call.on('cancelled', () => up.cancel());
  };
}

function relay(path: string, kind: Kind, hooks: FrontHooks, upstream: Upstream) {
  if (kind === 'unary') return relayUnary(path, hooks, upstream);
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

function relayService(hooks: FrontHooks, upstream: Upstream): { definition: ServiceDefinition; implementation: UntypedServiceImplementation } {
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
    implementation[path] = relay(path, kind, hooks, upstream) as UntypedServiceImplementation[string];
  }
  return { definition, implementation };
}

// ---------------------------------------------------------------- the two processes

function startReference(args: string[], env: NodeJS.ProcessEnv, stdio: 'inherit' | 'pipe'): ChildProcess {
  return spawn(process.execPath, ['--import', TSX, REFERENCE, ...args], { env, stdio: ['ignore', stdio, stdio] });
}

/** Runs the front with `hooks` (the process's command line and environment as described above). */
export async function runFront(hooks: FrontHooks): Promise<void> {
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

  let ready!: (value: CallContext) => void;
  const upstream = new Promise<CallContext>((resolve) => {
    ready = resolve;
  });
  const server = new Server({ 'grpc.max_receive_message_length': hooks.maxMessageBytes ?? MAX_MESSAGE_BYTES });
  const { definition, implementation } = relayService(hooks, () => upstream);
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
  for (const line of hooks.startupLog?.() ?? []) process.stderr.write(`${line}\n`);
  const child = startReference(['--port', '0', ...config, ...args.rest], env, 'pipe');
  // The reference's log passes through the front line by line, so that hooks can hide lines of it.
  createInterface({ input: child.stderr! }).on('line', (line) => {
    if (hooks.relaysLogLine?.(line) ?? true) process.stderr.write(`${line}\n`);
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
