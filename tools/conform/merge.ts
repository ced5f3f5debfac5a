// `conform merge DIR…`: the reports of the shards of one run (--shard i/n) joined into the reports of that
// run, with the clause statuses, counts and exit code one run of every file would have given: statuses and
// standings are worked out again from all the results, and what no shard could judge alone (a stale
// known-failing entry, a surface none of whose must-clauses was judged) is judged here. Shards of another
// harness, catalog, target or choice of cases are refused, naming what differs; so is a missing or repeated
// shard, or a split that does not cover the files once each.
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { type Catalog, catalogHash, loadCatalog } from '../spec/catalog.ts';
import { CALLER_CWD, fromCaller } from './caller-paths.ts';
import { clauseStates, standings } from './clause-status.ts';
import { knownFailingOf, staleEntries } from './known-failing.ts';
import { DEFAULT_REPORT_DIR } from './options.ts';
import { type CaseResult, isFilteredOut } from './outcomes.ts';
import { clock } from './progress.ts';
import { ReportFiles } from './report-files.ts';
import { type JsonReport, jsonReport } from './report-json.ts';
import { readReport } from './read-report.ts';
import { harnessVersion } from './run-record.ts';
import { printSummary } from './terminal.ts';
import { UsageError } from './usage-error.ts';
import { verdict as verdictOf } from './verdict.ts';

export const MERGE_USAGE = `Usage: npm run conform -- merge DIR... [--report-dir DIR]

Joins the report folders (or report.json files) of the N shards of one run (conform --shard I/N, each on its
own machine) into the run's reports: report.json, junit.xml and report.html in --report-dir (default
${DEFAULT_REPORT_DIR}/), with the clause statuses, counts and exit code one run of every file would give.
Refused (exit 2, nothing written) when a shard is missing or given twice, when the shards split the files
differently, or when they differ in harness version, catalog, a target, or the options that chose the cases.`;

interface Shard {
  path: string;
  report: JsonReport;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Why `shards` cannot be merged, one line each (none when they can). */
export function mergeProblems(shards: Shard[], catalog: string, version: string): string[] {
  const problems: string[] = [];
  const unsharded = shards.filter((s) => s.report.run?.shard == null);
  for (const s of unsharded) problems.push(`${s.path}: not the report of a shard (its run had no --shard)`);
  if (unsharded.length > 0) return problems;
  const [first, ...rest] = shards as [Shard, ...Shard[]];
  const run = (s: Shard) => s.report.run;
  const shardOf = (s: Shard) => run(s).shard!;
  for (const s of rest) {
    if (shardOf(s).total !== shardOf(first).total) problems.push(`${s.path} is shard ${shardOf(s).index}/${shardOf(s).total}, ${first.path} ${shardOf(first).index}/${shardOf(first).total}: not one split`);
    if (run(s).harness.version !== run(first).harness.version) problems.push(`${s.path} was made by conform ${run(s).harness.version}, ${first.path} by ${run(first).harness.version}`);
    if (run(s).catalog.hash !== run(first).catalog.hash) problems.push(`${s.path} was judged against catalog ${run(s).catalog.hash}, ${first.path} against ${run(first).catalog.hash}`);
    for (const [option, key] of [['--surface', 'surfaces'], ['--only', 'only'], ['--skip', 'skip'], ['--known-failing', 'knownFailing'], ['--pass-with-no-cases', 'passWithNoCases']] as const) {
      if (!same(run(s)[key], run(first)[key])) problems.push(`${s.path} and ${first.path} chose their cases differently (${option})`);
    }
  }
  if (problems.length === 0 && run(first).catalog.hash !== catalog) {
    problems.push(`the shards were judged against catalog ${run(first).catalog.hash}; this harness (conform ${version}) has catalog ${catalog}: merge with the harness that made them`);
  }
  const targets = new Map<string, Shard>();
  for (const s of shards) {
    for (const [surface, target] of Object.entries(run(s).targets)) {
      const other = targets.get(surface);
      if (other && !same(run(other).targets[surface], target)) problems.push(`the target of ${surface} differs: ${other.path} had ${run(other).targets[surface]!.spec}, ${s.path} ${target.spec} (or another description)`);
      targets.set(surface, other ?? s);
    }
  }
  const total = shardOf(first).total;
  const byIndex = new Map<number, Shard>();
  for (const s of shards) {
    const twin = byIndex.get(shardOf(s).index);
    if (twin) problems.push(`shard ${shardOf(s).index}/${total} given twice: ${twin.path} and ${s.path}`);
    byIndex.set(shardOf(s).index, s);
  }
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0) problems.push(`shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${total}`).join(', ')} missing (given: ${[...byIndex.keys()].sort((a, b) => a - b).map((i) => `${i}/${total}`).join(', ')})`);
  if (problems.length > 0) return problems;
  const ranBy = new Map<string, number>();
  for (const s of shards) {
    for (const file of shardOf(s).files) {
      if (ranBy.has(file)) problems.push(`${file} was run by shards ${ranBy.get(file)} and ${shardOf(s).index}: they split the files differently (another --shard-times?)`);
      ranBy.set(file, shardOf(s).index);
    }
  }
  if (problems.length === 0 && ranBy.size !== shardOf(first).of) {
    problems.push(`the shards ran ${ranBy.size} of the run's ${shardOf(first).of} test files: they split the files differently (another --shard-times?)`);
  }
  return problems;
}

