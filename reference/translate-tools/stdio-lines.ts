// MCP over stdio, one JSON-RPC message per line, for a session that outlives bad input. The SDK's own stdio
// transport closes the session without a word when its buffer passes 10 MiB, and passes lines that are not JSON
// or not JSON-RPC to its error hook only, so the client waits for an answer forever. Here:
//   - a line that is not JSON gets the JSON-RPC error -32700 (parse error), id null;
//   - JSON that is not a JSON-RPC 2.0 message gets -32600 (invalid request), with its id when it has a usable one;
//   - a line over MAX_LINE_BYTES is dropped as it arrives (never buffered whole) and gets -32600, id null;
//   - blank lines are skipped; the session goes on after each of these.
// Incoming bytes are kept as a list of chunks until the line ends (no copy of the line so far per chunk).
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** The longest message line read: what the SDK's transport allows. The tools' arguments are far smaller. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;
const NEWLINE = 0x0a;

type Id = string | number | null;

/** The id of an invalid message, when it has one a response can carry. */
function idOf(value: unknown): Id {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

export class StdioLineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  readonly #stdin: NodeJS.ReadableStream;
  readonly #stdout: NodeJS.WritableStream;
  readonly #maxLine: number;
  #chunks: Buffer[] = [];
  #size = 0;
  /** The current line passed the limit: its bytes are dropped up to its end. */
  #overlong = false;

  constructor(stdin: NodeJS.ReadableStream = process.stdin, stdout: NodeJS.WritableStream = process.stdout, maxLine = MAX_LINE_BYTES) {
    this.#stdin = stdin;
    this.#stdout = stdout;
    this.#maxLine = maxLine;
  }

  async start(): Promise<void> {
    this.#stdin.on('data', this.#onData);
    this.#stdin.on('error', this.#onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.#stdout.write(serializeMessage(message))) resolve();
      else this.#stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    this.#stdin.off('data', this.#onData);
    this.#stdin.off('error', this.#onError);
    if (this.#stdin.listenerCount('data') === 0) this.#stdin.pause();
    this.#chunks = [];
    this.#size = 0;
    this.onclose?.();
  }

  readonly #onError = (error: Error): void => {
    this.onerror?.(error);
  };

  readonly #onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let from = 0;
    for (let end = bytes.indexOf(NEWLINE, from); end !== -1; end = bytes.indexOf(NEWLINE, from)) {
      this.#keep(bytes.subarray(from, end));
      from = end + 1;
      this.#lineEnded();
    }
    this.#keep(bytes.subarray(from));
  };

  #keep(part: Buffer): void {
    if (this.#overlong || part.length === 0) return;
    if (this.#size + part.length > this.#maxLine) {
      this.#overlong = true;
      this.#chunks = [];
      this.#size = 0;
      return;
    }
    this.#chunks.push(part);
    this.#size += part.length;
  }

  #lineEnded(): void {
    if (this.#overlong) {
      this.#overlong = false;
      this.#refuse(null, ErrorCode.InvalidRequest, `Invalid Request: a message line over ${this.#maxLine} bytes was dropped`);
      return;
    }
    const line = Buffer.concat(this.#chunks, this.#size).toString('utf8');
    this.#chunks = [];
    this.#size = 0;
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.#refuse(null, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      this.#refuse(idOf(value), ErrorCode.InvalidRequest, 'Invalid Request: not a JSON-RPC 2.0 request, notification or response');
      return;
    }
    this.onmessage?.(parsed.data);
  }

  #refuse(id: Id, code: number, message: string): void {
    // The schema of a sent message wants an id; JSON-RPC answers an unknown one with null.
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }
}
