// The process itself: --help, standard output carrying protocol messages only, exit code 0 when standard
// input closes; and the two start-up/edge mappings (TRANSLATE_GRPC_URL, file-system errors) as tables.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import test from 'ava';
import { DEFAULT_GRPC_URL, normalizeAddress } from './grpc-address.ts';
import { MAIN, PROJECT_ROOT } from './test-client.ts';
import { fromFileError, type ToolErrorCode } from './tool-error.ts';

// A bound on waiting for a server that never answers, not a speed check (a busy machine starts tsx slowly).
const ANSWER_WAIT_MS = 60_000;

/** A JSON-RPC request (it has an id) expects an answer; a notification does not. */
const isRequest = (line: string | Buffer): boolean => JSON.parse(line.toString()).id !== undefined;

/**
 * Runs the tool server and writes `input` one line at a time; a line `expectsAnswer` accepts waits for one more
 * answer line before the next, so every request is answered before stdin closes.
 */
async function run(args: string[], input: (string | Buffer)[], expectsAnswer = isRequest): Promise<{ code: number | null; stdout: string; stderr: string }> {
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
  // A server that ended the session: writing on is an EPIPE, and the missing answer says what went wrong.
  child.stdin.on('error', () => {});
  let answers = 0;
  try {
    for (const [i, line] of input.entries()) {
      child.stdin.write(line);
      child.stdin.write('\n');
      if (!expectsAnswer(line)) continue;
      answers += 1;
      const deadline = AbortSignal.timeout(ANSWER_WAIT_MS);
      while (stdout.split('\n').length <= answers) {
        await once(child.stdout, 'data', { signal: deadline }).catch(() => {
          throw new Error(`no answer to line ${i + 1} within ${ANSWER_WAIT_MS} ms; answers so far: ${stdout}`);
        });
      }
    }
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  child.stdin.end();
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/** Writes each line, every one expecting an answer; the answers, parsed, and the exit code after stdin ends. */
async function exchange(lines: (string | Buffer)[]): Promise<{ code: number | null; answers: { id: unknown; error?: { code: number; message: string }; result?: unknown }[] }> {
  const { code, stdout } = await run([], lines, () => true);
  return { code, answers: stdout.trimEnd().split('\n').map((line) => JSON.parse(line)) };
}

const rpc = (id: number | undefined, method: string, params: object = {}): string => JSON.stringify({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method, params });

test('--help prints the usage on standard output and exits 0', async (t) => {
  const { code, stdout } = await run(['--help'], []);
  t.is(code, 0);
  t.regex(stdout, /^Usage: translate-tools/);
  t.regex(stdout, /TRANSLATE_GRPC_URL/);
});

test('an unknown option exits 2 with one line on standard error naming it', async (t) => {
  const { code, stdout, stderr } = await run(['--port', '1'], []);
  t.is(code, 2);
  t.is(stdout, '');
  t.regex(stderr, /^error: unknown option '--port' \(usage: translate-tools \[--help\]; translate-tools --help for more\)\n$/);
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

test('malformed lines get JSON-RPC errors (-32700, -32600) and the session goes on', async (t) => {
  const { code, answers } = await exchange([
    'this is not json',
    JSON.stringify({ jsonrpc: '1.0', id: 7, method: 'tools/list' }),
    JSON.stringify({ jsonrpc: '2.0', id: 8 }),
    '[1, 2]',
    rpc(9, 'tools/list'),
  ]);
  t.is(code, 0);
  t.deepEqual(
    answers.map((a) => [a.id, a.error?.code]),
    [[null, -32700], [7, -32600], [8, -32600], [null, -32600], [9, undefined]],
  );
  t.truthy(answers[4]!.result);
});

test('a line over 10 MiB is dropped as it arrives, answered -32600, and the session goes on', async (t) => {
  const huge = Buffer.alloc(11 * 1024 * 1024, 'a');
  const { code, answers } = await exchange([huge, rpc(2, 'tools/list')]);
  t.is(code, 0);
  t.deepEqual(answers[0], { jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid Request: a message line over ${10 * 1024 * 1024} bytes was dropped` } });
  t.is(answers[1]!.id, 2);
  t.truthy(answers[1]!.result);
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
