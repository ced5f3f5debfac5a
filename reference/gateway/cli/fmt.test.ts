// `gateway fmt`: canonical output in the file's own format, comments kept, --write in place, and never a
// change to a file that does not parse. Property: any value, however written, formats to the same value
// and formatting is stable.
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import test from 'ava';
import fc from 'fast-check';
import { parse, stringify } from 'yaml';
import { formatConfigText } from '../config/format-config.ts';
import { UsageError } from './admin-client.ts';
import { captureIo } from './capture-io.ts';
import { runFmt } from './fmt.ts';

const dir = mkdtempSync(join(tmpdir(), 'gateway-fmt-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

let count = 0;
function file(name: string, content: string): { cwd: string; path: string } {
  const cwd = join(dir, `case ${count++} #ü`);
  mkdirSync(cwd);
  const path = join(cwd, name);
  writeFileSync(path, content);
  return { cwd, path };
}

const MESSY = `# The gateway
global:
    admin: {bind: "127.0.0.1:2019"}   # loopback only

# sites below
sites:
-   port: 8080
    routes:
    -   path: /api # the API
        targets:
        - url: http://127.0.0.1:9001
          weight: 3
`;

const CANONICAL = `# The gateway
global:
  admin: { bind: "127.0.0.1:2019" } # loopback only

# sites below
sites:
  - port: 8080
    routes:
      - path: /api # the API
        targets:
          - url: http://127.0.0.1:9001
            weight: 3
`;

test('YAML to stdout, comments kept, file untouched', async (t) => {
  const { cwd, path } = file('gateway.yaml', MESSY);
  const io = captureIo(cwd);
  t.is(await runFmt([], io), 0);
  t.is(io.stdoutText, CANONICAL);
  t.is(io.stderrText, '');
  t.is(readFileSync(path, 'utf8'), MESSY);
});

test('--write rewrites in place, then finds nothing to do', async (t) => {
  const { cwd, path } = file('gâte way.yml', MESSY);
  chmodSync(path, 0o600);
  const first = captureIo(cwd);
  t.is(await runFmt(['-c', 'gâte way.yml', '--write'], first), 0);
  t.is(readFileSync(path, 'utf8'), CANONICAL);
  t.is(first.stdoutText, `${path}: formatted\n`);
  t.is(statSync(path).mode & 0o777, 0o600);
  const second = captureIo(cwd);
  t.is(await runFmt(['-c', path, '-w'], second), 0);
  t.is(second.stdoutText, `${path}: already formatted\n`);
  t.is(readFileSync(path, 'utf8'), CANONICAL);
});

test('JSON in JSON: two-space indentation, key order kept', async (t) => {
  const { cwd, path } = file('gateway.json', '{"sites":[{"port":8080,"host":"a.test","routes":[]}],"global":{}}');
  const io = captureIo(cwd);
  t.is(await runFmt(['-c', 'gateway.json', '--write'], io), 0);
  t.is(
    readFileSync(path, 'utf8'),
    '{\n  "sites": [\n    {\n      "port": 8080,\n      "host": "a.test",\n      "routes": []\n    }\n  ],\n  "global": {}\n}\n',
  );
});

test('a link is followed: the target rewritten, the link kept', async (t) => {
  const { cwd, path } = file('real.yaml', MESSY);
  symlinkSync(path, join(cwd, 'gateway.yaml'));
  t.is(await runFmt(['--write'], captureIo(cwd)), 0);
  t.true(lstatSync(join(cwd, 'gateway.yaml')).isSymbolicLink());
  t.is(readFileSync(path, 'utf8'), CANONICAL);
});

test('a parseable but invalid config is formatted all the same', async (t) => {
  const { cwd } = file('gateway.yaml', 'sites:\n- port: "eighty"\n  unknownKey:   1\n');
  const io = captureIo(cwd);
  t.is(await runFmt([], io), 0);
  t.is(io.stdoutText, 'sites:\n  - port: "eighty"\n    unknownKey: 1\n');
});

// [what, name, content, stderr after `error: <path>: `]
const refused: [string, string, string, RegExp][] = [
  ['YAML that does not parse', 'gateway.yaml', 'sites: [\n  - port: 1\n', /^invalid YAML: /],
  ['JSON that does not parse', 'gateway.json', '{"sites": [}', /^invalid JSON: /],
  ['a number JSON cannot hold', 'gateway.json', '{"sites": 1e400}', /cannot be formatted without changing a value/],
  ['a duplicate JSON key', 'gateway.json', '{"a": 1, "a": 2}', /^duplicate key$/],
];

for (const [what, name, content, reason] of refused) {
  test(`refused, file untouched: ${what}`, async (t) => {
    const { cwd, path } = file(name, content);
    const before = statSync(path).mtimeMs;
    const io = captureIo(cwd);
    t.is(await runFmt(['-c', name, '--write'], io), 1);
    t.is(io.stdoutText, '');
    const [, field = '', rest = ''] = /^error: (.*?): (.*)\n$/.exec(io.stderrText) ?? [];
    t.true(field === path || field === 'a', io.stderrText);
    t.regex(rest, reason);
    t.is(readFileSync(path, 'utf8'), content);
    t.is(statSync(path).mtimeMs, before);
  });
}

test('a missing file: exit 1 naming it', async (t) => {
  const io = captureIo(dir);
  t.is(await runFmt(['-c', 'nowhere.yaml'], io), 1);
  t.regex(io.stderrText, /^error: .*nowhere\.yaml: cannot read the config file/);
});

test('fmt: unknown flags are usage errors', async (t) => {
  await t.throwsAsync(runFmt(['--check'], captureIo(dir)), { instanceOf: UsageError });
  await t.throwsAsync(runFmt(['gateway.yaml'], captureIo(dir)), { instanceOf: UsageError });
});

// Values as a config holds them: nested objects and lists of strings, integers and booleans.
const key = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,8}$/);
const leaf = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.boolean(), fc.constant(null));
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('list'), tie('object')),
  list: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(key, tie('value'), { maxKeys: 4, noNullPrototype: true }),
}));
const document = fc.dictionary(key, value, { minKeys: 1, maxKeys: 5, noNullPrototype: true });

test('property: any YAML, however written, formats to the same value, and formatting again changes nothing', (t) => {
  fc.assert(
    fc.property(document, fc.integer({ min: 2, max: 6 }), fc.constantFrom('any', 'flow') as fc.Arbitrary<'any' | 'flow'>, fc.boolean(), (doc, indent, collectionStyle, indentSeq) => {
      const text = stringify(doc, { indent, indentSeq, collectionStyle });
      const once = formatConfigText(text, 'yaml', 'gateway.yaml');
      return isDeepStrictEqual(parse(once), parse(text)) && formatConfigText(once, 'yaml', 'gateway.yaml') === once;
    }),
    { numRuns: 150 },
  );
  t.pass();
});

test('property: any JSON formats to the same value, and formatting again changes nothing', (t) => {
  fc.assert(
    fc.property(document, fc.integer({ min: 0, max: 4 }), (doc, indent) => {
      const text = JSON.stringify(doc, null, indent);
      const once = formatConfigText(text, 'json', 'gateway.json');
      return isDeepStrictEqual(JSON.parse(once), doc) && formatConfigText(once, 'json', 'gateway.json') === once;
    }),
    { numRuns: 150 },
  );
  t.pass();
});
