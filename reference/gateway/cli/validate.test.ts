// `gateway validate` and `gateway version` called as main.ts calls them: exit codes and output.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { stringify } from 'yaml';
import { UsageError } from './admin-client.ts';
import { captureIo, scratchFolders } from './capture-io.ts';
import { runValidate } from './validate.ts';
import { GATEWAY_VERSION, runVersion } from './version.ts';

const { dir, folder, remove } = scratchFolders('gateway-validate-');
const TLS = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'static', 'tls');
test.after.always(remove);

const route = (path: string, strategy?: string) => ({ path, strategy, targets: [{ url: 'http://127.0.0.1:9001' }] });
const valid = { global: { admin: { bind: '127.0.0.1:2019', token: '$ADMIN_TOKEN' } }, sites: [{ port: 8080, routes: [route('/'), route('/api')] }] };

test('a valid file: one line on stdout, exit 0', async (t) => {
  const cwd = folder();
  writeFileSync(join(cwd, 'gateway.yaml'), stringify(valid));
  const io = captureIo(cwd, { ADMIN_TOKEN: 'x' });
  t.is(await runValidate([], io), 0);
  t.is(io.stdoutText, `${join(cwd, 'gateway.yaml')}: valid (1 site, 2 routes, 2 targets)\n`);
  t.is(io.stderrText, '');
});

test('an invalid file: error: <field>: <reason> on stderr, exit 1', async (t) => {
  const cwd = folder();
  const raw = { sites: [{ port: 8080, routes: [route('/'), route('/api', 'fastest')] }] };
  writeFileSync(join(cwd, 'gateway.yaml'), stringify(raw));
  const io = captureIo(cwd);
  t.is(await runValidate([], io), 1);
  t.regex(io.stderrText, /^error: sites\[0\]\.routes\[1\]\.strategy: must be one of [^\n]+\n$/);
  t.is(io.stdoutText, '');
});

test('the token variable unset is an error naming global.admin.token', async (t) => {
  const cwd = folder();
  writeFileSync(join(cwd, 'gateway.yaml'), stringify(valid));
  const io = captureIo(cwd, {});
  t.is(await runValidate([], io), 1);
  t.regex(io.stderrText, /^error: global\.admin\.token: .*ADMIN_TOKEN/);
});

test('-c names the file relative to the working directory, spaces and non-ASCII included', async (t) => {
  const cwd = folder();
  mkdirSync(join(cwd, 'mein ördner'));
  const file = join(cwd, 'mein ördner', 'gâte way.json');
  writeFileSync(file, JSON.stringify({ sites: [{ port: 80, tls: { acme: {} } }] }));
  const io = captureIo(cwd);
  t.is(await runValidate(['-c', 'mein ördner/gâte way.json'], io), 0);
  t.is(io.stdoutText, `${file}: valid (1 site, 0 routes, 0 targets)\n`);
  t.is(io.stderrText, 'warning: tls.acme: configured but not compiled in\n');
  t.is(await runValidate(['--config', file], captureIo('/')), 0);
});

test('no -c and no gateway.yaml: exit 1 naming the default file', async (t) => {
  const cwd = folder();
  const io = captureIo(cwd);
  t.is(await runValidate([], io), 1);
  t.is(io.stderrText, `error: ${join(cwd, 'gateway.yaml')}: cannot read the config file: no such file (ENOENT)\n`);
});

test('an unparseable file: exit 1 naming the file', async (t) => {
  const cwd = folder();
  writeFileSync(join(cwd, 'gateway.yaml'), 'sites: [\n');
  const io = captureIo(cwd);
  t.is(await runValidate([], io), 1);
  t.true(io.stderrText.startsWith(`error: ${join(cwd, 'gateway.yaml')}: invalid YAML: `));
});

test('validate: unknown flags and arguments are usage errors', async (t) => {
  await t.throwsAsync(runValidate(['--strict'], captureIo(dir)), { instanceOf: UsageError });
  await t.throwsAsync(runValidate(['gateway.yaml'], captureIo(dir)), { instanceOf: UsageError });
  await t.throwsAsync(runValidate(['-c'], captureIo(dir)), { instanceOf: UsageError });
});

test('version: the bare semantic version, exit 0', async (t) => {
  const io = captureIo(dir);
  t.is(await runVersion([], io), 0);
  t.is(io.stdoutText, `${GATEWAY_VERSION}\n`);
  t.regex(GATEWAY_VERSION, /^\d+\.\d+\.\d+$/);
  t.is(GATEWAY_VERSION.split('.')[0], '1');
  await t.throwsAsync(runVersion(['--short'], captureIo(dir)), { instanceOf: UsageError });
});

test("the README's example passes validate", async (t) => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const example = /```yaml\n([\s\S]*?)```/.exec(readme)?.[1];
  const cwd = folder();
  writeFileSync(join(cwd, 'gateway.yaml'), example ?? '');
  // Its TLS site's pair, which validate reads as a start would.
  for (const [name, fixture] of [['cert.pem', 'leaf.crt'], ['key.pem', 'leaf.key']] as const) writeFileSync(join(cwd, name), readFileSync(join(TLS, fixture)));
  const io = captureIo(cwd, { GATEWAY_TOKEN: 'readme-token' });
  t.is(await runValidate([], io), 0, io.stderrText);
});

test('validate reads the TLS pairs as a start would: missing, a broken block in the chain, or a key of another pair is invalid', async (t) => {
  const pem = (name: string): string => readFileSync(join(TLS, name), 'utf8');
  const broken = `${pem('leaf.crt')}-----BEGIN CERTIFICATE-----\nMIIBroken\n-----END CERTIFICATE-----\n`;
  for (const [what, cert, key, cause] of [
    ['missing', undefined, undefined, /ENOENT/],
    ['a broken block', broken, pem('leaf.key'), /block 2 of the chain/],
    ['a key of another pair', pem('leaf.crt'), pem('self-signed.key'), /does not belong/],
  ] as const) {
    const cwd = folder();
    writeFileSync(join(cwd, 'gateway.yaml'), stringify({ sites: [{ port: 8443, tls: { cert: 'c.pem', key: 'k.pem' }, routes: [] }] }));
    if (cert !== undefined) writeFileSync(join(cwd, 'c.pem'), cert);
    if (key !== undefined) writeFileSync(join(cwd, 'k.pem'), key);
    const io = captureIo(cwd);
    t.is(await runValidate([], io), 1, what);
    t.regex(io.stderrText, cause, what);
  }
});
