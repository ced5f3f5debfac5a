// `gateway init`: the starter config it writes passes validate (and fmt leaves it as it is), answers from
// stdin, the defaults at the end of input or with --yes, and an existing file kept unless overwriting is
// agreed to.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { parse } from 'yaml';
import { formatConfigText } from '../config/format-config.ts';
import { loadConfig } from '../config/load-config.ts';
import { UsageError } from './admin-client.ts';
import { captureIo, scratchFolders } from './capture-io.ts';
import { runInit } from './init.ts';
import { runValidate } from './validate.ts';

const { dir, folder, remove } = scratchFolders('gateway-init-');
test.after.always(remove);

test('--yes writes gateway.yaml: one site on 8080, route / with one target, admin on 127.0.0.1:2019', async (t) => {
  const cwd = folder();
  const io = captureIo(cwd);
  t.is(await runInit(['--yes'], io), 0);
  const path = join(cwd, 'gateway.yaml');
  t.is(io.stdoutText, `wrote ${path}\n`);
  const config = loadConfig(path, {});
  t.deepEqual(config.global.admin, { host: '127.0.0.1', port: 2019, token: undefined });
  t.deepEqual(
    config.sites.map((s) => [s.port, s.routes.map((r) => [r.path, r.targets.length])]),
    [[8080, [['/', 1]]]],
  );
  const text = readFileSync(path, 'utf8');
  t.true(text.startsWith('# Gateway configuration'));
  t.is(formatConfigText(text, 'yaml', path), text);
});

test('the file written passes validate, YAML and JSON', async (t) => {
  const cwd = folder();
  t.is(await runInit(['-y'], captureIo(cwd)), 0);
  t.is(await runInit(['--yes', '-o', 'gw.json'], captureIo(cwd)), 0);
  t.is(await runValidate([], captureIo(cwd)), 0);
  t.is(await runValidate(['-c', 'gw.json'], captureIo(cwd)), 0);
  const json = readFileSync(join(cwd, 'gw.json'), 'utf8');
  t.deepEqual(JSON.parse(json), parse(readFileSync(join(cwd, 'gateway.yaml'), 'utf8')));
  t.is(formatConfigText(json, 'json', 'gw.json'), json);
});

test('answers read from stdin; the end of input takes the defaults', async (t) => {
  const cwd = folder();
  const io = captureIo(cwd, {}, '9090\nhttps://Up.test:8443\nnone\n');
  t.is(await runInit(['-o', 'custom.yaml'], io), 0);
  const config = loadConfig(join(cwd, 'custom.yaml'), {});
  t.is(config.global.admin, undefined);
  t.is(config.sites[0]?.port, 9090);
  t.is(config.sites[0]?.routes[0]?.targets[0]?.url, 'https://Up.test:8443');
  t.regex(io.stdoutText, /Port of the site \[8080\]: \nUpstream URL for \/ \[http:\/\/127\.0\.0\.1:3000\]: \n/);

  const partial = captureIo(cwd, {}, '\n');
  t.is(await runInit(['-o', 'defaults.yaml'], partial), 0);
  t.deepEqual(loadConfig(join(cwd, 'defaults.yaml'), {}).global.admin, { host: '127.0.0.1', port: 2019, token: undefined });
});

test('a wrong answer is asked again', async (t) => {
  const cwd = folder();
  const io = captureIo(cwd, {}, 'eighty\n70000\n8081\nftp://x\nhttp://127.0.0.1:1\nlocalhost\n[::1]:2020\n');
  t.is(await runInit([], io), 0);
  const config = loadConfig(join(cwd, 'gateway.yaml'), {});
  t.is(config.sites[0]?.port, 8081);
  t.is(config.sites[0]?.routes[0]?.targets[0]?.url, 'http://127.0.0.1:1');
  t.deepEqual(config.global.admin, { host: '::1', port: 2020, token: undefined });
  t.regex(io.stdoutText, /"eighty" is not valid\. Port/);
  t.regex(io.stdoutText, /"localhost" is not valid\. Admin/);
});

test('answers that do not make a valid config: error, nothing written', async (t) => {
  const cwd = folder();
  const io = captureIo(cwd, {}, '2019\n\n127.0.0.1:2019\n');
  t.is(await runInit([], io), 1);
  t.regex(io.stderrText, /^error: global\.admin\.bind: port 2019/);
  t.false(existsSync(join(cwd, 'gateway.yaml')));
});

// [what, flags, stdin, written]
const overwrite: [string, string[], string | undefined, boolean][] = [
  ['answered no', [], 'n\n', false],
  ['no answer (end of input)', [], undefined, false],
  ['answered yes', [], 'yes\n', true],
  ['--yes', ['--yes'], undefined, true],
];

for (const [what, flags, stdin, written] of overwrite) {
  test(`an existing file: ${what}`, async (t) => {
    const cwd = folder();
    const path = join(cwd, 'gateway.yaml');
    writeFileSync(path, 'keep: me\n');
    const io = captureIo(cwd, {}, stdin);
    t.is(await runInit(flags, io), written ? 0 : 1);
    t.is(readFileSync(path, 'utf8') === 'keep: me\n', !written);
    t.is(io.stdoutText.includes('Overwrite it? [y/N]'), !flags.includes('--yes'));
    t.is(/left as it was/.test(io.stderrText), !written);
  });
}

test('-o into folders not there yet, with spaces and non-ASCII', async (t) => {
  const cwd = folder();
  t.is(await runInit(['--yes', '-o', 'a b/ördner/gâteway.yaml'], captureIo(cwd)), 0);
  t.is(await runValidate(['-c', 'a b/ördner/gâteway.yaml'], captureIo(cwd)), 0);
});

test('init: unknown flags and arguments are usage errors', async (t) => {
  await t.throwsAsync(runInit(['--force'], captureIo(dir)), { instanceOf: UsageError });
  await t.throwsAsync(runInit(['gateway.yaml'], captureIo(dir)), { instanceOf: UsageError });
});
