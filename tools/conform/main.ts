// `npm run conform`: runs the selected suites against their targets, writes the reports and sets the exit
// code (0 every must-clause case passed; 1 a case failed or could not judge a must-clause; 2 usage error, or
// a target that never started — the reports are written all the same).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { shellQuote } from '../../conformance/harness/launch.ts';
import type { TargetSpec } from '../../conformance/harness/run-env.ts';
import { missingLine, missingPackages } from '../setup/debian-packages.ts';
import { CatalogError, loadCatalog } from '../spec/catalog.ts';
import { clauseStates, standings } from './clause-status.ts';
import { loadKnownFailing, NO_KNOWN_FAILURES } from './known-failing.ts';
import { type ConformOptions, parseOptions, USAGE } from './options.ts';
import { type CaseResult, failsRun } from './outcomes.ts';
import { htmlReport } from './report-html.ts';
import { jsonReport } from './report-json.ts';
import { junitReport } from './report-junit.ts';
import { runSuites } from './run-suites.ts';
import { assertReachable, discoverSuites, resolveTargets, selectSuites } from './suites.ts';
import { Progress, printList, printOutcomes, printSummary } from './terminal.ts';
import { UsageError } from './usage-error.ts';

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

async function main(argv: string[]): Promise<number> {
  const options = parseOptions(argv);
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const startedAt = new Date();
  const catalog = loadCatalog();
  const suites = selectSuites(discoverSuites(), options.surfaces);
  const targets = resolveTargets(suites, options.targets, options.describes, options.targetEnv);
  const known = options.knownFailing ? loadKnownFailing(options.knownFailing) : NO_KNOWN_FAILURES;
  const reportDir = resolve(options.reportDir);
  const artifactsDir = join(reportDir, 'artifacts');
  const settings = {
    only: options.only,
    skip: options.skip,
    list: options.list,
    known,
    replayArgs: replayArgs(options, suites.map((s) => s.surface)),
    artifactsDir,
  };
  const targetNames: Record<string, string> = {};
  for (const suite of suites) {
    const target = targets[suite.surface]!;
    targetNames[suite.surface] = describeTarget(target);
    if (!options.list) await assertReachable(suite.surface, target);
  }
  if (!options.list) rmSync(artifactsDir, { recursive: true, force: true });
  const progress = new Progress();
  if (!options.list) progress.start(targetNames);
  const run = await runSuites(suites, targets, catalog, settings, (_id, ok) => progress.case(ok));
  if (!options.list) progress.end();
  const results: CaseResult[] = [];
  const bySurface = new Map<string, CaseResult[]>();
  let harnessFault = false;
  const targetErrors: string[] = [];
  for (const [surface, surfaceRun] of run.surfaces) {
    for (const e of surfaceRun.harnessErrors) {
      harnessFault = true;
      console.error(`harness error in ${surface}: ${e}`);
    }
    if (surfaceRun.targetError !== undefined) targetErrors.push(`target for ${surface} failed to start:\n${surfaceRun.targetError}`);
    results.push(...surfaceRun.results);
    bySurface.set(surface, surfaceRun.results);
  }
  if (options.list) {
    printList(results);
    return harnessFault ? 2 : 0;
  }
  if (run.leftovers > 0) {
    console.error(`harness warning: ${run.leftovers} process(es) started by cases were still running after every case ended; they were killed`);
  }
  // A surface whose every case was filtered out did not take part: it gets no standing (no 0%).
  const inRun = Object.fromEntries(Object.entries(targetNames).filter(([surface]) => bySurface.get(surface)?.some((r) => r.outcome !== 'skipped')));
  const shown = Object.keys(inRun).length > 0 ? inRun : targetNames;
  const states = clauseStates(
    catalog,
    results.filter((r) => r.surface in shown),
  );
  const standing = standings(states, shown);
  const timing = {
    startedAt: startedAt.toISOString(),
    endedAt: new Date().toISOString(),
    lastCaseEndedAt: run.lastCaseEndedAt === undefined ? undefined : new Date(run.lastCaseEndedAt).toISOString(),
  };
  const report = jsonReport(results, states, standing, targetNames, timing);
  mkdirSync(reportDir, { recursive: true });
  const reportFile = join(options.reportDir, 'report.json');
  writeFileSync(join(reportDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(reportDir, 'junit.xml'), junitReport(results, catalog.byId));
  writeFileSync(join(reportDir, 'report.html'), htmlReport(results, states, standing, report.summary));
  printOutcomes(results, catalog.byId, targetNames, { verbose: options.verbose, reportFile });
  printSummary(bySurface, report.summary, standing);
  // Engines this machine lacks: the reference ran without them and the browser cases could not run.
  const missing = missingPackages().filter((p) => !p.testsOnly);
  if (missing.length > 0) console.log(`${missingLine(missing)} (the cases needing them were not-applicable)`);
  console.log(`reports: ${reportFile}, junit.xml, report.html`);
  for (const e of targetErrors) console.error(e);
  if (harnessFault || targetErrors.length > 0) return 2;
  return results.some(failsRun) ? 1 : 0;
}

main(process.argv.slice(2)).then(
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
    process.exitCode = 2;
  },
);
