// What the runner prints (the terminal reporter): the targets, the progress line with each failure as it
// happens (progress.ts); at the end each failure and error with its clause, paraphrase, target, what went
// wrong and a reproducer, informational outcomes (in full with --verbose), stale known-failing entries, then
// per surface the conformance figure beside must-clauses judged and coverage, and the totals.
import type { Catalog, Clause } from '../spec/catalog.ts';
import { mustPercent, type SurfaceStanding } from './clause-status.ts';
import { type CaseResult, failsRun, headline } from './outcomes.ts';
import { clock, Progress } from './progress.ts';
import type { JsonReport, Summary } from './report-json.ts';
import type { Reporter, RunBegin, RunEnd } from './reporter.ts';

const write = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};

/** A reproducer longer than this shows its setup lines and its last lines; report.json has it whole. */
const REPRO_SHOWN = 24;
const REPRO_TAIL = 14;

function indent(text: string, prefix = '    '): string {
  return text
    .split('\n')
    .map((l) => prefix + l)
    .join('\n');
}

/** The reproducer as shown: whole when short; else the setup (comment lines) and the last steps. */
function shownReproducer(lines: string[], reportFile: string): string[] {
  if (lines.length <= REPRO_SHOWN) return lines;
  const setup = lines.slice(0, -REPRO_TAIL).filter((l) => l.startsWith('#')).slice(0, REPRO_SHOWN - REPRO_TAIL);
  const left = lines.length - REPRO_TAIL - setup.length;
  return [...setup, `# (${left} earlier steps: see "reproducer" of this case in ${reportFile})`, ...lines.slice(-REPRO_TAIL)];
}

const HEADING: Partial<Record<CaseResult['outcome'], string>> = {
  fail: 'FAIL',
  error: 'ERROR',
  informational: 'INFO',
  'expected-fail': 'XFAIL',
};

function printCase(r: CaseResult, clause: Clause | undefined, target: string, reportFile: string): void {
  const notJudged = r.outcome === 'error' ? (failsRun(r) ? ' — could not judge (fails the run)' : ' — could not judge (not a must-clause)') : '';
  write();
  write(`${HEADING[r.outcome] ?? r.outcome.toUpperCase()} ${r.id}${notJudged}`);
  write(`  clause ${r.clause} (${clause?.level}): ${clause?.text ?? ''}`);
  if (clause?.reference) write(`  reference chose: ${clause.reference}`);
  write(`  target: ${target}`);
  if (r.message) write(indent(r.message));
  if (r.reproducer.length > 0) {
    write('  reproduce:');
    write(indent(shownReproducer(r.reproducer, reportFile).join('\n')));
  }
}

export interface PrintOptions {
  verbose: boolean;
  reportFile: string;
}

/** A failure as it happens: the case, its clause and the first lines of what went wrong (the whole of it,
 * with the reproducer, comes at the end). */
function liveBlock(r: CaseResult, clause: Clause | undefined): string {
  const what = r.outcome === 'fail' ? 'FAIL' : 'ERROR';
  return [`${what} ${r.id}${r.outcome === 'error' ? ' — could not judge' : ''}`, `  clause ${r.clause} (${r.level}): ${clause?.text ?? ''}`, `  ${headline(r.message, 300)}`].join('\n');
}

export class TerminalReporter implements Reporter {
  readonly #catalog: Catalog;
  readonly #verbose: boolean;
  #progress: Progress | undefined;
  #targets: Record<string, string> = {};

  constructor(catalog: Catalog, options: { verbose: boolean }) {
    this.#catalog = catalog;
    this.#verbose = options.verbose;
  }

  begin(run: RunBegin): void {
    this.#targets = run.targets;
    for (const [surface, target] of Object.entries(run.targets)) write(`${surface}: ${target}`);
    this.#progress = new Progress(process.stdout, run.plan);
  }

  caseEnded(r: CaseResult): void {
    const fails = failsRun(r);
    this.#progress?.caseEnded(r.surface, fails);
    if (fails) this.#progress?.print(liveBlock(r, this.#catalog.byId.get(r.clause)));
  }

  end({ report, reportFile }: RunEnd): void {
    this.#progress?.end();
    const results = report.results as CaseResult[];
    printOutcomes(results, this.#catalog.byId, this.#targets, { verbose: this.#verbose, reportFile });
    for (const e of report.staleKnownFailing) {
      write();
      write(`STALE known-failing entry '${e.glob}' (${e.reason}): matches no case of the suites it names`);
    }
    const bySurface = new Map<string, CaseResult[]>(report.surfaces.map((s) => [s.surface, results.filter((r) => r.surface === s.surface)]));
    printSummary(bySurface, report.summary, report.surfaces);
    if (report.interrupted) write(interruptedLine(report));
  }
}

function interruptedLine(report: JsonReport): string {
  const ran = report.results.filter((r) => r.outcome !== 'skipped').length;
  const since = Date.parse(report.interrupted!.at) - Date.parse(report.timing.startedAt);
  return `INTERRUPTED by ${report.interrupted!.signal} at ${clock(since)}: ${ran} cases had ended; the others are skipped in the reports`;
}

/** Failures and errors in full; informational outcomes in full with --verbose, else one line each. */
export function printOutcomes(results: CaseResult[], clauses: Map<string, Clause>, targets: Record<string, string>, options: PrintOptions): void {
  const full = results.filter((r) => r.outcome === 'fail' || r.outcome === 'error' || (options.verbose && (r.outcome === 'informational' || r.outcome === 'expected-fail')));
  for (const r of full) printCase(r, clauses.get(r.clause), targets[r.surface] ?? '', options.reportFile);
  const brief = options.verbose ? [] : results.filter((r) => r.outcome === 'informational');
  if (brief.length > 0) {
    write();
    write(`informational (the target differs from the reference's choice where the documents leave room; --verbose for details):`);
    for (const r of brief) write(`  ${r.id}: ${headline(r.message, 160)}`);
  }
}

export function printSummary(bySurface: Map<string, CaseResult[]>, summary: Summary, standings: SurfaceStanding[]): void {
  const head = ['surface', 'pass', 'fail', 'error', 'info', 'xfail', 'n/a', 'skip', 'must-clauses passed', 'judged', 'covered'];
  const rows = standings.map((s) => {
    const rs = bySurface.get(s.surface) ?? [];
    const n = (o: CaseResult['outcome']): string => String(rs.filter((r) => r.outcome === o).length);
    const pct = mustPercent(s);
    return [s.surface, n('pass'), n('fail'), n('error'), n('informational'), n('expected-fail'), n('not-applicable'), n('skipped'), `${s.mustPassed}/${s.must} (${pct}%)`, `${s.mustJudged}/${s.must}`, `${s.mustCovered}/${s.must}`];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  write();
  write(line(head));
  for (const r of rows) write(line(r));
  write('(must-clauses passed: every case of the clause that ran passed; judged: a case of it passed or failed; covered: the clause has a case)');
  write();
  const errors = summary.errors === summary.mustErrors ? `${summary.errors}` : `${summary.errors} (${summary.mustErrors} on must-clauses)`;
  write(
    `passed ${summary.passed}, failed ${summary.failed}, error ${errors}, informational ${summary.informational}, expected-fail ${summary.expectedFail}, not-applicable ${summary.notApplicable}, skipped ${summary.skipped}`,
  );
}

export function printList(results: CaseResult[]): void {
  const width = Math.max(0, ...results.map((r) => r.id.length));
  for (const r of results) write(`${r.id.padEnd(width)}  ${r.clause}`);
}
