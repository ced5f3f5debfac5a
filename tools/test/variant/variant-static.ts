// A permitted-variant static/proxy server: the reference server run in this process, with the variants of
// VARIANTS=a,b,... (variant-static-variants.ts) laid over what document 002 leaves open: its own help,
// --init and cluster manager where those are on, and otherwise the reference's command with its output,
// signals and answers changed (variant-static-http.ts). It is the twin of the faulty server: a target the
// suite must judge conforming.
import { existsSync, readFileSync, WriteStream, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configPath, init, optionValue, runCluster, unknownOption, USAGE, VERSION } from './variant-static-cli.ts';
import { installHttpVariants, type SitePaths } from './variant-static-http.ts';
import { STATIC_VARIANTS, type StaticVariant } from './variant-static-variants.ts';

// Three folders up from here, and from the bundle the project test runs (.cache/variant/static/).
const REFERENCE = fileURLToPath(new URL('../../../.cache/reference/static.mjs', import.meta.url));
const BATCH_MS = 500;
const LOG_FILE_DELAY_MS = 600;

const variants = new Set((process.env.VARIANTS ?? '').split(',').filter(Boolean));
for (const name of variants) {
  if (!(name in STATIC_VARIANTS)) {
    process.stderr.write(`variant-static: unknown variant ${name}; known: ${Object.keys(STATIC_VARIANTS).join(', ')}\n`);
    process.exit(2);
  }
}
const on = (v: StaticVariant): boolean => variants.has(v);
const argv = process.argv.slice(2);

function isCluster(arg: string): boolean {
  return arg === '--cluster' || arg.startsWith('--cluster=');
}

/** The health and upload paths of the config's sites (the answers some variants word differently). */
function sitePaths(file: string): SitePaths {
  const paths: SitePaths = { health: [], upload: [] };
  let sites: Record<string, unknown>[];
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    sites = (Array.isArray(parsed) ? parsed : [parsed]) as Record<string, unknown>[];
  } catch {
    return paths;
  }
  for (const site of sites) {
    const health = site?.healthCheck;
    if (health === true) paths.health.push('/__health__');
    else if (typeof health === 'object' && health !== null) paths.health.push(String((health as { path?: string }).path ?? '/__health__'));
    const uploads = site?.upload;
    for (const upload of Array.isArray(uploads) ? uploads : uploads === undefined ? [] : [uploads]) {
      paths.upload.push(typeof upload === 'object' && upload !== null ? String((upload as { path?: string }).path ?? '/upload') : '/upload');
    }
  }
  return paths;
}

/** Whether `folders` has one of the documented forms: a string, an array of strings, or an object whose
 * values are strings or such objects (nestable). */
function documentedFolders(folders: unknown): boolean {
  if (typeof folders === 'string') return true;
  if (Array.isArray(folders)) return folders.every((f) => typeof f === 'string');
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const mounts = (v: unknown): boolean => typeof v === 'string' || (isObject(v) && Object.values(v).every(mounts));
  return isObject(folders) && mounts(folders);
}

/** The first site whose `folders` is set in none of the documented forms (its index), if any. */
function undocumentedFolders(file: string): number | undefined {
  let sites: Record<string, unknown>[];
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    sites = (Array.isArray(parsed) ? parsed : [parsed]) as Record<string, unknown>[];
  } catch {
    return undefined; // the reference reports what is wrong with the file
  }
  const index = sites.findIndex((site) => site?.folders !== undefined && !documentedFolders(site.folders));
  return index === -1 ? undefined : index;
}

/** The field an upload without fieldName takes with upload-field. */
const UPLOAD_FIELD = 'attachment';
/** The value of NODE_ENV that selects production with mode-env-alt. */
const PRODUCTION_VALUE = 'live';

/** With mode-env-alt: NODE_ENV as the reference reads it (production only for PRODUCTION_VALUE), once per
 * process tree (a cluster's workers inherit the mapped value). */
function mapMode(): void {
  if (process.env.VARIANT_MODE_MAPPED !== undefined) return;
  process.env.NODE_ENV = process.env.NODE_ENV === PRODUCTION_VALUE ? 'production' : 'development';
  process.env.VARIANT_MODE_MAPPED = '1';
}

/** With upload-field: the config with `fieldName` set on every upload entry without one, written beside the
 * original (relative paths resolve the same) and named to the reference with --config. */
function uploadFieldConfig(file: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return; // the reference reports what is wrong with the file
  }
  const withField = (entry: unknown): unknown => {
    if (typeof entry === 'string') return { dir: entry, fieldName: UPLOAD_FIELD };
    if (typeof entry === 'object' && entry !== null && (entry as { fieldName?: unknown }).fieldName === undefined) return { ...entry, fieldName: UPLOAD_FIELD };
    return entry;
  };
  const site = (s: unknown): unknown => {
    if (typeof s !== 'object' || s === null || (s as { upload?: unknown }).upload === undefined) return s;
    const upload = (s as { upload: unknown }).upload;
    return { ...s, upload: Array.isArray(upload) ? upload.map(withField) : withField(upload) };
  };
  const changed = Array.isArray(parsed) ? parsed.map(site) : site(parsed);
  if (JSON.stringify(changed) === JSON.stringify(parsed)) return;
  const copy = join(dirname(file), '.variant-server-config.json');
  writeFileSync(copy, JSON.stringify(changed));
  const args = process.argv.slice(2);
  const at = args.findIndex((a) => a === '--config' || a.startsWith('--config='));
  if (at !== -1) args.splice(at, args[at] === '--config' ? 2 : 1);
  process.argv.splice(2, process.argv.length - 2, ...args, '--config', copy);
}

