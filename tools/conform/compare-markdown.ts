// `conform compare` as Markdown (for a pull request comment or a job summary): what each run was, the
// changes against the baseline, each surface's conformance figure per run, and the clause matrix.
import { type ClauseStatus, mustPercent } from './clause-status.ts';
import type { Change, Comparison } from './compare.ts';
import type { JsonReport } from './report-json.ts';

const CELL: Record<ClauseStatus, string> = {
  passed: 'pass',
  failed: '**FAIL**',
  error: '**error**',
  'expected-fail': 'known failing',
  informational: 'info',
  'not-judged': 'not run',
  'no-case': 'no case',
};

const cell = (status: ClauseStatus | undefined): string => (status === undefined ? '—' : CELL[status]);
const code = (text: string): string => `\`${text.replace(/`/g, "'")}\``;
const pipe = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const row = (cells: string[]): string => `| ${cells.map(pipe).join(' | ')} |`;
const table = (head: string[], rows: string[][]): string[] => [row(head), row(head.map(() => '---')), ...rows.map(row)];

/** A run's figure for `surface`: must-clauses passed out of must-clauses. */
export function figure(report: JsonReport, surface: string): string {
  const s = report.surfaces.find((x) => x.surface === surface);
  if (!s) return '—';
  return `${s.mustPassed}/${s.must} (${mustPercent(s)}%)`;
}

function changeList(title: string, changes: Change[]): string[] {
  if (changes.length === 0) return [`${title}: none`];
  return [`${title} (${changes.length}):`, ...changes.map((c) => `- ${code(c.id)} (${c.level}): ${c.from} → ${c.to}`)];
}

export function compareMarkdown({ columns, rows, surfaces, changes }: Comparison): string {
  const names = columns.map((c) => c.name);
  const identity = table(
    ['', ...names],
    [
      ['harness', ...columns.map(({ report: r }) => (r.run ? `${r.run.harness.version}, catalog ${r.run.catalog.hash}` : `report schema ${r.schemaVersion}`))],
      ['Node', ...columns.map(({ report: r }) => r.run?.node ?? '—')],
      ['started', ...columns.map(({ report: r }) => r.timing.startedAt)],
      ['exit code', ...columns.map(({ report: r }) => String(r.verdict.exitCode))],
      ...surfaces.map((s) => [`target (${s})`, ...columns.map(({ report: r }) => r.targets[s] ?? '—')]),
    ],
  );
  const lines = ['# Conformance compared', '', ...identity, ''];
  for (const c of changes) {
    lines.push(
      `## ${c.name} against ${names[0]}`,
      '',
      ...changeList('Regressed', c.regressed),
      '',
      ...changeList('Fixed', c.fixed),
      '',
      ...changeList('No longer judged', c.noLongerJudged),
      '',
      ...changeList('Otherwise changed', c.otherwise),
      '',
      ...changeList('Level changed', c.levelChanged),
      '',
    );
  }
  lines.push('## Must-clauses passed, per surface', '', ...table(['surface', ...names], surfaces.map((s) => [s, ...columns.map(({ report }) => figure(report, s))])), '');
  lines.push(
    '## Clauses',
    '',
    ...table(
      ['clause', 'level', ...names],
      rows.map((r) => {
        const levels = [...new Set(r.levels.filter((l): l is string => l !== undefined))];
        return [code(r.id), levels.join(' → '), ...r.statuses.map(cell)];
      }),
    ),
    '',
  );
  return `${lines.join('\n')}\n`;
}
