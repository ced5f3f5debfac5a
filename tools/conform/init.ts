// `conform init --surface NAME`: writes, in the user's folder, a starting target description for a surface —
// every key commented with what it is for, from the surface's description schema (description-template.ts) —
// and for the gateway an adapter skeleton the description runs. Existing files are kept unless --force.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { shellQuote } from '../../conformance/harness/launch.ts';
import { PROJECT_ROOT } from '../../conformance/harness/project-root.ts';
import { type ReferenceEntry, readEntries } from '../../conformance/harness/reference-targets.ts';
import { COMMON_SCHEMA, descriptionSchemaFile, readDescription } from '../../conformance/harness/target-description.ts';
import { SURFACES, type Surface } from '../spec/catalog.ts';
import { CALLER_CWD, fromCaller } from './caller-paths.ts';
import { descriptionTemplate, type SchemaNode } from './description-template.ts';
import { GATEWAY_ADAPTER_NAME, gatewayAdapterTemplate } from './gateway-adapter-template.ts';
import { UsageError } from './usage-error.ts';

export const INIT_USAGE = `Usage: npm run conform -- init --surface NAME [--out DIR] [--force]

Writes a starting target description for surface NAME, NAME.description.jsonc, in the current folder (or
DIR): every key the suite reads, commented with what it is for (from conformance/NAME/description.schema.json),
the keys most targets need in force and the others commented out with an example. For the gateway also
${GATEWAY_ADAPTER_NAME}, an adapter skeleton (the neutral setup on stdin, your gateway's config on stdout),
which the description's \`adapter\` runs. Then it prints the command line that uses them.

  --surface NAME   one of: ${SURFACES.join(', ')}
  --out DIR        the folder to write in (made if missing; default: the current folder)
  --force          overwrite files already there (without it, an existing file is a usage error, exit 2)
  --help           this text

The description is JSON with comments: // and /* */ comments and trailing commas are allowed.`;

/** The file name of a surface's starting description. */
export const descriptionFileName = (surface: string): string => `${surface}.description.jsonc`;

/** What the file writes for a surface beyond the schema: keys in force, and example values. */
interface Seed {
  /** Keys written in force: their value from `values`, else the reference's description. */
  present: string[];
  /** Values for keys (in force or commented out); a key with none takes the reference's, else its type's. */
  values: Record<string, unknown>;
}

/** Examples of the runner's own keys, for every surface. */
const COMMON_VALUES: Record<string, unknown> = {
  env: { LOG_LEVEL: 'warn' },
  aliasCommand: '/path/to/short-alias --its-options',
};

const GATEWAY_CONFIG_NAME = 'gateway.json';

const SEEDS: Record<Surface, Seed> = {
  static: {
    present: [],
    values: {
      clusterConfig: { name: 'cluster.json', content: '{ "workers": 2 }', workers: 2 },
      modeEnv: { development: { NODE_ENV: 'development' }, production: { NODE_ENV: 'production' } },
      uploadField: 'file',
    },
  },
  // The model key and pair are what nearly every case sends: written in force, with the reference's values.
  translate: {
    present: ['defaultModel', 'pair'],
    values: { variants: { 'stt-unconfigured': { env: { Translation__AudioToText: 'null' } }, 'short-ttl': { env: { ModelTtlMinutes: '0.02' } } } },
  },
  'translate-tools': { present: [], values: {} },
  'translate-web': { present: [], values: { bodies: { names: 'json', bytes: 'base64' } } },
  // The adapter (written beside) and the file name it writes for: in force, so that the run uses them.
  gateway: {
    present: ['adapter', 'configName'],
    values: { configName: GATEWAY_CONFIG_NAME, cli: '/path/to/gateway-cli', versionArgs: ['--version'] },
  },
  recipes: {
    present: [],
    values: { shapes: { rename: { recipe: { title: 'name' } }, at: { token: '/token', items: '/items' } } },
  },
};

interface InitOptions {
  surface: Surface;
  out: string;
  force: boolean;
}