/** Replaces a stream's write with one that passes each chunk of text through `change` (lines whole). */
function rewriteStream(stream: NodeJS.WriteStream, change: (text: string) => string): void {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    const changed = change(text);
    if (changed === '') {
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      if (done) process.nextTick(done);
      return true;
    }
    return write(changed, ...rest);
  }) as typeof stream.write;
}

/** stdout written in batches: what a server buffering its output shows. */
function batchStdout(): void {
  const write = process.stdout.write.bind(process.stdout) as (chunk: string) => boolean;
  let pending = '';
  const flush = () => {
    if (pending !== '') write(pending);
    pending = '';
  };
  setInterval(flush, BATCH_MS).unref();
  process.on('exit', () => {
    if (pending !== '') writeSync(1, pending);
  });
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
    pending += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    if (done) process.nextTick(done);
    return true;
  }) as typeof process.stdout.write;
}

/** Appends to files (the access log) land a moment later. */
function delayAppends(): void {
  const write = WriteStream.prototype.write;
  WriteStream.prototype.write = function (this: WriteStream & { flags?: string }, ...args: unknown[]): boolean {
    if (this.flags !== 'a') return (write as (...a: unknown[]) => boolean).apply(this, args);
    setTimeout(() => (write as (...a: unknown[]) => boolean).apply(this, args), LOG_FILE_DELAY_MS);
    return true;
  } as typeof WriteStream.prototype.write;
}

/** Signal handlers the reference registers are dropped: SIGTERM and SIGINT keep their default action. */
function noSignalHandlers(): void {
  for (const method of ['on', 'once', 'addListener', 'prependListener'] as const) {
    const original = process[method].bind(process) as (event: string | symbol, listener: (...args: unknown[]) => void) => NodeJS.Process;
    (process as unknown as Record<string, unknown>)[method] = (event: string | symbol, listener: (...args: unknown[]) => void) =>
      event === 'SIGTERM' || event === 'SIGINT' ? process : original(event, listener);
  }
}

async function main(): Promise<void> {
  if (on('help-alt')) {
    if (argv.includes('--help')) {
      process.stderr.write(USAGE);
      process.exit(0);
    }
    if (argv.includes('--version')) {
      process.stdout.write(`${VERSION}\n`);
      process.exit(0);
    }
    const unknown = unknownOption(argv);
    if (unknown !== undefined) {
      process.stderr.write(`error: unknown option ${unknown}; see --help\n`);
      process.exit(1);
    }
  }
  if (on('init-tty') && argv.includes('--init')) process.exit(await init(argv));
  if (on('cluster-foreground') && argv.some(isCluster)) process.exit(await runCluster(argv));

  const serving = !argv.some((a) => a === '--help' || a === '-h' || a === '--init' || isCluster(a));
  const config = configPath(argv);
  const hasConfig = existsSync(config);
  if (serving) {
    if (on('no-config-8000') && !hasConfig && optionValue(argv, '--config') === undefined) process.env.PORT = '8000';
    if (on('buffered-logs')) {
      batchStdout();
      delayAppends();
    }
    if (on('banner') && process.env.VARIANT_CLUSTER_WORKER === undefined) {
      process.stdout.write(`${VERSION} (a permitted variant of the static/proxy server)\n`);
      process.stdout.write(`config: ${hasConfig ? config : 'none, built-in settings'}\n`);
      process.stderr.write('notice: request log lines follow on stdout\n');
    }
    if (on('banner')) rewriteStream(process.stdout, (text) => text.replace(/^listening on (\S+)$/gm, 'Server ready at $1/'));
    if (on('no-config-8000')) {
      rewriteStream(process.stderr, (text) =>
        text.replace(/^warning: no server-config\.json found.*\n?/m, () => {
          process.stdout.write(`Note: no server-config.json here, so built-in settings are in use (this folder on port ${process.env.PORT}).\n`);
          return '';
        }),
      );
    }
    if (on('other-errors')) {
      rewriteStream(process.stderr, (text) => text.replace(/^error: (\S+): (.*)$/gm, 'The server cannot start.\n  $2 (setting $1)'));
      const exit = process.exit.bind(process);
      process.exit = ((code?: number) => exit(code === 1 ? 3 : code)) as typeof process.exit;
    }
    if (on('no-sigterm')) noSignalHandlers();
    if (on('mode-env-alt')) mapMode();
    if (on('upload-field') && hasConfig) uploadFieldConfig(config);
    const refused = on('strict-folders') && hasConfig ? undocumentedFolders(config) : undefined;
    if (refused !== undefined) {
      process.stderr.write(`error: folders (site ${refused + 1}): use a folder, an array of folders or an object of mount paths\n`);
      process.exit(1);
    }
  }
  installHttpVariants(on, hasConfig ? sitePaths(config) : { health: [], upload: [] });

  // Run with --target, the runner builds no reference bundle: the variant's project test builds it.
  if (!existsSync(REFERENCE)) {
    process.stderr.write(`variant-static: no reference bundle at ${REFERENCE} (npm run conform -- --surface static builds it)\n`);
    process.exit(2);
  }
  await import(REFERENCE);
}

await main();
