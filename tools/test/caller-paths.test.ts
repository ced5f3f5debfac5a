// The runner works from the caller's folder (issue 32): relative paths on its command line, and the files a
// target's command names, are the caller's (INIT_CWD, which npm and npx set to the folder the command was
// typed in), not this package's.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import { loadReferenceTargets } from '../../conformance/harness/reference-targets.ts';
import { commandFromCaller, describedFromCaller } from '../conform/caller-paths.ts';
import { runTool, tempDir } from './run-cli.ts';

test('bare words naming the caller’s files are made absolute; other words, quotes and placeholders stay', (t) => {
  const cwd = tempDir();
  mkdirSync(join(cwd, 'bin'));
  writeFileSync(join(cwd, 'server.mjs'), '');
  writeFileSync(join(cwd, 'bin', 'serve'), '');
  writeFileSync(join(cwd, 'run'), '');
  t.is(commandFromCaller('node server.mjs --port {port}', cwd), `node ${join(cwd, 'server.mjs')} --port {port}`);
  t.is(commandFromCaller('./bin/serve -c {config}', cwd), `${join(cwd, 'bin/serve')} -c {config}`);
  t.is(commandFromCaller('node {root}/x.mjs run', cwd), 'node {root}/x.mjs run', 'placeholders, and words without . or /');
  t.is(commandFromCaller("sh -c 'node server.mjs' missing.mjs", cwd), "sh -c 'node server.mjs' missing.mjs", 'quoted or absent');
  t.is(commandFromCaller('FOO=server.mjs /usr/bin/env node', cwd), 'FOO=server.mjs /usr/bin/env node');
  t.deepEqual(describedFromCaller({ adapter: 'node server.mjs', variants: { a: { command: 'bin/serve' } }, note: 'server.mjs' }, cwd), {
    adapter: `node ${join(cwd, 'server.mjs')}`,
    variants: { a: { command: join(cwd, 'bin/serve') } },
    note: 'server.mjs',
  });
});

test('a run from another folder: relative --describe, --report-dir and cmd:node server.mjs are that folder’s', async (t) => {
  const { static: reference } = loadReferenceTargets(['static']);
  const caller = tempDir();
  // The user's server: here the reference, started from a file of the caller's folder.
  const bundle = reference!.command!.replace(/^node /, '').replace('{root}', PROJECT_ROOT);
  writeFileSync(join(caller, 'server.mjs'), `await import(${JSON.stringify(bundle)});\n`);
  writeFileSync(join(caller, 'mine.json'), JSON.stringify({ env: { STATIC_BIND: '127.0.0.1' } }));
  const run = await runTool(
    'conform',
    ['--surface', 'static', '--target', 'static=cmd:node server.mjs', '--describe', 'static=mine.json', '--only', 'static/health/default-path/**', '--report-dir', 'out'],
    { INIT_CWD: caller },
  );
  t.is(run.code, 0, `${run.stdout.slice(-1500)}\n${run.stderr}`);
  t.true(existsSync(join(caller, 'out', 'report.json')), 'the reports are in the caller’s folder');
  t.regex(run.stdout, /reports: out\/report\.json/);
});
