// Which surfaces have a suite (a folder `conformance/<surface>/` with *.test.ts files) and which target
// each one is checked against.
import { readdirSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import { loadReferenceTargets, referenceBackend } from '../../conformance/harness/reference-targets.ts';
import type { TargetSpec } from '../../conformance/harness/run-env.ts';
import { describeTarget, readDescription } from '../../conformance/harness/target-description.ts';
import { commandFromCaller, describedFromCaller } from './caller-paths.ts';
import { SURFACES, type Surface } from '../spec/catalog.ts';
import type { DescribeArg, TargetArg, TargetEnvArg } from './options.ts';
import { UsageError } from './usage-error.ts';

const CONFORMANCE_DIR = join(PROJECT_ROOT, 'conformance');

export interface Suite {
  surface: Surface;
  files: string[];
}

export function discoverSuites(): Suite[] {
  const suites: Suite[] = [];
  for (const surface of SURFACES) {
    const dir = join(CONFORMANCE_DIR, surface);
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) continue;
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.test.ts'))
      .sort()
      .map((f) => join('conformance', surface, f));
    if (files.length > 0) suites.push({ surface, files });
  }
  return suites;
}

export function selectSuites(all: Suite[], names: string[]): Suite[] {
  if (names.length === 0) return all;
  return names.map((name) => {
    if (!(SURFACES as readonly string[]).includes(name)) {
      throw new UsageError(`--surface ${name}: unknown surface (known: ${SURFACES.join(', ')})`);
    }
    const suite = all.find((s) => s.surface === name);
    if (!suite) throw new UsageError(`--surface ${name}: this surface has no suite yet (its clauses are catalogued in spec/${name}.yaml)`);
    return suite;
  });
}

/** The target of every selected surface: given with --target, else the reference. */
export function resolveTargets(suites: Suite[], args: TargetArg[], describes: DescribeArg[] = [], targetEnv: TargetEnvArg[] = []): Record<string, TargetSpec> {
  const reference = loadReferenceTargets(suites.map((s) => s.surface).filter((s) => !args.some((a) => a.surface === s)));
  for (const arg of args) {
    if (!suites.some((s) => s.surface === arg.surface)) {
      throw new UsageError(`--target ${arg.surface}=…: no suite selected for surface ${arg.surface}`);
    }
  }
  const targets: Record<string, TargetSpec> = {};
  for (const { surface } of suites) {
    const arg = args.find((a) => a.surface === surface);
    const ref = reference[surface];
    if (arg) {
      // A target given on the command line runs beside the same backend as the reference (if it has one).
      const backend = referenceBackend(surface);
      const given: TargetSpec =
        arg.kind === 'cmd' ? { kind: 'cmd', command: commandFromCaller(arg.value), capabilities: ['launch'] } : { kind: 'url', url: arg.value, capabilities: [] };
      targets[surface] = backend ? { ...given, backend } : given;
    } else if (ref) targets[surface] = ref;
    else throw new UsageError(`surface ${surface} has no reference target in conformance/reference-targets.json`);
  }
  for (const { surface, file } of describes) {
    const target = targets[surface];
    if (!target) throw new UsageError(`--describe ${surface}=…: no suite selected for surface ${surface}`);
    try {
      targets[surface] = describeTarget(target, describedFromCaller(readDescription(file, surface)));
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }
  for (const { surface, name, value } of targetEnv) {
    const target = targets[surface];
    if (!target) throw new UsageError(`--target-env ${surface}=…: no suite selected for surface ${surface}`);
    if (target.kind !== 'cmd') throw new UsageError(`--target-env ${surface}=…: the target is a URL; only a started command gets an environment`);
    targets[surface] = { ...target, env: { ...target.env, [name]: value } };
  }
  return targets;
}

/** A URL target must be reachable before anything runs against it. */
export async function assertReachable(surface: string, target: TargetSpec): Promise<void> {
  if (target.kind !== 'url' || !target.url) return;
  const url = new URL(target.url);
  const port = Number(url.port) || (url.protocol === 'https:' || url.protocol === 'grpcs:' ? 443 : 80);
  const ok = await new Promise<boolean>((done) => {
    const socket = connect({ host: url.hostname, port });
    socket.setTimeout(5000, () => socket.destroy(new Error('timeout')));
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
  if (!ok) throw new UsageError(`target ${surface}=${target.url} is not reachable`);
}
