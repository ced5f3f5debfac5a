// `conform init` (tools/conform/init.ts): for every surface the description it writes reads back through the
// runner's reader and schema, with its commented-out examples too; the gateway's adapter skeleton passes the
// neutral setup through unchanged, and a run of the runner uses both; existing files are kept without --force;
// a surface it does not know, or no surface, is a usage error.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import { readDescription } from '../../conformance/harness/target-description.ts';
import { WIDTH } from '../conform/description-template.ts';
import { descriptionFileName } from '../conform/init.ts';
import { SURFACES } from '../spec/catalog.ts';
import { runTool, tempDir } from './run-cli.ts';

/** `conform init …` run from `dir` (as `npm run conform` would: INIT_CWD names the user's folder). */
const init = (dir: string, ...args: string[]) => runTool('conform', ['init', ...args], { INIT_CWD: dir });

const readJson = (path: string) => JSON.parse(readFileSync(join(PROJECT_ROOT, path), 'utf8')) as { properties?: Record<string, unknown> };

/** `text` with every commented-out key put in force: in each top-level entry (entries are apart by an empty
 * line), the lines from the first commented `"key": ` on lose one `// `. */
function everyKeyInForce(text: string): string {
  return text
    .split('\n\n')
    .map((chunk) => {
      const lines = chunk.split('\n');
      const start = lines.findIndex((l) => /^ {2}\/\/ "[^"]+": /.test(l));
      return start < 0 ? chunk : [...lines.slice(0, start), ...lines.slice(start).map((l) => l.replace(/^ {2}\/\/ /, '  '))].join('\n');
    })
    .join('\n\n');
}

for (const surface of SURFACES) {
  test(`init --surface ${surface}: a description every key of whose schema is commented, read back valid`, async (t) => {
    const dir = tempDir();
    const run = await init(dir, '--surface', surface);
    t.is(run.code, 0, run.stderr);
    const file = join(dir, descriptionFileName(surface));
    t.true(run.stdout.includes(`npx conform --surface ${surface} --target '${surface}=cmd:…' --describe ${surface}=${descriptionFileName(surface)}`), run.stdout);
    const text = readFileSync(file, 'utf8');
    const keys = [
      ...Object.keys(readJson(`conformance/${surface}/description.schema.json`).properties ?? {}),
      ...Object.keys(readJson('conformance/harness/description-common.schema.json').properties ?? {}),
    ];
    t.deepEqual(
      keys.filter((k) => !text.includes(`"${k}": `)),
      [],
      'every key of the schemas is in the file',
    );
    // Wrapped at WIDTH; only the command lines are kept whole.
    t.deepEqual(
      text.split('\n').filter((l) => l.length > WIDTH && !l.includes('npx conform')),
      [],
    );
    const description = readDescription(file, surface);
    t.deepEqual(description.capabilities, []);
    const all = join(dir, 'every-key.jsonc');
    writeFileSync(all, everyKeyInForce(text));
    const everyKey = readDescription(all, surface);
    t.true(
      keys.every((k) => k in everyKey),
      'each commented-out example, put in force, follows the schema',
    );
  });
}

// A setup of the kind the suite sends (conformance/gateway/README.md), checked against the neutral schema.
const NEUTRAL = {
  global: { admin: { bind: '127.0.0.1:41235', token: 'tok-3f0c' }, shutdownTimeoutSecs: 2 },
  sites: [
    {
      host: 'one.test',
      port: 41234,
      routes: [{ path: '/api', strategy: 'weighted-round-robin', targets: [{ url: 'http://127.0.0.1:40001', weight: 3 }, { url: 'http://127.0.0.1:40002' }] }],
      rateLimit: { requests: 100, windowMs: 60000, routes: { '/api': { requests: 3, windowMs: 60000 } } },
      cache: { ttlMs: 60000, maxEntries: 1000 },
    },
    { port: 41236, routes: [{ path: '/', targets: [{ url: 'http://127.0.0.1:40003' }] }] },
  ],
};

