// Failed tool calls against a real translation reference: each comes back as a tool error result
// `<CODE>: <message>` (an unknown tool as JSON-RPC -32602), and the tool server keeps serving after it.
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import test from 'ava';
import { startTestServer, type TestServer } from '../translate/grpc/test-server.ts';
import { MAX_AUDIO_BYTES } from './read-audio.ts';
import { startToolServer, type ToolSession } from './test-client.ts';

const TRANSLATION = { Models: { pseudo: { adapter: 'pseudo' }, other: { adapter: 'pseudo' } }, DefaultModel: 'pseudo', AudioToText: { engine: 'pocketsphinx' } };

let service: TestServer;
let tools: ToolSession;
let dir: string;

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'translate tools #'));
  service = await startTestServer(TRANSLATION, { env: { AllowedModels: '["pseudo"]' } });
  tools = await startToolServer(`127.0.0.1:${service.port}`);
});

test.after.always(async () => {
  await tools?.close();
  service?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A loopback port nobody listens on (taken, then released). */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** After a failure the same session still answers. */
async function stillServes(t: { is: (a: unknown, b: unknown) => void }, session: ToolSession = tools): Promise<void> {
  const { tools: listed } = await session.client.listTools();
  t.is(listed.length, 5);
}

// gRPC statuses, unchanged: `<GRPC_CODE_NAME>: <status message>`.
const GRPC_FAILURES: [string, string, Record<string, unknown>, RegExp][] = [
  ['unknown model', 'translate_text', { text: 'Hi', target_language: 'de', model: 'nope' }, /^INVALID_ARGUMENT: .*nope/],
  ['model not allowed', 'translate_text', { text: 'Hi', target_language: 'de', model: 'other' }, /^PERMISSION_DENIED: .*other/],
  ['unsupported language_format', 'detect_language', { text: 'Hello there', language_format: 'flores200' }, /^INVALID_ARGUMENT: /],
  ['invalid localization JSON', 'translate_localization', { json: '{"a":', source_language: 'en', target_language: 'de' }, /^INVALID_ARGUMENT: /],
];

for (const [label, tool, args, expected] of GRPC_FAILURES) {
  test(`gRPC failure, ${label}: tool error ${expected.source}`, async (t) => {
    const result = await tools.call(tool, args);
    t.true(result.isError);
    t.is(result.content.length, 1);
    t.regex(result.text, expected);
    await stillServes(t);
  });
}

test('transcribe_audio: a relative path is INVALID_ARGUMENT and nothing is read', async (t) => {
  const result = await tools.call('transcribe_audio', { file_path: 'fixtures/translate/speech/counting.wav' });
  t.true(result.isError);
  t.regex(result.text, /^INVALID_ARGUMENT: file_path must be an absolute path/);
});

test('transcribe_audio: a path with a NUL byte is INVALID_ARGUMENT naming it', async (t) => {
  const result = await tools.call('transcribe_audio', { file_path: join(dir, 'a.wav\0.txt') });
  t.true(result.isError);
  t.regex(result.text, /^INVALID_ARGUMENT: file_path must not contain a NUL byte, got ".*a\.wav\\u0000\.txt"/);
  await stillServes(t);
});

test('transcribe_audio: a missing file is NOT_FOUND naming the path', async (t) => {
  const path = join(dir, 'fünke #1.wav');
  const result = await tools.call('transcribe_audio', { file_path: path });
  t.true(result.isError);
  t.regex(result.text, /^NOT_FOUND: /);
  t.true(result.text.includes(path), result.text);
});

test('transcribe_audio: a directory is NOT_FOUND', async (t) => {
  const result = await tools.call('transcribe_audio', { file_path: dir });
  t.true(result.isError);
  t.regex(result.text, /^NOT_FOUND: /);
  t.true(result.text.includes(dir), result.text);
});

test('transcribe_audio: a file above 50 MB is RESOURCE_EXHAUSTED naming the limit', async (t) => {
  const path = join(dir, 'too big.wav');
  await writeFile(path, '');
  await truncate(path, MAX_AUDIO_BYTES + 1); // sparse: the size is decided before reading
  const result = await tools.call('transcribe_audio', { file_path: path });
  t.true(result.isError);
  t.regex(result.text, /^RESOURCE_EXHAUSTED: .*52428800/);
});

test('transcribe_audio: a file that is no WAV is sent, and the service refuses it', async (t) => {
  const path = join(dir, 'not audio.wav');
  await writeFile(path, 'just text');
  const result = await tools.call('transcribe_audio', { file_path: path });
  t.true(result.isError);
  t.regex(result.text, /^INVALID_ARGUMENT: /);
});

test('an unknown tool is a JSON-RPC -32602 error naming it', async (t) => {
  const error = await t.throwsAsync(tools.client.callTool({ name: 'translate_everything', arguments: {} }), { instanceOf: McpError });
  t.is(error.code, -32602);
  t.regex(error.message, /translate_everything/);
  await stillServes(t);
});

test('a cancelled call leaves the session serving', async (t) => {
  const controller = new AbortController();
  const pending = tools.call('transcribe_audio', { file_path: join(process.cwd(), 'fixtures/translate/speech/counting.wav') }, { signal: controller.signal });
  controller.abort();
  await t.throwsAsync(pending);
  const after = await tools.call('get_capabilities');
  t.false(after.isError);
});

// Arguments are checked before anything is sent: against an unreachable service these would otherwise
// come back UNAVAILABLE.
const INVALID_ARGUMENTS: [string, string, Record<string, unknown>, string][] = [
  ['required text missing', 'translate_text', { target_language: 'de' }, 'text'],
  ['target_language of the wrong type', 'translate_text', { text: 'Hi', target_language: 7 }, 'target_language'],
  ['unknown parameter context', 'translate_localization', { json: '{}', source_language: 'en', target_language: 'de', context: '{}' }, 'context'],
  ['a parameter for get_capabilities', 'get_capabilities', { verbose: 'yes' }, 'verbose'],
  ['file_path missing', 'transcribe_audio', {}, 'file_path'],
];

test('argument validation: a tool error naming the parameter, the service not called', async (t) => {
  const offline = await startToolServer(`127.0.0.1:${await freePort()}`);
  try {
    for (const [label, tool, args, parameter] of INVALID_ARGUMENTS) {
      const result = await offline.call(tool, args);
      t.true(result.isError, label);
      t.regex(result.text, /^INVALID_ARGUMENT: /, label);
      t.true(result.text.includes(parameter), `${label}: ${result.text}`);
    }
    await stillServes(t, offline);
  } finally {
    await offline.close();
  }
});

test('unreachable service: UNAVAILABLE naming the address, and calls succeed once it is up', async (t) => {
  const port = await freePort();
  const offline = await startToolServer(`127.0.0.1:${port}`);
  let late: TestServer | undefined;
  try {
    for (const tool of ['get_capabilities', 'get_capabilities']) {
      const result = await offline.call(tool);
      t.true(result.isError);
      t.regex(result.text, /^UNAVAILABLE: /);
      t.true(result.text.includes(`127.0.0.1:${port}`), result.text);
    }
    await stillServes(t, offline);
    late = await startTestServer(TRANSLATION, { port });
    const result = await offline.call('get_capabilities');
    t.false(result.isError, result.text);
  } finally {
    await offline.close();
    late?.stop();
  }
});
