// The tool server is a child process speaking on its standard input and output: an `initialize` written to
// its stdin is answered on its stdout, and tools are listed the same way. And
// (informational) the reference's choices: MCP with only the `tools` capability, its serverInfo, stdout
// carrying protocol lines only (also around failing calls), exit code 0 when stdin closes.
import { readFileSync } from 'node:fs';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { CaseContext } from '../harness/case-context.ts';
import { check } from '../harness/check.ts';
import { GrpcStub } from '../harness/grpc-stub.ts';
import { PROJECT_ROOT } from '../harness/launch.ts';
import { spawnStdio, type StdioProcess } from '../harness/stdio-process.ts';
import { within } from '../harness/within.ts';
import { STDIO, sharedStub, target } from './target.ts';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'conform', version: '1.0.0' } },
};
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };

/** The target started with raw pipes, calling a stub of the case's own, stopped when the case ends. */
async function raw(c: CaseContext): Promise<StdioProcess> {
  const stub = await new GrpcStub().listen();
  c.defer(() => stub.close());
  const proc = spawnStdio(target.command!, target.env ?? {}, { env: { TRANSLATE_GRPC_URL: stub.address } });
  c.defer(() => proc.stop());
  c.note(`# started with pipes: TRANSLATE_GRPC_URL=${stub.address} ${proc.commandLine}`);
  return proc;
}

/** Writes a JSON-RPC message as one line. */
function send(c: CaseContext, proc: StdioProcess, message: object): void {
  const line = JSON.stringify(message);
  c.note(`stdin: ${line}`);
  proc.writeLine(line);
}

/** The response to request `id`, read from stdout. */
async function response(proc: StdioProcess, id: number): Promise<Record<string, unknown>> {
  const line = await proc.waitForLine((l) => {
    try {
      return (JSON.parse(l) as { id?: unknown }).id === id;
    } catch {
      return false;
    }
  });
  return JSON.parse(line) as Record<string, unknown>;
}

check('translate-tools/tools/stdio-server/answers-on-stdout-as-a-child-process', STDIO, async (t, c) => {
  const proc = await raw(c);
  send(c, proc, INITIALIZE);
  const init = await response(proc, 0);
  t.is(init.jsonrpc, '2.0');
  t.truthy((init.result as { protocolVersion?: unknown } | undefined)?.protocolVersion, JSON.stringify(init));
  send(c, proc, INITIALIZED);
  send(c, proc, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
  const list = await response(proc, 1);
  const names = ((list.result as { tools?: { name?: unknown }[] } | undefined)?.tools ?? []).map((tool) => tool.name);
  t.true(names.includes('translate_text'), JSON.stringify(list).slice(0, 500));
});

// ---------------------------------------------------------------- informational
check('translate-tools/tools/protocol/mcp-with-the-tools-capability-only', STDIO, async (t, c) => {
  const { tools } = await sharedStub(c);
  const capabilities = tools.client.getServerCapabilities() ?? {};
  t.truthy(capabilities.tools, 'tools capability');
  t.deepEqual(
    Object.keys(capabilities).filter((k) => k !== 'tools'),
    [],
    'other capabilities',
  );
});

check('translate-tools/tools/server-info/name-and-package-version', STDIO, async (t, c) => {
  const { tools } = await sharedStub(c);
  const { version } = JSON.parse(readFileSync(`${PROJECT_ROOT}/package.json`, 'utf8')) as { version: string };
  const info = tools.client.getServerVersion();
  t.deepEqual({ name: info?.name, version: info?.version }, { name: 'translate-tools', version });
});

check('translate-tools/tools/stdout-protocol-only/every-line-json-rpc-also-around-failures', STDIO, async (t, c) => {
  const proc = await raw(c);
  send(c, proc, INITIALIZE);
  await response(proc, 0);
  send(c, proc, INITIALIZED);
  const calls = [
    { name: 'no_such_tool', arguments: {} },
    { name: 'translate_text', arguments: { text: 42 } },
    { name: 'transcribe_audio', arguments: { file_path: '/nonexistent/a.wav' } },
    { name: 'detect_language', arguments: { text: 'Hello there' } },
  ];
  for (const [i, params] of calls.entries()) send(c, proc, { jsonrpc: '2.0', id: i + 1, method: 'tools/call', params });
  await Promise.all(calls.map((_, i) => response(proc, i + 1)));
  proc.endInput();
  await proc.exited;
  const lines = proc.stdout().split('\n').filter((l) => l.trim() !== '');
  const notJsonRpc = lines.filter((l) => {
    try {
      return (JSON.parse(l) as { jsonrpc?: unknown }).jsonrpc !== '2.0';
    } catch {
      return true;
    }
  });
  t.deepEqual(notJsonRpc, [], 'stdout lines that are no JSON-RPC message');
});

check('translate-tools/tools/stdout-protocol-only/exits-0-when-stdin-closes', STDIO, async (t, c) => {
  const proc = await raw(c);
  send(c, proc, INITIALIZE);
  await response(proc, 0);
  proc.endInput();
  const ended = await within(proc.exited, 5000, 'still running 5 s later');
  t.deepEqual(ended, { code: 0, signal: null });
});
