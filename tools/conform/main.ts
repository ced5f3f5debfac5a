// `npm run conform`: runs the selected suites against their targets, writes the reports and sets the exit
// code (0 every must-clause case passed, 1 a case failed, 2 usage or target error).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CatalogError, loadCatalog } from '../spec/catalog.ts';
import { coverage } from '../spec/coverage.ts';
import { loadKnownFailing, NO_KNOWN_FAILURES } from './known-failing.ts';
import { parseOptions, USAGE } from './options.ts';
import type { CaseResult } from './outcomes.ts';
import { htmlReport } from './report-html.ts';
import { jsonReport } from './report-json.ts';
import { junitReport } from './report-junit.ts';
import { runSuites } from './run-suites.ts';
import { assertReachable, discoverSuites, resolveTargets, selectSuites } from './suites.ts';
import { printFailures, printList, printSummary, Progress } from './terminal.ts';
import { UsageError } from './usage-error.ts';

function describeTarget(t: { kind: string; command?: string; url?: string }): string {
  return t.kind === 'url' ? (t.url ?? '') : `cmd:${t.command ?? ''}`;
}

async function main(argv: string[]): Promise<number> {
  const options = parseOptions(argv);
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const catalog = loadCatalog();
  const suites = selectSuites(discoverSuites(), options.surfaces);
  const targets = resolveTargets(suites, options.targets, options.describes);
  const known = options.knownFailing ? loadKnownFailing(options.knownFailing) : NO_KNOWN_FAILURES;
  const settings = { only: options.only, skip: options.skip, list: options.list, known };
  const progress = new Progress();
  const results: CaseResult[] = [];
  const bySurface = new Map<string, CaseResult[]>();
  const targetNames: Record<string, string> = {};
  let harnessFault = false;
  for (const suite of suites) {
    const target = targets[suite.surface]!;
    targetNames[suite.surface] = describeTarget(target);
    if (!options.list) await assertReachable(suite.surface, target);
  }
  if (!options.list) progress.start(targetNames);
  const runs = await runSuites(suites, targets, catalog, settings, (_id, ok) => progress.case(ok));
  if (!options.list) progress.end();
  for (const [surface, run] of runs) {
    for (const e of run.harnessErrors) {
      harnessFault = true;
      console.error(`harness error in ${surface}: ${e}`);
    }
    if (run.targetError !== undefined) {
      console.error(`target for ${surface} failed to start:\n${run.targetError}`);
      return 2;
    }
    results.push(...run.results);
    bySurface.set(surface, run.results);
  }
  if (options.list) {
    printList(results);
    return harnessFault ? 2 : 0;
  }
  const cov = coverage(catalog, results.map((r) => r.clause));
  const report = jsonReport(results, cov, targetNames);
  mkdirSync(options.reportDir, { recursive: true });
  writeFileSync(join(options.reportDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(options.reportDir, 'junit.xml'), junitReport(results, catalog.byId));
  writeFileSync(join(options.reportDir, 'report.html'), htmlReport(results, catalog, cov, report.summary, targetNames));
  printFailures(results, catalog.byId);
  printSummary(bySurface, report.summary, cov);
  console.log(`reports: ${join(options.reportDir, 'report.json')}, junit.xml, report.html`);
  if (harnessFault) return 2;
  return report.summary.failed > 0 ? 1 : 0;
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
