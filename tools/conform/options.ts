// Command line of the runner. Public interface: CI scripts depend on these names.
import { parseArgs } from 'node:util';
import { fromCaller } from './caller-paths.ts';
import { parseShard, type Shard } from './shard.ts';
import { UsageError } from './usage-error.ts';

export interface TargetArg {
  surface: string;
  kind: 'url' | 'cmd';
  value: string;
}

export interface DescribeArg {
  surface: string;
  file: string;
}

export interface TargetEnvArg {
  surface: string;
  name: string;
  value: string;
}

export interface ConformOptions {
  surfaces: string[];
  targets: TargetArg[];
  describes: DescribeArg[];
  targetEnv: TargetEnvArg[];
  only: string[];
  skip: string[];
  knownFailing: string | undefined;
  list: boolean;
  reportDir: string;
  verbose: boolean;
  help: boolean;
  /** Print the package's and the catalog's versions, and nothing else. */
  version: boolean;
  passWithNoCases: boolean;
  lastFailed: boolean;
  /** Reporters beside the terminal and the report files (REPORTERS). */
  reporters: ReporterName[];
  /** --shard i/n: run only part i of n of the selected test files (shard.ts). */
  shard: Shard | undefined;
  /** --shard-times FILE: the times the split is balanced by (default the shipped seed). */
  shardTimes: string | undefined;
  /** --file PATH: run only these test files of the selected suites (conformance/<surface>/<name>.test.ts). */
  files: string[];
}

export const REPORTERS = ['github'] as const;
export type ReporterName = (typeof REPORTERS)[number];

export const DEFAULT_REPORT_DIR = 'reports';

export const USAGE = `Usage: npm run conform -- [options]
       npm run conform -- init --surface NAME [--out DIR] [--force]
       npm run conform -- merge DIR... [--report-dir DIR]
       npm run conform -- compare REPORT REPORT... [--out DIR] [--fail-on-regression]

Runs the conformance suites against targets and writes reports. \`init\` writes a starting target description
for a surface (every key commented; for the gateway also an adapter skeleton); \`merge\` joins the reports of
the shards of a run (--shard); \`compare\` sets runs side by side, clause by clause: <command> --help for more.

  --surface NAME           only this surface (repeatable); default: every surface that has a suite
  --target NAME=URL        check the implementation running at URL for surface NAME
  --target NAME=cmd:'CMD'  start CMD for each case; placeholders {port} {config} {dir} {root}
                           (no --target: the surface's reference server)
  --target-env NAME=VAR=VALUE
                           set VAR in the environment of surface NAME's target (repeatable)
  --describe NAME=FILE     a JSON file (comments allowed; \`init\` writes one) describing what the target of
                           surface NAME offers (capabilities, env, aliasCommand, facts such as model keys);
                           see conformance/<surface>/README.md
  --only GLOB              run only cases whose ID matches (repeatable); a glob matching no case is a usage error
  --skip GLOB              skip cases whose ID matches (repeatable); same
  --last-failed            run only the cases that failed or could not judge in the report of the previous
                           run in --report-dir (give the same --surface/--target options as that run)
  --known-failing FILE     YAML list of {glob, reason}: such cases must fail (expected-fail); an entry whose
                           case passes, or that matches no case of the suites it names, is stale (fails the run)
  --pass-with-no-cases     accept a run that judges no must-clause of a surface (all not-applicable, skipped)
  --list                   print every case ID with its clause, run nothing
  --shard I/N              run part I of N of the selected test files (balanced by time, the same split on
                           every machine); \`conform merge\` joins the N report folders into the run's verdict
  --file PATH              run only this test file of the selected suites (repeatable), as the seed of file
                           times names it: conformance/<surface>/<name>.test.ts
  --shard-times FILE       JSON of test file → milliseconds to balance the split by (default: the times
                           shipped with the suites, conformance/file-times.seed.json)
  --report-dir DIR         where report.json, junit.xml, report.html and artifacts/ go (default ${DEFAULT_REPORT_DIR}/)
  --reporter NAME          also report for a CI: github (annotations, and $GITHUB_STEP_SUMMARY when set; on by
                           itself when GITHUB_ACTIONS is set)
  --verbose                print informational outcomes in full (by default one line each)
  --version, -V            the harness's version and the catalog's (its content hash, its clauses)
  --help                   this text

Outcomes: pass, fail, error (the case could not judge its clause: setup refused, answer unreadable, no
end in time, a tool or port of the harness's missing), informational, expected-fail, not-applicable (the
target lacks a capability the case needs), skipped (filtered out, or not reached before an interrupt).
Exit codes: 0 every must-clause case passed and each surface of the run had a must-clause judged;
1 a case failed or could not judge a must-clause, a stale known-failing entry, or a surface none of whose
must-clauses was judged; 2 usage error, or a target that never started (the reports are written all the
same); 128+N interrupted by signal N (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP): every process of the run is
stopped, and the reports of what ran are written marked interrupted (a second signal stops at once, without).
A property failure prints its replay command (seed, path, surface and target).`;

