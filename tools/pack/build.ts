// What `npm pack` ships built (run by the prepack script; postpack removes dist/): the runner
// (dist/conform.mjs), every suite's test files (dist/conformance/**/*.test.mjs, their shared code in chunks),
// and the reference servers' bundles (.cache/reference/, as the runner builds them for itself). dist/built.json,
// written last, switches an installed copy to them (conformance/harness/packaged.ts): no bundler and no
// TypeScript loader at the user's run time. Packages stay outside the bundles (the package's dependencies).
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildSync } from 'esbuild';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import { BUILT_MARKER } from '../../conformance/harness/packaged.ts';
import { loadReferenceTargets } from '../../conformance/harness/reference-targets.ts';
import { SUITE_BUILD } from '../conform/compile-suites.ts';
import { catalogHash } from '../spec/catalog.ts';

const DIST = join(PROJECT_ROOT, 'dist');

const testFiles = readdirSync(join(PROJECT_ROOT, 'conformance'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => join(PROJECT_ROOT, 'conformance', f));

rmSync(DIST, { recursive: true, force: true });
loadReferenceTargets();
buildSync({
  entryPoints: [
    { in: join(PROJECT_ROOT, 'tools', 'conform', 'main.ts'), out: 'conform' },
    // What a direct ava run of a suite imports by a computed name (run-env.ts directRunOnly).
    { in: join(PROJECT_ROOT, 'conformance', 'harness', 'reference-targets.ts'), out: 'harness/reference-targets' },
    { in: join(PROJECT_ROOT, 'tools', 'spec', 'catalog.ts'), out: 'harness/catalog' },
    ...testFiles.map((file) => ({ in: file, out: relative(PROJECT_ROOT, file).replace(/\.ts$/, '') })),
  ],
  outdir: DIST,
  ...SUITE_BUILD,
  // The suites share the harness: one copy of it in chunks.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
});
const { version } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };
writeFileSync(BUILT_MARKER, `${JSON.stringify({ version, catalog: catalogHash(), suites: testFiles.length }, null, 2)}\n`);
console.log(`built: dist/conform.mjs, ${testFiles.length} suite files, the reference bundles (.cache/reference)`);
