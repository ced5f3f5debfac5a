// The suites as the runner runs them: each ava worker's test files bundled with esbuild into one module (the
// project's modules inlined, packages left to Node) in a folder of the run's own under .cache/conformance/,
// so ava's workers start without a TypeScript loader (about half a second of CPU less per test file). A
// worker of several files (file-times.ts) gets an entry that imports them in turn; each keeps its own module
// scope in the bundle. Source maps keep failures pointing at the .ts lines.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { buildSync as BuildSync } from 'esbuild';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import { builtSuite, PACKAGED } from '../../conformance/harness/packaged.ts';

export const COMPILED_CONFIG = join(PROJECT_ROOT, 'conformance', 'ava.compiled.config.mjs');

export interface CompiledSuites {
  /** The bundled test files, relative to the project root, one per group, in the order given. */
  files: string[];
  /** The test files (relative to the project root) a bundled one (absolute path) was built from. */
  sourcesOf(compiled: string): string[];
  remove(): void;
}

/** `groups` of test files (relative to the project root), one bundle each. */
export function compileSuites(groups: string[][]): CompiledSuites {
  const outdir = join(PROJECT_ROOT, '.cache', 'conformance', `run-${process.pid}`);
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const outputs = groups.map((files, i) => ({ files, out: outName(files, i) }));
  try {
    if (PACKAGED) link(outputs, outdir);
    else build(outputs, outdir);
  } catch (err) {
    rmSync(outdir, { recursive: true, force: true });
    throw err;
  }
  const sources = new Map(outputs.map((o) => [join(outdir, `${o.out}.mjs`), o.files]));
  return {
    files: outputs.map((o) => relative(PROJECT_ROOT, join(outdir, `${o.out}.mjs`))),
    sourcesOf: (compiled) => sources.get(compiled) ?? [],
    remove: () => rmSync(outdir, { recursive: true, force: true }),
  };
}

/** A single file keeps its path (`conformance/static/cgi.test`); a group is named by its first member and
 * how many more (`shared/static.cgi+2.test`; sourcesOf lists them). */
function outName(files: string[], index: number): string {
  if (files.length === 1) return files[0]!.replace(/\.ts$/, '');
  const first = files[0]!;
  return `shared/${index}-${basename(join(first, '..'))}.${basename(first, '.test.ts')}+${files.length - 1}.test`;
}

/** How suite files are built, here and for the package (tools/pack/build.ts): plain ESM for this Node, the
 * project's modules inlined, packages left to Node, source maps beside. */
export const SUITE_BUILD = {
  outExtension: { '.js': '.mjs' },
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'error',
} as const;

/** An installed package's suites are built already: each worker's module imports its files' built modules. */
function link(outputs: { files: string[]; out: string }[], outdir: string): void {
  for (const { files, out } of outputs) {
    const file = join(outdir, `${out}.mjs`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, files.map((f) => `import ${JSON.stringify(pathToFileURL(builtSuite(f)).href)};\n`).join(''));
  }
}

function build(outputs: { files: string[]; out: string }[], outdir: string): void {
  // Loaded here only: an installed package has no bundler (link above).
  const { buildSync } = createRequire(import.meta.url)('esbuild') as { buildSync: typeof BuildSync };
  const entries = join(outdir, 'entries');
  mkdirSync(entries, { recursive: true });
  const entryPoints = outputs.map(({ files, out }, i) => {
    if (files.length === 1) return { in: join(PROJECT_ROOT, files[0]!), out };
    const entry = join(entries, `worker-${i}.ts`);
    writeFileSync(entry, files.map((f) => `import ${JSON.stringify(join(PROJECT_ROOT, f))};\n`).join(''));
    return { in: entry, out };
  });
  try {
    buildSync({ ...SUITE_BUILD, entryPoints, outdir });
  } finally {
    rmSync(entries, { recursive: true, force: true });
  }
}
