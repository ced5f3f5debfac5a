// The GitHub Actions reporter (`--reporter github`, on by itself when GITHUB_ACTIONS is set): a workflow
// command per case that fails or could not judge its clause, as the case ends (`::error` when it fails the
// run, `::warning` for an `error` on a should/unspecified clause), one per reason the run fails beyond its
// cases (a stale known-failing entry, a surface judged nothing), and at the end the per-surface table as
// Markdown appended to $GITHUB_STEP_SUMMARY when that is set. The commands' escaping is GitHub's
// (workflow-commands documentation): `%`, CR and LF in the message; also `:` and `,` in properties.
import { appendFileSync } from 'node:fs';
import type { Catalog } from '../spec/catalog.ts';
import { type CaseResult, failsRun, headline } from './outcomes.ts';
import type { JsonReport } from './report-json.ts';
import type { Reporter, RunEnd } from './reporter.ts';
import { mustPercent } from './clause-status.ts';

/** Characters of a failure's text carried in its annotation (GitHub shows a few lines of it). */
const MESSAGE_CHARS = 1500;
/** Failures listed in the step summary. */
const SUMMARY_FAILURES = 50;

const escapeData = (text: string): string => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (text: string): string => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

export function annotation(level: 'error' | 'warning', title: string, message: string): string {
  return `::${level} title=${escapeProperty(title)}::${escapeData(message)}`;
}

/** The first failed check of a case's message (ava's detail, up to the list of further ones). */
function firstCheck(message: string): string {
  const first = message.split(/\n\n\d+ more failed checks?:\n/)[0] ?? '';
  return first.length > MESSAGE_CHARS ? `${first.slice(0, MESSAGE_CHARS - 1)}…` : first;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function stepSummary(report: JsonReport): string {
  const state = report.interrupted ? `interrupted (${report.interrupted.signal})` : report.verdict.exitCode === 0 ? 'passed' : 'failed';
  const count = (surface: string, outcome: CaseResult['outcome']) => report.results.filter((r) => r.surface === surface && r.outcome === outcome).length;
  const rows = report.surfaces.map((s) => {
    const pct = mustPercent(s);
    const outcomes = (['pass', 'fail', 'error', 'informational', 'expected-fail', 'not-applicable', 'skipped'] as const).map((o) => count(s.surface, o));
    return `| ${cell(s.surface)} | ${cell(s.target)} | ${outcomes.join(' | ')} | ${s.mustPassed}/${s.must} (${pct}%) | ${s.mustJudged}/${s.must} | ${s.mustCovered}/${s.must} |`;
  });
  const lines = [
    `## Conformance: ${state}`,
    '',
    '| surface | target | pass | fail | error | info | xfail | n/a | skip | must-clauses passed | judged | covered |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...rows,
    '',
  ];
  if (report.verdict.reasons.length > 0) lines.push(`Exit code ${report.verdict.exitCode}:`, ...report.verdict.reasons.map((r) => `- ${r}`), '');
  const problems = report.results.filter((r) => r.outcome === 'fail' || (r.outcome === 'error' && failsRun(r)));
  if (problems.length > 0) {
    lines.push(`<details><summary>${problems.length} case(s) failed or could not judge a must-clause</summary>`, '');
    for (const r of problems.slice(0, SUMMARY_FAILURES)) lines.push(`- \`${r.id}\` (${r.outcome}): ${cell(headline(r.message))}`);
    if (problems.length > SUMMARY_FAILURES) lines.push(`- … and ${problems.length - SUMMARY_FAILURES} more in report.json`);
    lines.push('', '</details>', '');
  }
  return `${lines.join('\n')}\n`;
}

export class GithubReporter implements Reporter {
  readonly #catalog: Catalog;
  readonly #summaryFile: string | undefined;

  constructor(catalog: Catalog, env: NodeJS.ProcessEnv = process.env) {
    this.#catalog = catalog;
    this.#summaryFile = env.GITHUB_STEP_SUMMARY || undefined;
  }

  caseEnded(r: CaseResult): void {
    if (r.outcome !== 'fail' && r.outcome !== 'error') return;
    const clause = this.#catalog.byId.get(r.clause);
    const title = `${r.outcome === 'fail' ? 'FAIL' : 'ERROR (could not judge)'} ${r.id}`;
    const message = `${r.level} clause ${r.clause}: ${clause?.text ?? ''}\n${firstCheck(r.message)}`;
    process.stdout.write(`${annotation(failsRun(r) ? 'error' : 'warning', title, message)}\n`);
  }

  end({ report }: RunEnd): void {
    // The reasons of the cases' own outcomes were annotated as they ended; the others here.
    for (const reason of report.verdict.reasons.filter((r) => !/^\d+ cases? (failed|could not judge)/.test(r))) {
      process.stdout.write(`${annotation('error', report.interrupted ? 'conformance run interrupted' : 'conformance gate', reason)}\n`);
    }
    if (this.#summaryFile) appendFileSync(this.#summaryFile, stepSummary(report));
  }
}