function parseInitOptions(argv: string[]): InitOptions | 'help' {
  let values: { surface?: string[]; out?: string; force?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: { surface: { type: 'string', multiple: true }, out: { type: 'string' }, force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (err) {
    throw new UsageError(`init: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (values.help) return 'help';
  const surfaces = values.surface ?? [];
  if (surfaces.length !== 1) throw new UsageError(`init: give one --surface NAME (${SURFACES.join(', ')})`);
  const surface = surfaces[0]!;
  if (!(SURFACES as readonly string[]).includes(surface)) throw new UsageError(`init --surface ${surface}: unknown surface (known: ${SURFACES.join(', ')})`);
  if (values.out === '') throw new UsageError('init --out: empty folder name');
  return { surface: surface as Surface, out: fromCaller(values.out ?? '.'), force: values.force === true };
}

/** The reference target's description of `surface` ({} without one) and the capabilities it declares (launch,
 * which any cmd: target has, left out). */
function referenceOf(surface: Surface): { description: Record<string, unknown>; capabilities: string[] } {
  const entry: Partial<ReferenceEntry> = readEntries()[surface] ?? {};
  const description = entry.describe ? readDescription(join(PROJECT_ROOT, entry.describe), surface) : {};
  const capabilities = [...(entry.capabilities ?? []), ...((description.capabilities as string[] | undefined) ?? []), ...(entry.aliasCommand ? ['alias'] : [])];
  return { description, capabilities: [...new Set(capabilities)].filter((c) => c !== 'launch') };
}

const readSchema = (file: string): SchemaNode => JSON.parse(readFileSync(file, 'utf8')) as SchemaNode;

/** A path as the user would type it from their folder. */
function callerPath(path: string): string {
  const rel = relative(CALLER_CWD, path);
  return rel === '' ? '.' : rel.startsWith('..') && rel.split(sep).length > 3 ? path : rel;
}

/** The command line that runs the suite of `surface` with the description in `file`. */
const useLine = (surface: Surface, file: string): string =>
  `npx conform --surface ${surface} --target '${surface}=cmd:…' --describe ${shellQuote(`${surface}=${callerPath(file)}`)}`;

/** The files `init` writes for `surface` into `out`, by name. */
export function initFiles(surface: Surface, out: string): Record<string, string> {
  const seed = SEEDS[surface];
  const reference = referenceOf(surface);
  const descriptionFile = join(out, descriptionFileName(surface));
  const schemaFile = descriptionSchemaFile(surface);
  const common = readSchema(COMMON_SCHEMA);
  const values: Record<string, unknown> = { ...COMMON_VALUES, ...reference.description, ...seed.values };
  const notes: Record<string, string[]> = {
    capabilities: [
      `Written empty: add the names of what your target offers (the suite's names are in the text at the top of this file). The reference declares: ${reference.capabilities.join(', ') || 'none beyond launch'}.`,
    ],
  };
  const files: Record<string, string> = {};
  if (surface === 'gateway') {
    const adapter = join(out, GATEWAY_ADAPTER_NAME);
    // A bare relative path is read from the caller's folder (caller-paths.ts); one the shell must have quoted
    // is not, so it is written absolute.
    const path = callerPath(adapter);
    values.adapter = `node ${shellQuote(path) === path ? path : shellQuote(adapter)}`;
    notes.adapter = [
      `Set by conform init to the skeleton it wrote beside this file, ${GATEWAY_ADAPTER_NAME}; a path in a command is read from the folder you run conform in (give it absolute to run from elsewhere).`,
    ];
    files[GATEWAY_ADAPTER_NAME] = gatewayAdapterTemplate(GATEWAY_CONFIG_NAME);
  }
  const use = useLine(surface, descriptionFile);
  const header = [
    `Written by \`conform init --surface ${surface}\`: each key's comment is its description in conformance/${surface}/description.schema.json (or, for the runner's own keys, conformance/harness/description-common.schema.json). Keys commented out are optional: remove one \`// \` from each of their lines to use one. JSON with comments: // and /* */ comments and trailing commas are allowed. The file is checked against the schema when read: an unknown or misspelt key is named.`,
    '',
    `Use it (…: your target's command line, placeholders {port} {config} {dir}; see conformance/${surface}/README.md):`,
    `  ${use}`,
  ];
  const present: Record<string, unknown> = {
    $schema: schemaFile.startsWith(out + sep) ? relative(out, schemaFile) : pathToFileURL(schemaFile).href,
    ...Object.fromEntries(seed.present.map((k) => [k, values[k]])),
    capabilities: [],
  };
  files[descriptionFileName(surface)] = descriptionTemplate({ schema: readSchema(schemaFile), common, header, present, examples: values, notes });
  return files;
}

/** Runs `conform init`; returns the exit code. */
export function runInit(argv: string[]): number {
  const options = parseInitOptions(argv);
  if (options === 'help') {
    console.log(INIT_USAGE);
    return 0;
  }
  const { surface, out, force } = options;
  const files = initFiles(surface, out);
  const existing = Object.keys(files).filter((name) => existsSync(join(out, name)));
  if (existing.length > 0 && !force) {
    throw new UsageError(`init: ${existing.map((name) => callerPath(join(out, name))).join(' and ')} already there (--force to overwrite)`);
  }
  mkdirSync(out, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(out, name), text);
    if (name.endsWith('.mjs')) chmodSync(join(out, name), 0o755);
    console.log(`wrote ${callerPath(join(out, name))}`);
  }
  console.log(`fill it in (every key is commented), then run:
  ${useLine(surface, join(out, descriptionFileName(surface)))}
(…: your target's command line; placeholders {port} {config} {dir}; see conformance/${surface}/README.md)`);
  return 0;
}
