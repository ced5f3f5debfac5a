// Start-up settings: defaults, empty = unset, malformed values named with their bound; the process exits 1
// with one `error: <VARIABLE>: <reason>` line; --help prints the usage.
import test from 'ava';
import { DEFAULT_BIND, DEFAULT_GRPC_TARGET, DEFAULT_PORT, MAX_TIMEOUT_MS, normalizeOptions, OptionError } from './gateway-options.ts';
import { runGateway } from './test-gateway.ts';

test('defaults: port 4000, all interfaces, localhost:5100, no deadlines', (t) => {
  const options = normalizeOptions({});
  t.is(options.port, DEFAULT_PORT);
  t.is(options.port, 4000);
  t.is(options.host, DEFAULT_BIND);
  t.is(options.grpcTarget, DEFAULT_GRPC_TARGET);
  t.is(options.grpcTarget, 'localhost:5100');
  t.deepEqual(options.timeouts, { TRANSLATE_TIMEOUT_MS: undefined, LOCALIZE_TIMEOUT_MS: undefined, TRANSCRIBE_TIMEOUT_MS: undefined });
});

test('empty variables count as unset', (t) => {
  const options = normalizeOptions({ PORT: '', WEB_BIND: '', TRANSLATE_GRPC_URL: '', TRANSLATE_TIMEOUT_MS: '', LOCALIZE_TIMEOUT_MS: '', TRANSCRIBE_TIMEOUT_MS: '' });
  t.deepEqual(options, normalizeOptions({}));
});

test('values are taken as given', (t) => {
  const options = normalizeOptions({ PORT: '0', WEB_BIND: '::1', TRANSLATE_GRPC_URL: 'dns:///svc:5100', TRANSLATE_TIMEOUT_MS: '1', LOCALIZE_TIMEOUT_MS: '60000', TRANSCRIBE_TIMEOUT_MS: String(MAX_TIMEOUT_MS) });
  t.like(options, { port: 0, host: '::1', grpcTarget: 'dns:///svc:5100' });
  t.deepEqual(options.timeouts, { TRANSLATE_TIMEOUT_MS: 1, LOCALIZE_TIMEOUT_MS: 60000, TRANSCRIBE_TIMEOUT_MS: MAX_TIMEOUT_MS });
});

const MALFORMED: [string, string][] = [
  ['PORT', 'abc'],
  ['PORT', '65536'],
  ['PORT', '-1'],
  ['PORT', '80.5'],
  ['TRANSLATE_TIMEOUT_MS', '0'],
  ['TRANSLATE_TIMEOUT_MS', '-5'],
  ['LOCALIZE_TIMEOUT_MS', '1.5'],
  ['LOCALIZE_TIMEOUT_MS', '2s'],
  ['TRANSCRIBE_TIMEOUT_MS', ' 100'],
  ['TRANSCRIBE_TIMEOUT_MS', String(MAX_TIMEOUT_MS + 1)],
];

for (const [variable, value] of MALFORMED) {
  test(`${variable}=${JSON.stringify(value)} is refused, naming the variable and the value`, (t) => {
    const error = t.throws(() => normalizeOptions({ [variable]: value }), { instanceOf: OptionError });
    t.is(error.variable, variable);
    t.true(error.message.startsWith(`${variable}: "${value}"`), error.message);
  });
}

test('a malformed variable stops the process: exit 1, one error line on stderr', async (t) => {
  const port = await runGateway({ PORT: 'abc' });
  t.is(port.code, 1);
  t.regex(port.stderr, /^error: PORT: "abc" is not a port number/);
  t.is(port.stdout, '');
  const timeout = await runGateway({ TRANSCRIBE_TIMEOUT_MS: '0' });
  t.is(timeout.code, 1);
  t.regex(timeout.stderr, /^error: TRANSCRIBE_TIMEOUT_MS: "0" is not a whole number of milliseconds from 1 to \d+\n$/);
});

test('a port in use stops the process with exit 1', async (t) => {
  const { createServer } = await import('node:net');
  const blocker = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => blocker.once('listening', resolve));
  t.teardown(() => blocker.close());
  const { port } = blocker.address() as { port: number };
  const result = await runGateway({ PORT: String(port) });
  t.is(result.code, 1);
  t.is(result.stderr, `error: port ${port} on 127.0.0.1 is already in use (set PORT to another port)\n`);
});

test('--help prints the usage and exits 0; an unknown flag is one line and exit 2', async (t) => {
  const help = await runGateway({}, ['--help']);
  t.is(help.code, 0);
  t.regex(help.stdout, /^Usage: translate-web/);
  for (const name of ['PORT', 'WEB_BIND', 'TRANSLATE_GRPC_URL', 'TRANSLATE_TIMEOUT_MS', 'LOCALIZE_TIMEOUT_MS', 'TRANSCRIBE_TIMEOUT_MS']) t.true(help.stdout.includes(name), name);
  const unknown = await runGateway({}, ['--nope']);
  t.is(unknown.code, 2);
  t.regex(unknown.stderr, /^error: unknown option '--nope' \(usage: translate-web \[--help\]; translate-web --help for more\)\n$/);
});
