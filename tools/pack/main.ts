// `npm run package [-- --out DIR]`: the package a user installs, as a tarball in DIR (default the current
// folder): the built runner, suites and reference bundles (build.ts) packed with `npm pack`, then dist/ removed
// again, so this checkout goes on building what it runs. (Lifecycle scripts are off in this project's .npmrc:
// a prepack hook would not run.)
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';

const { values } = parseArgs({ options: { out: { type: 'string' } } });
const out = resolve(process.env.INIT_CWD ?? process.cwd(), values.out ?? '.');
mkdirSync(out, { recursive: true });
try {
  execFileSync(process.execPath, ['--import', 'tsx', 'tools/pack/build.ts'], { cwd: PROJECT_ROOT, stdio: 'inherit' });
  const name = execFileSync('npm', ['pack', '--pack-destination', out], { cwd: PROJECT_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim().split('\n').at(-1);
  console.log(`packed: ${resolve(out, name ?? '')}`);
} finally {
  rmSync(resolve(PROJECT_ROOT, 'dist'), { recursive: true, force: true });
}
