// `gateway` as a process: help, usage errors (exit 2), and admin commands against a real admin server on a
// loopback port with the address and token taken from the environment.
import test from 'ava';
import { recordingRuntime, STATUS, startTestAdmin, type TestAdmin } from '../admin/test-admin.ts';
import { gatewayCli } from './run-gateway-cli.ts';

const TOKEN = 'cli-token';
const recording = recordingRuntime();
let admin: TestAdmin;

test.before(async () => {
  admin = await startTestAdmin(recording.runtime, TOKEN);
});
test.after.always(() => admin?.close());

test('--help and -h print the usage on stdout, exit 0 (also through the bin)', async (t) => {
  for (const [args, bin] of [[['--help'], true], [['-h'], false], [['status', '--help'], false]] as const) {
    const result = await gatewayCli([...args], { bin });
    t.is(result.code, 0, args.join(' '));
    t.regex(result.stdout, /^Usage: gateway <command>/);
    t.regex(result.stdout, /status \[--upstream\]/);
    t.is(result.stderr, '');
  }
});

test('no command, an unknown command or flag: the error and the usage on stderr, exit 2', async (t) => {
  for (const args of [[], ['frobnicate'], ['status', '--frob'], ['upstreams', 'add', '--route', '/api']]) {
    const result = await gatewayCli(args);
    t.is(result.code, 2, args.join(' '));
    t.is(result.stdout, '');
    t.regex(result.stderr, /^error: .+\n\nUsage: gateway <command>/);
  }
});

test('GATEWAY_ADMIN and GATEWAY_ADMIN_TOKEN reach the admin server: status as pretty JSON, exit 0', async (t) => {
  const result = await gatewayCli(['status'], { env: { GATEWAY_ADMIN: `127.0.0.1:${admin.port}`, GATEWAY_ADMIN_TOKEN: TOKEN } });
  t.is(result.code, 0, result.stderr);
  t.is(result.stdout, `${JSON.stringify(STATUS, null, 2)}\n`);
});

test('a wrong token: the 401 on stderr, exit 1', async (t) => {
  const result = await gatewayCli(['reload', '--admin', `http://127.0.0.1:${admin.port}`], { env: { GATEWAY_ADMIN_TOKEN: 'wrong' } });
  t.is(result.code, 1);
  t.regex(result.stderr, /^error: 401 unauthorized/);
});