function parseTarget(raw: string): TargetArg {
  const eq = raw.indexOf('=');
  if (eq <= 0) throw new UsageError(`--target ${raw}: expected NAME=URL or NAME=cmd:'COMMAND'`);
  const surface = raw.slice(0, eq);
  const value = raw.slice(eq + 1);
  if (value.startsWith('cmd:')) {
    const command = value.slice(4).trim();
    if (!command) throw new UsageError(`--target ${raw}: empty command`);
    return { surface, kind: 'cmd', value: command };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--target ${raw}: "${value}" is neither a URL nor cmd:'COMMAND'`);
  }
  if (!/^(https?|grpcs?):$/.test(url.protocol)) throw new UsageError(`--target ${raw}: unsupported scheme ${url.protocol}`);
  return { surface, kind: 'url', value };
}

export function parseOptions(argv: string[]): ConformOptions {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        surface: { type: 'string', multiple: true },
        target: { type: 'string', multiple: true },
        describe: { type: 'string', multiple: true },
        'target-env': { type: 'string', multiple: true },
        only: { type: 'string', multiple: true },
        skip: { type: 'string', multiple: true },
        'known-failing': { type: 'string' },
        list: { type: 'boolean' },
        'report-dir': { type: 'string' },
        'pass-with-no-cases': { type: 'boolean' },
        'last-failed': { type: 'boolean' },
        reporter: { type: 'string', multiple: true },
        shard: { type: 'string' },
        'shard-times': { type: 'string' },
        file: { type: 'string', multiple: true },
        verbose: { type: 'boolean', short: 'v' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'V' },
      },
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const v = parsed.values as Record<string, string | string[] | boolean | undefined>;
  const list = (name: string): string[] => (v[name] as string[] | undefined) ?? [];
  const targets = list('target').map(parseTarget);
  const seen = new Set<string>();
  for (const t of targets) {
    if (seen.has(t.surface)) throw new UsageError(`--target given twice for surface ${t.surface}`);
    seen.add(t.surface);
  }
  const describes = list('describe').map((raw) => {
    const eq = raw.indexOf('=');
    if (eq <= 0 || eq === raw.length - 1) throw new UsageError(`--describe ${raw}: expected NAME=FILE`);
    return { surface: raw.slice(0, eq), file: fromCaller(raw.slice(eq + 1)) };
  });
  const targetEnv = list('target-env').map((raw) => {
    const match = /^([^=]+)=([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(raw);
    if (!match) throw new UsageError(`--target-env ${raw}: expected NAME=VAR=VALUE (surface, variable, value)`);
    return { surface: match[1]!, name: match[2]!, value: match[3]! };
  });
  const reporters = list('reporter').map((name) => {
    if (!(REPORTERS as readonly string[]).includes(name)) throw new UsageError(`--reporter ${name}: unknown reporter (known: ${REPORTERS.join(', ')})`);
    return name as ReporterName;
  });
  if (v['last-failed'] === true && list('only').length > 0) throw new UsageError('--last-failed chooses the cases itself: leave out --only');
  if (v['last-failed'] === true && v.shard !== undefined) throw new UsageError('--last-failed reads one report: run it on the merged report of the shards, without --shard');
  if (list('file').length > 0 && v.shard !== undefined) throw new UsageError('--file and --shard both choose the files: give one');
  if (v['shard-times'] !== undefined && v.shard === undefined) throw new UsageError('--shard-times balances --shard: give --shard too');
  return {
    surfaces: list('surface'),
    targets,
    describes,
    targetEnv,
    only: list('only'),
    skip: list('skip'),
    knownFailing: v['known-failing'] === undefined ? undefined : fromCaller(v['known-failing'] as string),
    list: v.list === true,
    reportDir: fromCaller((v['report-dir'] as string | undefined) ?? DEFAULT_REPORT_DIR),
    verbose: v.verbose === true,
    help: v.help === true,
    version: v.version === true,
    passWithNoCases: v['pass-with-no-cases'] === true,
    lastFailed: v['last-failed'] === true,
    reporters: [...new Set(reporters)],
    shard: v.shard === undefined ? undefined : parseShard(v.shard as string),
    shardTimes: v['shard-times'] === undefined ? undefined : fromCaller(v['shard-times'] as string),
    files: list('file'),
  };
}
