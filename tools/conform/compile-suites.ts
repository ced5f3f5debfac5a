// The suites as the runner runs them: every test file bundled with esbuild (the project's modules inlined,
// packages left to Node) into a folder of the run's own under .cache/conformance/, so ava's workers start
// without a TypeScript loader (about half a second of CPU less per test file). Source maps keep failures
// pointing at the .ts lines.
import { mkdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildSync } from 'esbuild';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';

export const COMPILED_CONFIG = join(PROJECT_ROOT, 'conformance', 'ava.compiled.config.mjs');

export interface CompiledSuites {
  /** The bundled test files, relative to the project root, in the order given. */
  files: string[];
  /** The test file (relative to the project root) a bundled one (absolute path) was built from. */
  sourceOf(compiled: string): string;
  remove(): void;
}

export function compileSuites(files: string[]): CompiledSuites {
  const outdir = join(PROJECT_ROOT, '.cache', 'conformance', `run-${process.pid}`);
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  try {
    build(files, outdir);
  } catch (err) {
    rmSync(outdir, { recursive: true, force: true });
    throw err;
  }
  return {
    files: files.map((f) => relative(PROJECT_ROOT, join(outdir, f.replace(/\.ts$/, '.mjs')))),
    sourceOf: (compiled) => relative(outdir, compiled).replace(/\.mjs$/, '.ts'),
    remove: () => rmSync(outdir, { recursive: true, force: true }),
  };
}

function build(files: string[], outdir: string): void {
  buildSync({
    entryPoints: files.map((f) => join(PROJECT_ROOT, f)),
    outbase: PROJECT_ROOT,
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'error',
  });
}
