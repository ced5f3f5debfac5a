// `npm run mutate -- --surface S [--files GLOB] [--sample N] [--seed S] [--report-dir DIR]`: StrykerJS over the
// reference modules of one surface, each mutant judged by that surface's conformance suite run over the wire
// against the mutated reference (conformance-runner.ts), then a table of what the suite killed and what
// survived, every survivor looked up in the surface's answers (answers.ts).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import { SURFACES } from '../spec/catalog.ts';
import { answersFile, readAnswers } from './answers.ts';
import { stopOnSignals, unlessInterrupted } from './interrupt.ts';
import { REACH, REACH_MISSES, type Reach, type RunnerSettings } from './conformance-runner.ts';
import { type ListedMutant, listedName, listMutants, mustFirst, rangeOf, reachChanges, reachFile, readReach, sample, staleAnswers, surfaceModules } from './mutants.ts';
import { type RunFigures, type StrykerReport, type Summary, summarize, summaryMarkdown } from './summary.ts';

const USAGE = `npm run mutate -- --surface S [--files GLOB]… [--sample N [--seed TEXT] | --mutant NAME… | --reach] [--check-reach] [--summarize] [--report-dir DIR]

Mutates the reference modules of surface S (those its target's bundle is built from; --files narrows them)
with StrykerJS and judges each mutant by S's conformance suite, run against the mutated reference: only the
suite files that reach the mutant (measured by a first run of each file), with a time limit derived from
theirs. --sample N takes about N mutants (never more), the same ones for the same --seed, from modules that
suite files judging must-clauses reach first (the reach kept in tools/mutate/reach/S.json, which --reach
measures: one run of each suite file, no mutant run). --mutant runs the mutants named (as summary.md and the
answers name them; with whatever lies inside their place), to show a new case red against one.
--summarize writes the last run's table again (DIR/S/), with the answers as they are now.
--check-reach runs each survivor against the whole suite as well (a file outside its measured reach that
kills it is a fault of the reach, told; it costs a whole suite run per survivor). Reports go to
DIR/S/ (default reports/mutation): Stryker's mutation.html and mutation.json, and summary.md. Every mutant
that survives must be answered in tools/mutate/answers/S.yaml; exit 1 when one is not.`;

/** The places of the mutants named as answers name them (each range selects what lies inside it too). */
function named(listed: ListedMutant[], names: string[]): { ranges: string[]; mutants: ListedMutant[] } {
  const ranges = names.map((name) => {
    const m = listed.find((l) => listedName(l) === name);
    if (!m) fail(`--mutant ${name}: no such mutant in the modules of the surface (names are as in tools/mutate/answers/ and summary.md)`);
    return rangeOf(m);
  });
  return { ranges: [...new Set(ranges)], mutants: listed.filter((m) => ranges.includes(rangeOf(m))) };
}

