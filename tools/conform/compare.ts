// `conform compare A B […]`: runs set side by side, clause by clause — one implementation at two versions
// (what regressed, what was fixed, which clauses changed level between the catalogs) or several
// implementations (a matrix: one row per clause, one column per run, with each surface's conformance
// figure). Reads back report.json files only (never a reporter's text).
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { CALLER_CWD, fromCaller } from './caller-paths.ts';
import type { ClauseStatus } from './clause-status.ts';
import { compareHtml } from './compare-html.ts';
import { compareMarkdown } from './compare-markdown.ts';
import { readReport } from './read-report.ts';
import type { JsonReport } from './report-json.ts';
import { UsageError } from './usage-error.ts';

export const COMPARE_USAGE = `Usage: npm run conform -- compare REPORT REPORT... [--names A,B,...] [--out DIR] [--fail-on-regression]

Sets runs side by side, clause by clause. Each REPORT is a report folder or a report.json. The first is the
baseline: for each other run, the clauses that regressed (passed there, failed or an error here), were
fixed, are no longer judged (not run, no case, not in the run), changed otherwise (to or from informational),
or changed level between the catalogs. Then each surface's
conformance figure per run, and the matrix: one row per clause, one column per run.

  --names A,B,...        the columns' names (default: each report's folder name)
  --out DIR              write compare.md and compare.html there (default: the Markdown on standard output)
  --fail-on-regression   exit 1 when a clause regressed against the baseline
  --help                 this text`;

export interface Column {
  name: string;
  report: JsonReport;
}

export interface ClauseRow {
  id: string;
  surface: string;
  /** Per column: the clause's level and status in that run, undefined when the run did not have it. */
  levels: (string | undefined)[];
  statuses: (ClauseStatus | undefined)[];
}

export interface Change {
  id: string;
  level: string;
  from: string;
  to: string;
}

/** One run against the baseline. */
export interface Changes {
  name: string;
  regressed: Change[];
  fixed: Change[];
  noLongerJudged: Change[];
  /** Any other change of status (to or from informational, between not run and no case, …). */
  otherwise: Change[];
  levelChanged: Change[];
}

export interface Comparison {
  columns: Column[];
  rows: ClauseRow[];
  surfaces: string[];
  changes: Changes[];
}

const GOOD: ReadonlySet<string> = new Set(['passed']);
/** Known failing is still failing: a departure accepted for now is a departure. */
const BAD: ReadonlySet<string> = new Set(['failed', 'error', 'expected-fail']);
const UNJUDGED: ReadonlySet<string> = new Set(['not-judged', 'no-case', 'absent']);

export function compareReports(columns: Column[]): Comparison {
  const rows = new Map<string, ClauseRow>();
  columns.forEach(({ report }, i) => {
    for (const c of report.clauses) {
      let row = rows.get(c.id);
      if (!row) {
        row = { id: c.id, surface: c.surface, levels: columns.map(() => undefined), statuses: columns.map(() => undefined) };
        rows.set(c.id, row);
      }
      row.levels[i] = c.level;
      row.statuses[i] = c.status as ClauseStatus;
    }
  });
  const all = [...rows.values()];
  const changes = columns.slice(1).map(({ name }, k): Changes => {
    const i = k + 1;
    const change = (r: ClauseRow): Change => ({ id: r.id, level: r.levels[i] ?? r.levels[0] ?? '', from: r.statuses[0] ?? 'absent', to: r.statuses[i] ?? 'absent' });
    const both = all.filter((r) => r.statuses[0] !== undefined && r.statuses[i] !== undefined);
    const changed = all.map(change).filter((x) => x.from !== x.to);
    const regressed = changed.filter((x) => GOOD.has(x.from) && BAD.has(x.to));
    const fixed = changed.filter((x) => BAD.has(x.from) && GOOD.has(x.to));
    const noLongerJudged = changed.filter((x) => GOOD.has(x.from) && UNJUDGED.has(x.to));
    const listed = new Set([...regressed, ...fixed, ...noLongerJudged]);
    return {
      name,
      regressed,
      fixed,
      noLongerJudged,
      otherwise: changed.filter((x) => !listed.has(x)),
      levelChanged: both.filter((r) => r.levels[0] !== r.levels[i]).map((r) => ({ ...change(r), from: r.levels[0]!, to: r.levels[i]! })),
    };
  });
  const surfaces = [...new Set(all.map((r) => r.surface))];
  return { columns, rows: all, surfaces, changes };
}

/** The column names: given, else the report folders' names (made unique by their position). */
function columnNames(paths: string[], given: string | undefined): string[] {
  if (given !== undefined) {
    const names = given.split(',').map((n) => n.trim());
    if (names.length !== paths.length || names.some((n) => n === '')) throw new UsageError(`compare --names: ${paths.length} names expected, separated by commas`);
    return names;
  }
  const names = paths.map((p) => basename(p.endsWith('.json') ? dirname(fromCaller(p)) : fromCaller(p)));
  return names.map((n, i) => (names.indexOf(n) === i && names.lastIndexOf(n) === i ? n : `${n} (${i + 1})`));
}

/** Runs `conform compare`; returns the exit code. */
export function runCompare(argv: string[]): number {
  let parsed: { values: { names?: string; out?: string; 'fail-on-regression'?: boolean; help?: boolean }; positionals: string[] };
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { names: { type: 'string' }, out: { type: 'string' }, 'fail-on-regression': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (err) {
    throw new UsageError(`compare: ${(err as Error).message}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(COMPARE_USAGE);
    return 0;
  }
  if (positionals.length < 2) throw new UsageError('compare: name at least two reports (compare REPORT REPORT...)');
  const names = columnNames(positionals, values.names);
  const comparison = compareReports(positionals.map((path, i) => ({ name: names[i]!, report: readReport(fromCaller(path), 3, 'compare') })));
  const markdown = compareMarkdown(comparison);
  if (values.out === undefined) process.stdout.write(markdown);
  else {
    const out = fromCaller(values.out);
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'compare.md'), markdown);
    writeFileSync(join(out, 'compare.html'), compareHtml(comparison));
    for (const c of comparison.changes) {
      console.log(
        `${c.name} against ${names[0]}: ${c.regressed.length} regressed, ${c.fixed.length} fixed, ${c.noLongerJudged.length} no longer judged, ${c.otherwise.length} otherwise changed, ${c.levelChanged.length} changed level`,
      );
    }
    console.log(`wrote ${relative(CALLER_CWD, join(out, 'compare.md'))} and compare.html`);
  }
  const regressions = comparison.changes.reduce((n, c) => n + c.regressed.length, 0);
  if (values['fail-on-regression'] && regressions > 0) {
    console.error(`${regressions} clause${regressions === 1 ? '' : 's'} regressed against ${names[0]} (--fail-on-regression)`);
    return 1;
  }
  return 0;
}
