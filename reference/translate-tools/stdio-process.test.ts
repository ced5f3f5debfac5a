// The process itself: --help, standard output carrying protocol messages only, exit code 0 when standard
// input closes; and the two start-up/edge mappings (TRANSLATE_GRPC_URL, file-system errors) as tables.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import test from 'ava';
import { DEFAULT_GRPC_URL, normalizeAddress } from './grpc-address.ts';
import { MAIN, PROJECT_ROOT } from './test-client.ts';
import { fromFileError, type ToolErrorCode } from './tool-error.ts';

async function run(args: string[], input: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, TRANSLATE_GRPC_URL: '127.0.0.1:1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  // One message at a time, each after the previous answer, so every request is answered before stdin closes.
  let requests = 0;
  for (const line of input) {
    child.stdin.write(`${line}\n`);
    if (JSON.parse(line).id === undefined) continue;
    requests += 1;
    while (stdout.split('\n').length <= requests) await once(child.stdout, 'data');
  }
  child.stdin.end();
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

const rpc = (id: number | undefined, method: string, params: object = {}): string => JSON.stringify({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method, params });

test('--help prints the usage on standard output and exits 0', async (t) => {
  const { code, stdout } = await run(['--help'], []);
  t.is(code, 0);
  t.regex(stdout, /^Usage: translate-tools/);
  t.regex(stdout, /TRANSLATE_GRPC_URL/);
});

test('an unknown option exits 1 with the usage on standard error', async (t) => {
  const { code, stdout, stderr } = await run(['--port', '1'], []);
  t.is(code, 1);
  t.is(stdout, '');
  t.regex(stderr, /--port/);
});

test('a session: standard output holds JSON-RPC messages only, diagnostics go to stderr, exit 0 on end of input', async (t) => {
  const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };
  const { code, stdout, stderr } = await run(
    [],
    [
      rpc(1, 'initialize', init),
      rpc(undefined, 'notifications/initialized'),
      rpc(2, 'tools/list'),
      rpc(3, 'tools/call', { name: 'get_capabilities', arguments: {} }),
      rpc(4, 'tools/call', { name: 'nope', arguments: {} }),
      rpc(5, 'tools/call', { name: 'translate_text', arguments: {} }),
    ],
  );
  t.is(code, 0);
  const lines = stdout.trimEnd().split('\n');
  t.is(lines.length, 5);
  const messages = lines.map((line) => JSON.parse(line) as { jsonrpc: string; id: number; result?: { isError?: boolean; content?: { text: string }[] }; error?: { code: number } });
  t.deepEqual(
    messages.map((message) => [message.jsonrpc, message.id]),
    [1, 2, 3, 4, 5].map((id) => ['2.0', id]),
  );
  t.regex(messages[2]!.result!.content![0]!.text, /^UNAVAILABLE: .*127\.0\.0\.1:1/);
  t.is(messages[3]!.error!.code, -32602);
  t.true(messages[4]!.result!.isError);
  t.regex(stderr, /translation service at 127\.0\.0\.1:1/);
});

const ADDRESSES: [string | undefined, string][] = [
  [undefined, DEFAULT_GRPC_URL],
  ['', DEFAULT_GRPC_URL],
  ['  ', DEFAULT_GRPC_URL],
  ['localhost:5100', 'localhost:5100'],
  ['http://10.0.0.2:6000', '10.0.0.2:6000'],
  ['HTTP://translate:5100/', 'translate:5100'],
  ['dns:///translate.internal:5100', 'dns:///translate.internal:5100'],
  ['unix:///run/translate.sock', 'unix:///run/translate.sock'],
];

for (const [raw, expected] of ADDRESSES) {
  test(`TRANSLATE_GRPC_URL ${JSON.stringify(raw)} → ${expected}`, (t) => {
    t.is(normalizeAddress(raw), expected);
  });
}

const FILE_ERRORS: [string, ToolErrorCode][] = [
  ['ENOENT', 'NOT_FOUND'],
  ['ENOTDIR', 'NOT_FOUND'],
  ['EISDIR', 'NOT_FOUND'],
  ['EACCES', 'PERMISSION_DENIED'],
  ['EPERM', 'PERMISSION_DENIED'],
  ['EIO', 'INTERNAL'],
];

// PERMISSION_DENIED from a real unreadable file cannot be produced when the tests run as root.
for (const [errno, code] of FILE_ERRORS) {
  test(`file error ${errno} → ${code}, naming the path`, (t) => {
    const error = fromFileError(Object.assign(new Error(errno), { code: errno }), '/audio/fünke #1.wav');
    t.is(error.code, code);
    t.true(error.text.startsWith(`${code}: `));
    t.true(error.text.includes('/audio/fünke #1.wav'));
  });
}