/** The report of the run `shards` (mergeable, in any order) are parts of. */
export function mergeReports(shards: Shard[], catalog: Catalog): { report: JsonReport; states: ReturnType<typeof clauseStates> } {
  const sorted = [...shards].sort((a, b) => a.report.run.shard!.index - b.report.run.shard!.index);
  const runs = sorted.map((s) => s.report.run);
  const first = runs[0]!;
  const order = (surface: string): number => first.surfaces.indexOf(surface);
  const results = sorted
    .flatMap((s) => s.report.results as (CaseResult & { target: string })[])
    .sort((a, b) => order(a.surface) - order(b.surface) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map(({ target: _, ...r }) => r);
  const targets: Record<string, string> = Object.assign({}, ...sorted.map((s) => s.report.targets));
  const takingPart = first.surfacesGiven ? first.surfaces : first.surfaces.filter((s) => results.some((r) => r.surface === s && !isFilteredOut(r)));
  const shown = Object.fromEntries(takingPart.filter((s) => s in targets).map((s) => [s, targets[s]!]));
  const states = clauseStates(
    catalog,
    results.filter((r) => r.surface in shown),
  );
  const standing = standings(states, shown);
  const interrupted = sorted.find((s) => s.report.interrupted);
  const ids = results.map((r) => r.id);
  const stale = interrupted || first.knownFailing === null ? [] : staleEntries(knownFailingOf(first.knownFailing), first.surfaces, ids);
  const harnessFault = runs.some((r) => r.harnessFault);
  const neverStarted = [...new Set(runs.flatMap((r) => r.neverStarted))];
  const verdict = verdictOf({
    interrupted: interrupted?.report.interrupted ?? undefined,
    interruptedCode: interrupted?.report.verdict.exitCode ?? 0,
    harnessFault,
    neverStarted,
    usageErrors: [],
    results,
    stale,
    standings: standing,
    passWithNoCases: first.passWithNoCases,
  });
  const times = (key: 'startedAt' | 'endedAt' | 'lastCaseEndedAt') =>
    sorted
      .map((s) => s.report.timing[key])
      .filter((t): t is string => t !== undefined)
      .sort();
  const report = jsonReport({
    run: {
      ...first,
      targets: Object.assign({}, ...runs.map((r) => r.targets)),
      shard: null,
      mergedFrom: sorted.map((s) => ({ index: s.report.run.shard!.index, startedAt: s.report.timing.startedAt, endedAt: s.report.timing.endedAt, files: s.report.run.shard!.files })),
      harnessFault,
      neverStarted,
    },
    results,
    states,
    surfaces: standing,
    targets: Object.fromEntries(first.surfaces.filter((s) => s in targets).map((s) => [s, targets[s]!])),
    timing: { startedAt: times('startedAt')[0]!, endedAt: times('endedAt').at(-1)!, lastCaseEndedAt: times('lastCaseEndedAt').at(-1) },
    interrupted: interrupted?.report.interrupted ?? undefined,
    verdict,
    staleKnownFailing: stale,
  });
  return { report, states };
}

/** Runs `conform merge`; returns the exit code (the merged run's verdict). */
export function runMerge(argv: string[]): number {
  let parsed: { values: { 'report-dir'?: string; help?: boolean }; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { 'report-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (err) {
    throw new UsageError(`merge: ${(err as Error).message}`);
  }
  if (parsed.values.help) {
    console.log(MERGE_USAGE);
    return 0;
  }
  if (parsed.positionals.length === 0) throw new UsageError('merge: name the report folders of the shards (merge DIR...)');
  const shards = parsed.positionals.map((path) => ({ path, report: readReport(fromCaller(path), 4, 'merge') }));
  const problems = mergeProblems(shards, catalogHash(), harnessVersion().version);
  if (problems.length > 0) throw new UsageError(`merge refused:\n  ${problems.join('\n  ')}`);
  const catalog = loadCatalog();
  const { report, states } = mergeReports(shards, catalog);
  const reportDir = fromCaller(parsed.values['report-dir'] ?? DEFAULT_REPORT_DIR);
  const reportFile = relative(CALLER_CWD, `${reportDir}/report.json`);
  new ReportFiles(reportDir).end({ report, catalog, states, reportFile });
  for (const shard of report.run.mergedFrom!) {
    console.log(`shard ${shard.index}/${report.run.mergedFrom!.length}: ${shard.files.length} test files, ${clock(Date.parse(shard.endedAt) - Date.parse(shard.startedAt))}`);
  }
  const results = report.results as CaseResult[];
  printSummary(new Map(report.surfaces.map((s) => [s.surface, results.filter((r) => r.surface === s.surface)])), report.summary, report.surfaces);
  console.log(`reports: ${reportFile}, junit.xml, report.html`);
  for (const reason of report.verdict.reasons) console.log(reason);
  return report.verdict.exitCode;
}
