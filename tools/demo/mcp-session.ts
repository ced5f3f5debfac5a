// An MCP client session against the reference stack, as an AI client would hold one: starts the reference
// translation service (the translate suite's reference configuration, on a free port), then the tool server
// through the official SDK's stdio transport, lists the tools and calls each of them once.
//
//   npx tsx tools/demo/mcp-session.ts [--grpc-url host:port]   (an already running service instead)
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PROJECT_ROOT } from '../../conformance/harness/project-root.ts';
import { startService } from './reference-service.ts';
const SPEECH = join(PROJECT_ROOT, 'fixtures/translate/speech/counting.wav');

const CALLS: { name: string; arguments: Record<string, unknown> }[] = [
  { name: 'get_capabilities', arguments: {} },
  { name: 'translate_text', arguments: { text: 'The house is big.', target_language: 'es', model: 'apertium' } },
  { name: 'detect_language', arguments: { text: 'Привет, как у тебя дела сегодня?' } },
  { name: 'translate_localization', arguments: { json: '{"hello":"Hello world","menu":{"open":"Open the file"}}', source_language: 'en', target_language: 'es', model: 'apertium' } },
  { name: 'transcribe_audio', arguments: { file_path: SPEECH, language: 'en' } },
  { name: 'transcribe_audio', arguments: { file_path: 'relative.wav' } },
];

const { values } = parseArgs({ options: { 'grpc-url': { type: 'string' } } });
const service = values['grpc-url'] ? { address: values['grpc-url'], stop: () => {} } : await startService();
console.log(`translation service at ${service.address}`);

const client = new Client({ name: 'mcp-session-demo', version: '1.0.0' });
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [join(PROJECT_ROOT, 'reference/translate-tools/bin/translate-tools.js')],
    env: { TRANSLATE_GRPC_URL: service.address },
    stderr: 'inherit',
  }),
);
try {
  const info = client.getServerVersion();
  console.log(`server ${info?.name} ${info?.version}`);
  for (const tool of (await client.listTools()).tools) {
    const parameters = Object.keys(tool.inputSchema.properties ?? {});
    console.log(`tool ${tool.name}(${parameters.join(', ')}) required=[${(tool.inputSchema.required ?? []).join(', ')}]`);
  }
  for (const call of CALLS) {
    const result = (await client.callTool(call)) as CallToolResult;
    const [item] = result.content;
    const text = item?.type === 'text' ? item.text : JSON.stringify(result.content);
    console.log(`${call.name} ${JSON.stringify(call.arguments)}\n  -> ${result.isError ? 'ERROR ' : ''}${text}`);
  }
} finally {
  await client.close();
  service.stop();
}
