// The contract between the runner (tools/conform) and the suites: everything arrives in environment
// variables, so a suite can also be run with plain `npx ava` (then the surface's reference is the target).
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGED } from './packaged.ts';
import { PROJECT_ROOT } from './project-root.ts';

export type TargetKind = 'cmd' | 'url';

export interface TargetSpec {
  kind: TargetKind;
  /** `cmd`: a command template with {port}, {config}, {dir}, {root} and {node} (this Node binary) placeholders. */
  command?: string;
  /** `cmd`: extra environment for the command. */
  env?: Record<string, string>;
  /** `cmd`: a second command template (a short alias of the main command), when the target has one. */
  aliasCommand?: string;
  /** `url`: the address of a running implementation. */
  url?: string;
  /** What the target offers; a case needing anything else is `not-applicable`. */
  capabilities: string[];
  /** Facts from the target description file (--describe), for suites that need them. */
  description?: Record<string, unknown>;
  /** A service the target needs beside it, started by the suite (the reference translation service behind
   * the translate-tools server): always the reference entry's `backend`, also for a target given with
   * --target. */
  backend?: TargetSpec;
}

export interface RunEnv {
  /** Targets by surface name. */
  targets: Record<string, TargetSpec>;
  eventsFile: string | undefined;
  only: string[];
  skip: string[];
  listOnly: boolean;
  fcSeed: number | undefined;
  fcPath: string | undefined;
  fcRuns: number | undefined;
  caseTimeoutMs: number;
  /** A JSON file mapping clause ID to surface, written once by the runner; without it the catalog is loaded. */
  clauseIndex: string | undefined;
  /** Per surface, the runner's options that select it and its target, shell-quoted, for replay commands. */
  replayArgs: Record<string, string>;
  /** Where cases write files their reproducers refer to (request bodies too large to print); beside the
   * report. Unset in a direct ava run: the system's temporary folder. */
  artifactsDir: string | undefined;
}

export const ENV = {
  targets: 'CONFORM_TARGETS',
  events: 'CONFORM_EVENTS',
  only: 'CONFORM_ONLY',
  skip: 'CONFORM_SKIP',
  list: 'CONFORM_LIST',
  fcSeed: 'CONFORM_FC_SEED',
  fcPath: 'CONFORM_FC_PATH',
  fcRuns: 'CONFORM_FC_RUNS',
  caseTimeout: 'CONFORM_CASE_TIMEOUT_MS',
  clauseIndex: 'CONFORM_CLAUSE_INDEX',
  replayArgs: 'CONFORM_REPLAY_ARGS',
  artifacts: 'CONFORM_ARTIFACTS',
} as const;

const DEFAULT_CASE_TIMEOUT_MS = 60_000;

function jsonList(name: string): string[] {
  const raw = process.env[name];
  return raw ? (JSON.parse(raw) as string[]) : [];
}

function optionalNumber(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new Error(`${name}=${raw}: not a number`);
  return value;
}

/** A module of the harness (path relative to this folder) that only direct ava runs need: the runner passes
 * what it provides in the environment. Imported by a computed name, so the runner's bundles of the suites
 * (tools/conform/compile-suites.ts) leave it and its packages (esbuild, yaml, ajv) out. */
export function directRunOnly<T>(module: string): Promise<T> {
  // An installed package has it built beside the suites (tools/pack/build.ts), and no TypeScript loader.
  if (PACKAGED) return import(pathToFileURL(join(PROJECT_ROOT, 'dist', 'harness', basename(module).replace(/\.ts$/, '.mjs'))).href) as Promise<T>;
  return import(module) as Promise<T>;
}

async function readTargets(): Promise<Record<string, TargetSpec>> {
  const raw = process.env[ENV.targets];
  if (raw) return JSON.parse(raw) as Record<string, TargetSpec>;
  // Direct ava run: fall back to the reference targets the runner would use.
  const { loadReferenceTargets } = await directRunOnly<typeof import('./reference-targets.ts')>('./reference-targets.ts');
  return loadReferenceTargets();
}

export const runEnv: RunEnv = {
  targets: await readTargets(),
  eventsFile: process.env[ENV.events] || undefined,
  only: jsonList(ENV.only),
  skip: jsonList(ENV.skip),
  listOnly: process.env[ENV.list] === '1',
  fcSeed: optionalNumber(ENV.fcSeed),
  fcPath: process.env[ENV.fcPath] || undefined,
  fcRuns: optionalNumber(ENV.fcRuns),
  caseTimeoutMs: optionalNumber(ENV.caseTimeout) ?? DEFAULT_CASE_TIMEOUT_MS,
  clauseIndex: process.env[ENV.clauseIndex] || undefined,
  replayArgs: JSON.parse(process.env[ENV.replayArgs] || '{}') as Record<string, string>,
  artifactsDir: process.env[ENV.artifacts] || undefined,
};
