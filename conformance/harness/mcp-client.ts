// An MCP client for stdio tool servers: starts the `cmd:` template through the official SDK's
// StdioClientTransport (see stdio-process.ts for the command, directory and environment), and answers tool
// calls with their result or the JSON-RPC error instead of throwing, so a case can assert on either. Every
// session and request leaves a reproducer line: the JSON-RPC lines piped into the command.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, ErrorCode, LATEST_PROTOCOL_VERSION, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { startSlot } from './launch.ts';
import { type StdioCommand, type StdioSpec, stdioCommand } from './stdio-process.ts';

/** What a tool call came back with: a result (possibly `isError`), a JSON-RPC error, or nothing before the call's
 * limit or the caller's abort (`unanswered`: the SDK client's own RequestTimeout, never an answer of the server,
 * so no case takes it for a refusal). */
export type ToolOutcome =
  | { result: CallToolResult; error?: undefined; unanswered?: undefined }
  | { result?: undefined; error: { code: number; message: string }; unanswered?: undefined }
  | { result?: undefined; error?: undefined; unanswered: { afterMs: number; aborted: boolean } };

export interface ToolCallOptions {
  /** Default 30 s. */
  timeoutMs?: number;
  /** Aborting sends `notifications/cancelled` for the call. */
  signal?: AbortSignal;
}

const CLIENT_INFO = { name: 'conform', version: '1.0.0' };
const DEFAULT_CALL_TIMEOUT_MS = 30_000;
/** A server that does not answer `initialize` on stdout by then is taken as not started (as launch.ts waits
 * for a port). */
const INITIALIZE_TIMEOUT_MS = 30_000;
const OUTPUT_LIMIT = 64 * 1024;

function quote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** What all views of one session share: the process, its client and its stderr. */
interface SessionCore {
  client: Client;
  transport: StdioClientTransport;
  prepared: StdioCommand;
  stderr: string;
  nextId: number;
}

export class McpSession {
  readonly #core: SessionCore;
  readonly #note: (line: string) => void;

  private constructor(core: SessionCore, note: (line: string) => void) {
    this.#core = core;
    this.#note = note;
  }

  /** Starts the server and completes the MCP initialisation. */
  static async start(template: string, targetEnv: Record<string, string>, spec: StdioSpec, note: (line: string) => void): Promise<McpSession> {
    const prepared = stdioCommand(template, targetEnv, spec);
    const transport = new StdioClientTransport({ command: prepared.command, args: prepared.args, env: prepared.env, cwd: prepared.cwd, stderr: 'pipe' });
    const core: SessionCore = { client: new Client(CLIENT_INFO, { capabilities: {} }), transport, prepared, stderr: '', nextId: 1 };
    // A PassThrough, there before the process starts: nothing of an early failure is lost.
    transport.stderr?.on('data', (chunk: Buffer) => {
      core.stderr = (core.stderr + chunk.toString('utf8')).slice(-OUTPUT_LIMIT);
    });
    const session = new McpSession(core, note);
    note(`# tool server (cwd ${prepared.cwd}): ${prepared.envLine} ${prepared.commandLine}`.replace(/ {2,}/g, ' '));
    // Started like port targets, a few at a time: a server compiling TypeScript at start would otherwise
    // starve itself past the initialisation limit when a file starts many at once.
    const release = await startSlot();
    try {
      await core.client.connect(transport, { timeout: INITIALIZE_TIMEOUT_MS });
    } catch (err) {
      const stderr = core.stderr.trim();
      await session.close();
      throw new Error(`the tool server did not initialise: ${(err as Error).message}${stderr ? `\n--- stderr ---\n${stderr}` : ''}`);
    } finally {
      release();
    }
    return session;
  }

  /** The same session, its requests noted with `note` (a case using a session shared by several). */
  withNotes(note: (line: string) => void): McpSession {
    return new McpSession(this.#core, note);
  }

  get client(): Client {
    return this.#core.client;
  }

  get commandLine(): string {
    return this.#core.prepared.commandLine;
  }

  /** The whole environment the server was started with. */
  get env(): Record<string, string> {
    return { ...this.#core.prepared.env };
  }

  /** The working directory of the server (`{dir}`). */
  get dir(): string {
    return this.#core.prepared.cwd;
  }

  /** The lines a person pipes into the command to repeat `method` with `params` after initialising. */
  #reproduce(method: string, params: unknown): void {
    const lines = [
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: this.#core.nextId++, method, params },
    ].map((l) => quote(JSON.stringify(l)));
    const shown = lines.join(' ');
    const cut = shown.length > 2500 ? `${shown.slice(0, 2500)}…` : shown;
    const { cwd, envLine, commandLine } = this.#core.prepared;
    this.#note(`(printf '%s\\n' ${cut}; sleep 5) | (cd ${cwd} && env ${envLine} ${commandLine})`.replace(/ {2,}/g, ' '));
  }

  async listTools(): Promise<Tool[]> {
    this.#reproduce('tools/list', {});
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }

  /** Calls a tool; `args` is sent as given (not validated here, so cases can send wrong types). */
  async callTool(name: string, args: Record<string, unknown>, options: ToolCallOptions = {}): Promise<ToolOutcome> {
    this.#reproduce('tools/call', { name, arguments: args });
    const timeout = options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    const started = performance.now();
    try {
      const result = (await this.client.callTool({ name, arguments: args }, undefined, {
        timeout,
        ...(options.signal ? { signal: options.signal } : {}),
      })) as CallToolResult;
      return { result };
    } catch (err) {
      if (!(err instanceof McpError)) throw err;
      const afterMs = Math.round(performance.now() - started);
      // The client's own timer or the caller's abort: nothing came from the server.
      const aborted = options.signal?.aborted === true;
      if (err.code === ErrorCode.RequestTimeout && (aborted || afterMs >= timeout)) return { unanswered: { afterMs, aborted } };
      return { error: { code: err.code, message: err.message } };
    }
  }

  /** The server process's id while it runs (null once it ended). */
  get pid(): number | null {
    return this.#core.transport.pid;
  }

  stderr(): string {
    return this.#core.stderr;
  }

  /** Closes standard input (the server should exit), then stops it if it does not. */
  async close(): Promise<void> {
    await this.#core.client.close().catch(() => undefined);
    this.#core.prepared.cleanup();
  }
}
