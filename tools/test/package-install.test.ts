// The harness as a user gets it (issue 32): `npm run package` packs the built runner, suites and reference
// bundles; installed from that tarball into an empty folder (npm's defaults, install scripts and all), the
// `conform` command runs from that folder with relative paths, no TypeScript loader and no bundler: its
// version, `init`, and gateway cases against the installed reference gateway started by a relative path.
// npm leaves out the optional onnxruntime-node there (its install script is not run): the translate reference
// starts without it, its cases pass, and the run names the package with the line that adds it.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { tempDir } from './run-cli.ts';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';

const run = (cwd: string, command: string, args: string[]): string =>
  execFileSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, INIT_CWD: cwd, npm_config_ignore_scripts: '' }, stdio: ['ignore', 'pipe', 'pipe'] });

test('installed from its tarball into an empty folder, conform runs there with relative paths', async (t) => {
  const packs = tempDir();
  run(PROJECT_ROOT, 'npm', ['run', 'package', '--', '--out', packs]);
  t.false(existsSync(join(PROJECT_ROOT, 'dist')), 'dist/ is removed after packing');
  const tarball = readdirSync(packs).find((f) => f.endsWith('.tgz'));
  if (!t.truthy(tarball, 'no tarball')) return;
  const user = tempDir();
  writeFileSync(join(user, 'package.json'), '{"name": "a-user", "private": true}\n');
  run(user, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(packs, tarball!)]);
  const installed = join(user, 'node_modules', 'spec-conformance-harness');
  t.false(existsSync(join(user, 'node_modules', 'tsx')), 'no TypeScript loader installed');
  t.false(existsSync(join(user, 'node_modules', 'esbuild')), 'no bundler installed');
  const { version } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };
  t.regex(run(user, 'npx', ['conform', '--version']), new RegExp(`^conform ${version.replace(/\./g, '\\.')} \\(catalog [0-9a-f]{12}: `));
  run(user, 'npx', ['conform', 'init', '--surface', 'gateway']);
  t.true(existsSync(join(user, 'gateway.description.jsonc')) && existsSync(join(user, 'gateway-adapter.mjs')));
  const described = JSON.parse(readFileSync(join(installed, 'conformance/gateway/reference-target/description.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(user, 'mine.json'), JSON.stringify({ ...described, cli: 'node node_modules/spec-conformance-harness/reference/gateway/bin/gateway.js' }));
  const out = run(user, 'npx', [
    'conform',
    '--surface',
    'gateway',
    '--target',
    'gateway=cmd:node node_modules/spec-conformance-harness/reference/gateway/bin/gateway.js run -c {config}',
    '--describe',
    'gateway=mine.json',
    '--only',
    'gateway/data-plane/**',
    '--only',
    'gateway/cli/validate*/**',
  ]);
  t.regex(out, /failed 0, error 0/);
  t.true(existsSync(join(user, 'reports', 'report.json')), 'the reports are in the user’s folder');

  t.false(existsSync(join(user, 'node_modules', 'onnxruntime-node')), 'npm installed the optional onnxruntime-node: this part proves nothing');
  const translate = run(user, 'npx', ['conform', '--surface', 'translate', '--only', 'translate/capabilities/**', '--only', 'translate/synthesize/**', '--only', 'translate/models/**']);
  t.regex(translate, /failed 0, error 0/);
  t.regex(translate, /^missing npm package onnxruntime-node \(optional\): .*; add it with: npm install onnxruntime-node@[\d.]+ --ignore-scripts$/m);
});