function readJson<T>(file: string): T | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
}

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      surface: { type: 'string' },
      files: { type: 'string', multiple: true },
      sample: { type: 'string' },
      seed: { type: 'string' },
      'report-dir': { type: 'string' },
      reach: { type: 'boolean' },
      mutant: { type: 'string', multiple: true },
      'check-reach': { type: 'boolean' },
      summarize: { type: 'boolean' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const surface = values.surface ?? fail('--surface is required');
  if (!(SURFACES as readonly string[]).includes(surface)) fail(`--surface ${surface}: unknown (known: ${SURFACES.join(', ')})`);
  const size = values.sample === undefined ? undefined : Number(values.sample);
  if (size !== undefined && !(Number.isInteger(size) && size > 0)) fail(`--sample ${values.sample}: expected a whole number above 0`);
  const reportDir = resolve(values['report-dir'] ?? 'reports/mutation', surface);
  mkdirSync(reportDir, { recursive: true });

  const modules = surfaceModules(surface, values.files ?? []);
  if (modules.length === 0) fail(`--files ${values.files?.join(' ')}: no reference module of ${surface} matches`);
  const listed = await listMutants(modules);
  if (values.summarize) return summarizeAgain(surface, reportDir, listed, modules);
  const kept = readReach(surface);
  const reachOnly = values.reach === true;
  if (reachOnly && (size !== undefined || values.files)) fail('--reach measures every module of the surface: leave out --sample and --files');
  if (values.mutant && (size !== undefined || reachOnly)) fail('--mutant names the mutants to run: leave out --sample and --reach');
  const picked = values.mutant ? named(listed, values.mutant) : size === undefined ? undefined : sample(listed, size, values.seed ?? '1', mustFirst(kept));
  console.log(
    `${surface}: ${listed.length} mutants in ${modules.length} modules` +
      (picked ? `; ${values.mutant ? 'named' : `sample (seed ${values.seed ?? '1'})`}: ${picked.mutants.length} in ${picked.ranges.length} places` : ''),
  );
  if (picked && picked.mutants.length === 0) fail(`--sample ${size}: no place holds so few mutants`);
  if (picked && !kept) console.log(`no kept reach for ${surface} (npm run mutate -- --surface ${surface} --reach): the sample cannot put must-clause modules first`);

  const settings: RunnerSettings = { surface, workDir: join(PROJECT_ROOT, '.cache', 'mutate', `runs-${process.pid}`), checkReach: values['check-reach'] === true };
  const strykerDir = join('.cache', 'stryker', `run-${process.pid}`);
  const removeFolders = (): void => {
    rmSync(settings.workDir, { recursive: true, force: true });
    rmSync(join(PROJECT_ROOT, strykerDir), { recursive: true, force: true });
  };
  stopOnSignals(randomUUID(), removeFolders);
  const jsonFile = join(reportDir, 'mutation.json');
  const startedAt = Date.now();
  const options = {
    testRunner: 'conformance',
    plugins: [join(PROJECT_ROOT, 'tools/mutate/conformance-runner.ts')],
    testRunnerNodeArgs: ['--import', 'tsx'],
    checkerNodeArgs: ['--import', 'tsx'],
    dryRunOnly: reachOnly,
    coverageAnalysis: 'perTest',
    concurrency: 1,
    mutate: picked ? picked.ranges : modules,
    ignorePatterns: ['/.cache', '/reports', '/.tmp'],
    tempDirName: strykerDir,
    reporters: ['html', 'json', 'progress'],
    htmlReporter: { fileName: relative(PROJECT_ROOT, join(reportDir, 'mutation.html')) },
    jsonReporter: { fileName: relative(PROJECT_ROOT, jsonFile) },
    // The suite's own time limits end a case that waits on a mutated target; this bounds the whole run.
    timeoutMS: 60_000,
    timeoutFactor: 1.5,
    disableTypeChecks: true,
    fileLogLevel: 'off',
    warnings: { unknownOptions: false },
    conformance: settings,
  };
  let measured: Reach | undefined;
  let misses: string[] = [];
  try {
    mkdirSync(settings.workDir, { recursive: true });
    const optionsFile = join(settings.workDir, 'stryker-options.json');
    writeFileSync(optionsFile, JSON.stringify(options));
    const code = await new Promise<number | null>((done) => {
      spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'tools/mutate/run-stryker.ts'), optionsFile], { stdio: 'inherit' }).once('close', done);
    });
    await unlessInterrupted();
    if (code !== 0) throw new Error(`StrykerJS exited ${code}`);
  } finally {
    measured = readJson<Reach>(join(settings.workDir, REACH));
    misses = existsSync(join(settings.workDir, REACH_MISSES)) ? readFileSync(join(settings.workDir, REACH_MISSES), 'utf8').split('\n').filter(Boolean) : [];
    removeFolders();
  }
  const wallMs = Date.now() - startedAt;
  if (!measured) throw new Error('the dry run measured no reach (its runner wrote none)');
  writeFileSync(join(reportDir, 'reach.json'), `${JSON.stringify(measured, null, 2)}\n`);
  // The kept reach is what a full measure gives (every mutant of every module); a sample's is partial.
  if (!picked && !values.files) {
    const changed = reachChanges(kept, measured);
    console.log(changed.length === 0 ? `reach: as kept in ${relative(PROJECT_ROOT, reachFile(surface))}` : `reach: ${changed.length} module(s) differ from the kept reach (${changed.slice(0, 5).join(', ')}${changed.length > 5 ? ', …' : ''}); written to ${relative(PROJECT_ROOT, reachFile(surface))}`);
    mkdirSync(dirname(reachFile(surface)), { recursive: true });
    writeFileSync(reachFile(surface), `${JSON.stringify(measured, null, 2)}\n`);
  }
  if (reachOnly) {
    console.log(`reach of ${surface}: ${Object.keys(measured.modules).length} modules, ${Object.values(measured.modules).filter((f) => f.length === 0).length} reached by no suite file (${Math.round(wallMs / 1000)} s)`);
    return 0;
  }

  return writeSummary(surface, reportDir, listed, modules, { listed: listed.length, modules: modules.length, sampled: picked !== undefined, wallMs, reachMisses: settings.checkReach ? misses.length : null });
}

/** The table of the run whose Stryker report is in `reportDir`, with the answers as they are now; exit 1
 * while a survivor is unanswered or an answer is wrong. */
function writeSummary(surface: string, reportDir: string, listed: ListedMutant[], modules: string[], run: RunFigures): number {
  const report = JSON.parse(readFileSync(join(reportDir, 'mutation.json'), 'utf8')) as StrykerReport;
  const { answers, problems } = readAnswers(surface);
  for (const name of staleAnswers(answers.keys(), listed, modules)) problems.push(`${name}: no such mutant any more (the code changed): answer it again or remove it`);
  const summary = summarize(surface, report, answers, run);
  const markdown = summaryMarkdown(summary, relative(PROJECT_ROOT, answersFile(surface)));
  writeFileSync(join(reportDir, 'summary.md'), markdown);
  writeFileSync(join(reportDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  console.log(`\n${markdown}`);
  for (const p of problems) console.error(`answers: ${p}`);
  return summary.unanswered.length > 0 || problems.length > 0 ? 1 : 0;
}

/** --summarize: the last run's table again (its figures kept), with the answers as they are now. */
function summarizeAgain(surface: string, reportDir: string, listed: ListedMutant[], modules: string[]): number {
  const last = readJson<Summary>(join(reportDir, 'summary.json'));
  if (!last || !existsSync(join(reportDir, 'mutation.json'))) fail(`--summarize: no run of ${surface} in ${relative(process.cwd(), reportDir)}`);
  return writeSummary(surface, reportDir, listed, modules, { listed: last.generated, modules: last.modules, sampled: last.sampled, wallMs: last.wallMs, reachMisses: last.reachMisses });
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(2);
  },
);
