// For the tool server's own tests: the tool server from source as a child process on stdio, driven by the
// MCP SDK's client, with TRANSLATE_GRPC_URL pointing where the test says.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ToolSession {
  client: Client;
  /** Calls a tool; the result as the SDK gives it, plus its single text item. */
  call(name: string, args?: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<CallToolResult & { text: string }>;
  /** What the tool server wrote to standard error so far. */
  stderr(): string;
  close(): Promise<void>;
}

export async function startToolServer(grpcUrl: string | undefined): Promise<ToolSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', MAIN],
    cwd: PROJECT_ROOT,
    env: grpcUrl === undefined ? {} : { TRANSLATE_GRPC_URL: grpcUrl },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'translate-tools-test', version: '0.0.0' });
  await client.connect(transport);
  return {
    client,
    call: async (name, args = {}, options = {}) => {
      const result = (await client.callTool({ name, arguments: args }, undefined, options)) as CallToolResult;
      const [item] = result.content;
      return { ...result, text: item?.type === 'text' ? item.text : '' };
    },
    stderr: () => stderr,
    close: () => client.close(),
  };
}
