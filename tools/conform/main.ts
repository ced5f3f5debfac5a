// `npm run conform`: runs the selected suites against their targets, hands the run to the reporters
// (terminal, report files, GitHub) and sets the exit code from the verdict (verdict.ts): 0 passed, 1 failed
// or judged nothing, 2 usage error or a target that never started, 128+N interrupted by signal N.
import { rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import picomatch from 'picomatch';
import { PROJECT_ROOT, shellQuote } from '../../conformance/harness/launch.ts';
import type { TargetSpec } from '../../conformance/harness/run-env.ts';
import { missingLine, missingPackages } from '../setup/debian-packages.ts';
import { missingOptionalPackages, optionalMissingLines } from '../setup/optional-packages.ts';
import { CatalogError, catalogHash, loadCatalog } from '../spec/catalog.ts';
import { CALLER_CWD } from './caller-paths.ts';
import { globErrors, type KnownCases, knownCases, recordCases, suitesFingerprint } from './case-index.ts';
import { clauseStates, standings } from './clause-status.ts';
import { expectedRunMs } from './file-times.ts';
import { Interruption } from './interrupt.ts';
import { lastFailedCases } from './last-failed.ts';
import { harnessVersion, recordTarget, runIdentity } from './run-record.ts';
import { fileSuites, readShardTimes, shardSuites } from './shard.ts';
import { loadKnownFailing, NO_KNOWN_FAILURES, staleEntries } from './known-failing.ts';
import { type ConformOptions, parseOptions, USAGE } from './options.ts';
import { type CaseResult, isFilteredOut } from './outcomes.ts';
import { GithubReporter } from './report-github.ts';
import { jsonReport } from './report-json.ts';
import { ReportFiles } from './report-files.ts';
import { allOf, type Plan, type Reporter } from './reporter.ts';
import { runSuites } from './run-suites.ts';
import { subcommandOf } from './subcommands.ts';
import { unreachedResults } from './run-state.ts';
import { assertReachable, discoverSuites, resolveTargets, type Suite, selectSuites } from './suites.ts';
import { printList, TerminalReporter } from './terminal.ts';
import { UsageError } from './usage-error.ts';
import { verdict as verdictOf } from './verdict.ts';

function describeTarget(t: TargetSpec): string {
  if (t.kind === 'url') return t.url ?? '';
  const env = Object.entries(t.env ?? {}).map(([k, v]) => `${k}=${v}`);
  return `cmd:${t.command ?? ''}${env.length > 0 ? ` (env: ${env.join(' ')})` : ''}`;
}

/** Per surface, the options of this command line that select it and its target: what a replay needs. */
function replayArgs(options: ConformOptions, surfaces: string[]): Record<string, string> {
  return Object.fromEntries(
    surfaces.map((surface) => {
      const args = [`--surface ${surface}`];
      const target = options.targets.find((t) => t.surface === surface);
      if (target) args.push(`--target ${shellQuote(`${surface}=${target.kind === 'cmd' ? `cmd:${target.value}` : target.value}`)}`);
      for (const d of options.describes.filter((x) => x.surface === surface)) args.push(`--describe ${shellQuote(`${surface}=${resolve(d.file)}`)}`);
      for (const e of options.targetEnv.filter((x) => x.surface === surface)) args.push(`--target-env ${shellQuote(`${surface}=${e.name}=${e.value}`)}`);
      return [surface, args.join(' ')];
    }),
  );
}

/** How many of ava's workers run at once (conformance/ava.config.mjs), for the expected run time. */
async function workersAtOnce(): Promise<number> {
  const config = (await import(pathToFileURL(join(PROJECT_ROOT, 'conformance', 'ava.config.mjs')).href)) as { default: { concurrency?: number } };
  return config.default.concurrency ?? 1;
}

/** Whether --only/--skip let the case through (as check.ts decides). */
function filterOf(only: string[], skip: string[]): (id: string) => boolean {
  const isOnly = only.length > 0 ? picomatch(only) : () => true;
  const isSkipped = skip.length > 0 ? picomatch(skip) : () => false;
  return (id) => isOnly(id) && !isSkipped(id);
}

/** What the progress line can know before the run: how many cases, and for a whole run how long. */
async function plan(suites: Suite[], cases: KnownCases, only: string[], skip: string[]): Promise<Plan> {
  const ids = suites.flatMap((s) => cases.ids.get(s.surface) ?? []);
  const known = suites.every((s) => cases.ids.has(s.surface));
  const filtered = only.length > 0 || skip.length > 0;
  return {
    cases: known ? ids.filter(filterOf(only, skip)).length : undefined,
    exact: cases.current,
    expectedMs: filtered ? undefined : expectedRunMs(suites.flatMap((s) => s.files), await workersAtOnce()),
  };
}

/** `conform <package version> (catalog <content hash>: <clauses> clauses, <surfaces> surfaces)`. */
function versionLine(): string {
  const { version } = harnessVersion();
  const catalog = loadCatalog();
  return `conform ${version} (catalog ${catalogHash()}: ${catalog.clauses.length} clauses, ${new Set(catalog.clauses.map((c) => c.surface)).size} surfaces)`;
}

async function main(argv: string[], interruption: Interruption): Promise<number> {
  const subcommand = subcommandOf(argv);
  if (subcommand) return subcommand.command.run(subcommand.args);
  const options = parseOptions(argv);
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  if (options.version) {
    console.log(versionLine());
    return 0;
  }
  const startedAt = new Date();
  const catalog = loadCatalog();
  const reportDir = resolve(options.reportDir);
  let selected = selectSuites(discoverSuites(), options.surfaces);
  let only = options.only;
  let onlyOption = '--only';
  if (options.lastFailed) {
    const last = lastFailedCases(join(reportDir, 'report.json'));
    if (last.length === 0) {
      console.log(`--last-failed: no case failed or could not judge in ${join(options.reportDir, 'report.json')}: nothing to run`);
      return 0;
    }
    only = last.map((r) => r.id);
    onlyOption = '--last-failed';
    if (options.surfaces.length === 0) selected = selected.filter((s) => last.some((r) => r.surface === s.surface));
  }
  // A shard (or --file) runs part of the files; the filters are checked, and the case index kept, over all of them.
  const shard = options.shard;
  const partial = shard !== undefined || options.files.length > 0;
  const suites = options.files.length > 0 ? fileSuites(selected, options.files) : shard ? shardSuites(selected, shard, readShardTimes(options.shardTimes)) : selected;
  const targets = resolveTargets(selected, options.targets, options.describes, options.targetEnv);
  const known = options.knownFailing ? loadKnownFailing(options.knownFailing) : NO_KNOWN_FAILURES;
  const artifactsDir = join(reportDir, 'artifacts');
  const targetNames: Record<string, string> = {};
  for (const suite of suites) {
    const target = targets[suite.surface]!;
    targetNames[suite.surface] = describeTarget(target);
    if (!options.list) await assertReachable(suite.surface, target);
  }
  const base = { known, interruption, replayArgs: replayArgs(options, suites.map((s) => s.surface)), artifactsDir };
  const surfaces: string[] = suites.map((s) => s.surface);
  const selectedSurfaces: string[] = selected.map((s) => s.surface);

  // The case IDs, to check the filters before running anything: from the index, or a list pass.
  const fingerprint = suitesFingerprint();
  let cases = knownCases(selectedSurfaces, fingerprint);
  const filtering = only.length > 0 || options.skip.length > 0;
  if (options.list || (filtering && !cases.current)) {
    if (!options.list) console.log('listing the cases of the suites to check the filters (the suites changed since they were last listed)…');
    const listed = await runSuites(options.list ? suites : selected, targets, catalog, { ...base, only: [], skip: [], list: true, known: NO_KNOWN_FAILURES }, () => {});
    // Interrupted: the run below ends at once, and its reports say so.
    if (!listed.interrupted) {
      const faults = [...listed.surfaces.values()].flatMap((s) => s.harnessErrors);
      for (const e of faults) console.error(`harness error: ${e}`);
      if (faults.length > 0) return 2;
      if (!(options.list && partial)) {
        recordCases(listed.caseIds, fingerprint);
        cases = { ids: listed.caseIds, current: true };
      }
      if (options.list) {
        printList([...listed.surfaces.values()].flatMap((s) => s.results));
        return 0;
      }
    } else if (options.list) return interruption.exitCode;
  }
  const allIds = (ids: Map<string, string[]>) => selectedSurfaces.flatMap((s) => ids.get(s) ?? []);
  const filterErrors = (ids: string[]) => [...globErrors(onlyOption, only, ids), ...globErrors('--skip', options.skip, ids)];
  if (cases.current) {
    const errors = filterErrors(allIds(cases.ids));
    if (errors.length > 0) throw new UsageError(errors.join('\n'));
  }

  const reporters: Reporter[] = [new TerminalReporter(catalog, { verbose: options.verbose }), new ReportFiles(reportDir)];
  if (options.reporters.includes('github') || process.env.GITHUB_ACTIONS === 'true') reporters.push(new GithubReporter(catalog));
  const report = allOf(reporters);
  rmSync(artifactsDir, { recursive: true, force: true });
  if (shard) {
    const files = suites.flatMap((s) => s.files).length;
    console.log(`shard ${shard.index}/${shard.total}: ${files} of ${selected.flatMap((s) => s.files).length} test files; its figures are its own, conform merge gives the run's`);
  }
  report.begin({ targets: targetNames, plan: await plan(suites, partial ? { ids: new Map(), current: false } : cases, only, options.skip) });
  const run = await runSuites(suites, targets, catalog, { ...base, only, skip: options.skip, list: false }, report.caseEnded);

  const results: CaseResult[] = [];
  let harnessFault = false;
  const neverStarted: string[] = [];
  for (const [surface, surfaceRun] of run.surfaces) {
    for (const e of surfaceRun.harnessErrors) {
      harnessFault = true;
      console.error(`harness error in ${surface}: ${e}`);
    }
    if (surfaceRun.targetError !== undefined) {
      neverStarted.push(surface);
      console.error(`target for ${surface} failed to start:\n${surfaceRun.targetError}`);
    }
    results.push(...surfaceRun.results);
  }
  // A shard saw part of each surface's cases: the index keeps whole surfaces only.
  if (!run.interrupted && !harnessFault && !partial) recordCases(run.caseIds, fingerprint);
  // An interrupted run lists the cases it never reached too, when the case index knows them (not a shard's:
  // the index does not say which file a case is in).
  if (run.interrupted && cases.current && !partial) {
    const passes = filterOf(only, options.skip);
    results.push(...unreachedResults(catalog, allIds(cases.ids), new Set(results.map((r) => r.id)), (id) => !passes(id)));
    results.sort((a, b) => surfaces.indexOf(a.surface) - surfaces.indexOf(b.surface) || a.id.localeCompare(b.id));
  }
  if (run.leftovers > 0 && !run.interrupted) {
    console.error(`harness warning: ${run.leftovers} process(es) started by cases were still running after every case ended; they were killed`);
  }
  if (run.leftFolders.length > 0 && !run.interrupted) {
    const names = run.leftFolders.slice(0, 5).join(', ') + (run.leftFolders.length > 5 ? ', …' : '');
    console.error(`harness warning: ${run.leftFolders.length} temporary folder(s) of cases were still there after every case ended (${names}); they were removed`);
  }
  // The surfaces taking part: those named with --surface, else those with a case the filters let through.
  const takingPart = options.surfaces.length > 0 ? surfaces : surfaces.filter((s) => results.some((r) => r.surface === s && !isFilteredOut(r)));
  const shown = Object.fromEntries(Object.entries(targetNames).filter(([s]) => takingPart.includes(s)));
  const states = clauseStates(
    catalog,
    results.filter((r) => r.surface in shown),
  );
  const standing = standings(states, shown);
  const ids = surfaces.flatMap((s) => run.caseIds.get(s) ?? []);
  const interrupted = interruption.interrupted;
  // Whether a known-failing entry is stale, or a surface judged nothing, is the merged run's to say.
  const stale = run.interrupted || partial ? [] : staleEntries(known, surfaces, ids);
  const verdict = verdictOf({
    interrupted,
    interruptedCode: interruption.exitCode,
    harnessFault,
    neverStarted,
    usageErrors: run.interrupted || harnessFault || partial ? [] : filterErrors(ids),
    results,
    stale,
    standings: standing,
    passWithNoCases: options.passWithNoCases || partial,
  });
  const reportFile = join(options.reportDir, 'report.json');
  report.end({
    report: jsonReport({
      run: {
        ...runIdentity(catalog),
        surfaces: selectedSurfaces,
        surfacesGiven: options.surfaces.length > 0,
        targets: Object.fromEntries(surfaces.map((s) => [s, recordTarget(targetNames[s]!, targets[s]!)])),
        only,
        skip: options.skip,
        lastFailed: options.lastFailed,
        knownFailing: options.knownFailing ? known.entries : null,
        passWithNoCases: options.passWithNoCases,
        shard: shard ? { ...shard, files: suites.flatMap((s) => s.files), of: selected.flatMap((s) => s.files).length } : null,
        mergedFrom: null,
        harnessFault,
        neverStarted,
      },
      results,
      states,
      surfaces: standing,
      targets: targetNames,
      timing: { startedAt: startedAt.toISOString(), endedAt: new Date().toISOString(), lastCaseEndedAt: run.lastCaseEndedAt === undefined ? undefined : new Date(run.lastCaseEndedAt).toISOString() },
      interrupted,
      verdict,
      staleKnownFailing: stale,
    }),
    catalog,
    states,
    reportFile,
  });
  // Packages this machine lacks: the reference ran without those engines, the harness without those tools.
  const missing = missingPackages().filter((p) => !p.testsOnly);
  if (missing.length > 0) console.log(`${missingLine(missing)} (the cases needing them could not run: see their outcomes)`);
  for (const line of optionalMissingLines(missingOptionalPackages())) console.log(line);
  console.log(`reports: ${relative(CALLER_CWD, reportFile) || '.'}, junit.xml, report.html`);
  for (const reason of verdict.reasons) console.log(reason);
  return verdict.exitCode;
}

const interruption = new Interruption();
interruption.install();
// A terminal closed under the run (its window, an ssh session) must not crash it before it has stopped what it
// started: writes to it fail from then on, and are dropped.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
main(process.argv.slice(2), interruption).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof UsageError || err instanceof CatalogError) {
      console.error(`error: ${err.message}`);
      if (err instanceof UsageError) console.error('(npm run conform -- --help for usage)');
    } else {
      console.error(err);
    }
    process.exitCode = interruption.interrupted ? interruption.exitCode : 2;
  },
);
