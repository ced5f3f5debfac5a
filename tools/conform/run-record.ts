// What a report records of the run that made it, so that a reading of it later (merging shards, comparing
// runs, an audit of a CI gate) knows what was judged against what: the harness and catalog versions, the
// documents the catalog was written from, the Node that ran it, each target as given with its description,
// the options that chose the cases, and for a shard which part of the files it ran.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../conformance/harness/project-root.ts';
import type { TargetSpec } from '../../conformance/harness/run-env.ts';
import { type Catalog, catalogHash } from '../spec/catalog.ts';
import type { KnownFailingEntry } from './known-failing.ts';

export interface RecordedTarget {
  /** The target as the terminal shows it (`cmd:…` with its environment, or the URL). */
  spec: string;
  capabilities: string[];
  /** The target description it was given (--describe, or the reference's), or null. */
  description: Record<string, unknown> | null;
}

export interface ShardRecord {
  index: number;
  total: number;
  /** The test files this shard ran. */
  files: string[];
  /** How many test files the run selected, over all its shards. */
  of: number;
}

/** One shard a merged report was made from. */
export interface MergedShard {
  index: number;
  startedAt: string;
  endedAt: string;
  files: string[];
}

export interface RunRecord {
  harness: { name: string; version: string };
  catalog: { hash: string; clauses: number };
  documents: { file: string; hash: string }[];
  node: string;
  platform: string;
  /** The surfaces the run selected (--surface, else every surface with a suite), in run order, before a shard
   * took its part; `surfacesGiven`: named with --surface (then each takes part even if no case of it ran). */
  surfaces: string[];
  surfacesGiven: boolean;
  targets: Record<string, RecordedTarget>;
  only: string[];
  skip: string[];
  lastFailed: boolean;
  /** The --known-failing entries, or null without the option. */
  knownFailing: KnownFailingEntry[] | null;
  passWithNoCases: boolean;
  shard: ShardRecord | null;
  /** Set by `conform merge`: the shards it joined. */
  mergedFrom: MergedShard[] | null;
  harnessFault: boolean;
  /** Surfaces whose target never started. */
  neverStarted: string[];
}

/** The package's name and version (package.json at the project or package root). */
export function harnessVersion(): { name: string; version: string } {
  const { name, version } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  return { name, version };
}

export function recordTarget(spec: string, target: TargetSpec): RecordedTarget {
  return { spec, capabilities: [...target.capabilities].sort(), description: target.description ?? null };
}

/** The fields every run records the same way: versions, documents, Node. */
export function runIdentity(catalog: Catalog): Pick<RunRecord, 'harness' | 'catalog' | 'documents' | 'node' | 'platform'> {
  return {
    harness: harnessVersion(),
    catalog: { hash: catalogHash(), clauses: catalog.clauses.length },
    documents: catalog.documents,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}
