// A gRPC client for suites: unary calls built from the documented schema (proto/gen), answering with the
// status instead of throwing, so a case can assert on the code. Each call leaves a `buf curl` line as
// the failure's reproducer.
import { create, type DescMessage, fromBinary, type MessageInitShape, type MessageShape, toBinary, toJsonString } from '@bufbuild/protobuf';
import { Worker } from 'node:worker_threads';
import { Client, credentials, Metadata, status } from '@grpc/grpc-js';

export interface CallOptions {
  /** Request metadata (for example `x-redirect-id`). */
  metadata?: Record<string, string>;
  /** Deadline of the call; default 30 s. */
  timeoutMs?: number;
}

export interface GrpcOutcome<T> {
  /** Numeric gRPC status code (0 = OK). */
  code: number;
  /** Its name: OK, INVALID_ARGUMENT, … */
  codeName: string;
  message: string;
  response: T | undefined;
}

const CODE_NAMES = new Map(Object.entries(status).filter(([, v]) => typeof v === 'number').map(([k, v]) => [v as number, k]));

export const codeName = (code: number): string => CODE_NAMES.get(code) ?? `CODE_${code}`;

const outcome = (code: number, message: string, response?: Uint8Array): GrpcOutcome<Uint8Array> => ({ code, codeName: codeName(code), message, response });

const identity = (bytes: Buffer): Buffer => bytes;
/** Requests up to this size (bytes) are noted as a runnable command. */
const REPRODUCED_UP_TO = 64 * 1024;

type Method = { name: string; parent: { typeName: string } };

const CHANNEL_OPTIONS = { 'grpc.max_receive_message_length': 128 * 1024 * 1024, 'grpc.max_send_message_length': 128 * 1024 * 1024 };

/** A call of many megabytes made on a thread of its own: framing copies the whole message, and a loaded
 * worker's main thread, which every case of the worker shares, stalled for seconds on 50 MB requests. Plain
 * JavaScript (an eval'd worker), grpc-js resolved from the project. */
const LARGE_CALL_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { Client, credentials, Metadata } = require('@grpc/grpc-js');
const { address, tls, options, path, body, timeoutMs } = workerData;
const client = new Client(address, tls ? credentials.createSsl() : credentials.createInsecure(), options);
const same = (bytes) => bytes;
const deadline = new Date(Date.now() + timeoutMs);
client.makeUnaryRequest(path, same, same, Buffer.from(body), new Metadata(), { deadline }, (err, response) => {
  parentPort.postMessage(err ? { code: err.code, message: err.details || err.message } : { code: 0, response });
  client.close();
});
`;

/** `grpc://host:port` or `grpcs://host:port` (or a bare `host:port`). */
export function grpcAddress(url: string): { address: string; tls: boolean } {
  if (!url.includes('://')) return { address: url, tls: false };
  const parsed = new URL(url);
  return { address: parsed.host, tls: parsed.protocol === 'grpcs:' };
}

export class GrpcClient {
  readonly address: string;
  readonly #tls: boolean;
  readonly #client: Client;
  readonly #note: (line: string) => void;

  constructor(url: string, note: (line: string) => void = () => {}) {
    const { address, tls } = grpcAddress(url);
    this.address = address;
    this.#tls = tls;
    this.#note = note;
    this.#client = new Client(address, tls ? credentials.createSsl() : credentials.createInsecure(), CHANNEL_OPTIONS);
  }

  /** Calls a method of the documented service and decodes its response. */
  async call<I extends DescMessage, O extends DescMessage>(
    method: { name: string; parent: { typeName: string }; input: I; output: O },
    init: MessageInitShape<I>,
    options: CallOptions = {},
  ): Promise<GrpcOutcome<MessageShape<O>>> {
    const request = create(method.input, init);
    const bytes = toBinary(method.input, request);
    // A large request (speech audio) is not written out as JSON: base64 of megabytes for a line cut at 2000
    // characters cost a loaded worker seconds.
    if (bytes.length <= REPRODUCED_UP_TO) this.#reproduce(method, toJsonString(method.input, request), options.metadata);
    else this.#note(`# ${method.name}: a request of ${bytes.length} bytes (not shown)`);
    const raw = await this.callRaw(`/${method.parent.typeName}/${method.name}`, bytes, options);
    return { ...raw, response: raw.response && fromBinary(method.output, raw.response) };
  }

  /** Calls any path with raw request bytes (not copied: a 50 MB body costs seconds a copy on a loaded
   * machine); the response is raw bytes (for wire-level checks). */
  callRaw(path: string, body: Uint8Array, options: CallOptions = {}): Promise<GrpcOutcome<Uint8Array>> {
    const metadata = new Metadata();
    for (const [name, value] of Object.entries(options.metadata ?? {})) metadata.set(name, value);
    const deadline = new Date(Date.now() + (options.timeoutMs ?? 30_000));
    return new Promise((resolve) => {
      this.#client.makeUnaryRequest(path, identity, identity, asBuffer(body), metadata, { deadline }, (err, response) => {
        resolve(err ? outcome(err.code, err.details ?? err.message) : outcome(status.OK, '', response && new Uint8Array(response)));
      });
    });
  }

  /** As callRaw, made on a thread of its own, for a request of many megabytes: `body`'s memory (the whole
   * ArrayBuffer under it) is moved to the thread, so the caller must not use it afterwards. */
  callLarge(path: string, body: Uint8Array, options: Omit<CallOptions, 'metadata'> = {}): Promise<GrpcOutcome<Uint8Array>> {
    const timeoutMs = options.timeoutMs ?? 30_000;
    const whole = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body.buffer : body.slice().buffer;
    const workerData = { address: this.address, tls: this.#tls, options: CHANNEL_OPTIONS, path, body: whole, timeoutMs };
    const thread = new Worker(LARGE_CALL_THREAD, { eval: true, workerData, transferList: [whole as ArrayBuffer] });
    return new Promise((resolve) => {
      const failed = (message: string) => resolve(outcome(status.UNKNOWN, message));
      thread.once('error', (err) => failed(`the call's thread failed: ${err.message}`));
      thread.once('exit', () => failed("the call's thread ended without an outcome"));
      thread.once('message', (m: { code: number; message?: string; response?: Uint8Array }) => {
        resolve(outcome(m.code, m.message ?? '', m.response && new Uint8Array(m.response)));
        void thread.terminate();
      });
    });
  }

  #reproduce(method: Method, json: string, metadata: Record<string, string> = {}): void {
    const headers = Object.entries(metadata).map(([k, v]) => ` -H '${k}: ${v}'`).join('');
    const scheme = this.#tls ? 'https' : 'http';
    const body = json.replace(/'/g, `'\\''`);
    const shown = body.length > 2000 ? `${body.slice(0, 2000)}…` : body;
    this.#note(
      `npx buf curl --protocol grpc${this.#tls ? '' : ' --http2-prior-knowledge'} --schema proto${headers} -d '${shown}' ${scheme}://${this.address}/${method.parent.typeName}/${method.name}`,
    );
  }

  close(): void {
    this.#client.close();
  }
}

/** `bytes` as a Buffer over the same memory. */
const asBuffer = (bytes: Uint8Array): Buffer => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
