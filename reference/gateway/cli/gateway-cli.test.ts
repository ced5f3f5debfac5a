// `gateway` as a process: help, usage errors (exit 2), and admin commands against a real admin server on a
// loopback port with the address and token taken from the environment.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { recordingRuntime, STATUS, startTestAdmin, type TestAdmin } from '../admin/test-admin.ts';
import { gatewayCli } from './run-gateway-cli.ts';
import { GATEWAY_VERSION } from './version.ts';

const TOKEN = 'cli-token';
const recording = recordingRuntime();
let admin: TestAdmin;

test.before(async () => {
  admin = await startTestAdmin(recording.runtime, TOKEN);
});
const dir = mkdtempSync(join(tmpdir(), 'gateway-cli-test-'));
test.after.always(async () => {
  await admin?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('--help and -h print the usage on stdout, exit 0 (also through the bin)', async (t) => {
  for (const [args, bin] of [[['--help'], true], [['-h'], false], [['status', '--help'], false]] as const) {
    const result = await gatewayCli([...args], { bin });
    t.is(result.code, 0, args.join(' '));
    t.regex(result.stdout, /^Usage: gateway <command>/);
    t.regex(result.stdout, /status \[--upstream\]/);
    t.is(result.stderr, '');
  }
});

test('no command, an unknown command or flag: one line on stderr with the problem and the synopsis, exit 2', async (t) => {
  for (const args of [[], ['frobnicate'], ['status', '--frob'], ['upstreams', 'add', '--route', '/api']]) {
    const result = await gatewayCli(args);
    t.is(result.code, 2, args.join(' '));
    t.is(result.stdout, '');
    t.regex(result.stderr, /^error: .+ \(usage: gateway <command> \[options\]; gateway --help for more\)\n$/);
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

test('version and --version print the bare version, exit 0', async (t) => {
  for (const args of [['version'], ['--version']]) {
    const result = await gatewayCli(args);
    t.is(result.code, 0);
    t.is(result.stdout, `${GATEWAY_VERSION}\n`);
  }
  t.regex(GATEWAY_VERSION, /^\d+\.\d+\.\d+$/);
});

test('init --yes writes gateway.yaml in the working folder; validate and fmt read it by default; -c names another', async (t) => {
  const cwd = mkdtempSync(join(dir, 'init '));
  const init = await gatewayCli(['init', '--yes'], { cwd });
  t.is(init.code, 0, init.stderr);
  const written = readFileSync(join(cwd, 'gateway.yaml'), 'utf8');
  const validate = await gatewayCli(['validate'], { cwd });
  t.is(validate.code, 0, validate.stderr);
  const fmt = await gatewayCli(['fmt'], { cwd });
  t.is(fmt.code, 0, fmt.stderr);
  t.is(readFileSync(join(cwd, 'gateway.yaml'), 'utf8'), written);
  writeFileSync(join(cwd, 'broken.yaml'), 'sites:\n  - port: 70000\n');
  const invalid = await gatewayCli(['validate', '-c', 'broken.yaml'], { cwd });
  t.is(invalid.code, 1);
  t.regex(invalid.stderr, /^error: sites\[0\]\.port: /);
});

test('init with stdin at its end takes the defaults and ends', async (t) => {
  const cwd = mkdtempSync(join(dir, 'piped-'));
  const result = await gatewayCli(['init', '-o', 'piped.json'], { cwd });
  t.is(result.code, 0, result.stderr);
  t.true(JSON.parse(readFileSync(join(cwd, 'piped.json'), 'utf8')).sites.length > 0);
});