test('init --surface gateway: the adapter skeleton passes the neutral setup through; a run uses it and the description', async (t) => {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  t.true(ajv.validate(readJson('conformance/gateway/neutral-setup.schema.json'), NEUTRAL), ajv.errorsText());
  const dir = tempDir();
  const made = await init(dir, '--surface', 'gateway', '--out', 'my gw');
  t.is(made.code, 0, made.stderr);
  const out = join(dir, 'my gw');
  t.deepEqual(readdirSync(out).sort(), ['gateway-adapter.mjs', 'gateway.description.jsonc']);
  const description = readDescription(join(out, 'gateway.description.jsonc'), 'gateway');
  const adapter = join(out, 'gateway-adapter.mjs');
  // A path the shell must see quoted is written absolute (a quoted word is not read from the caller's folder).
  t.is(description.adapter, `node '${adapter}'`);
  t.regex(made.stdout, /--describe 'gateway=my gw\/gateway\.description\.jsonc'/);
  const passed = spawnSync(process.execPath, [adapter], { input: JSON.stringify(NEUTRAL), encoding: 'utf8' });
  t.is(passed.status, 0, passed.stderr);
  t.deepEqual(JSON.parse(passed.stdout), NEUTRAL);
  const refused = spawnSync(process.execPath, [adapter], { input: 'not json', encoding: 'utf8' });
  t.is(refused.status, 2);
  t.regex(refused.stderr, /not JSON/);

  // The runner reads the description (comments and all) and stages the case's setup through the adapter.
  const mark = join(dir, 'adapter-ran');
  writeFileSync(adapter, `${readFileSync(adapter, 'utf8')}import { appendFileSync } from 'node:fs';\nappendFileSync(process.env.INIT_TEST_MARK, 'ran\\n');\n`);
  const run = await runTool(
    'conform',
    ['--surface', 'gateway', '--describe', 'gateway=my gw/gateway.description.jsonc', '--only', 'gateway/admin/success-status-ok/status-ok-field', '--report-dir', 'reports', '--pass-with-no-cases'],
    { INIT_CWD: dir, INIT_TEST_MARK: mark },
  );
  t.is(run.code, 0, run.stdout + run.stderr);
  t.regex(run.stdout, /passed 1, failed 0, error 0/);
  t.true(existsSync(mark), 'the adapter rendered the setup');
});

test('init keeps existing files unless --force', async (t) => {
  const dir = tempDir();
  t.is((await init(dir, '--surface', 'gateway')).code, 0);
  const file = join(dir, 'gateway.description.jsonc');
  writeFileSync(file, '{}');
  const again = await init(dir, '--surface', 'gateway');
  t.is(again.code, 2);
  t.regex(again.stderr, /^error: init: gateway-adapter\.mjs and gateway\.description\.jsonc already there \(--force to overwrite\)$/m);
  t.is(readFileSync(file, 'utf8'), '{}');
  const forced = await init(dir, '--surface', 'gateway', '--force');
  t.is(forced.code, 0, forced.stderr);
  t.not(readFileSync(file, 'utf8'), '{}');
});

test('init: an unknown surface, no surface or an unknown command is a usage error; --help writes nothing', async (t) => {
  const dir = tempDir();
  const unknown = await init(dir, '--surface', 'gatewy');
  t.is(unknown.code, 2);
  t.regex(unknown.stderr, new RegExp(`unknown surface \\(known: ${SURFACES.join(', ')}\\)`));
  const none = await init(dir);
  t.is(none.code, 2);
  t.regex(none.stderr, /give one --surface NAME/);
  const command = await runTool('conform', ['frobnicate'], { INIT_CWD: dir });
  t.is(command.code, 2);
  t.regex(command.stderr, /unknown command "frobnicate" \(commands: init/);
  const help = await init(dir, '--help');
  t.is(help.code, 0);
  t.regex(help.stdout, /^Usage: .* init --surface NAME \[--out DIR\] \[--force\]/);
  t.deepEqual(readdirSync(dir), []);
});
