// What the runner prints: progress per surface, each failure with its clause, paraphrase, expected vs
// actual and reproducer, then a summary table.
import type { Clause } from '../spec/catalog.ts';
import type { SurfaceCoverage } from '../spec/coverage.ts';
import type { CaseResult } from './outcomes.ts';
import type { Summary } from './report-json.ts';

const write = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};

export class Progress {
  #count = 0;
  #failed = 0;
  /** Names each surface's target, then starts the run's progress line. */
  start(targets: Record<string, string>): void {
    this.#count = 0;
    this.#failed = 0;
    for (const [surface, target] of Object.entries(targets)) write(`${surface}: ${target}`);
    process.stdout.write('  ');
  }
  case(ok: boolean): void {
    this.#count++;
    if (!ok) this.#failed++;
    process.stdout.write(ok ? '.' : 'x');
    if (this.#count % 80 === 0) process.stdout.write('\n  ');
  }
  end(): void {
    write(` ${this.#count} run, ${this.#failed} not ok`);
  }
}

function indent(text: string, prefix = '    '): string {
  return text
    .split('\n')
    .map((l) => prefix + l)
    .join('\n');
}

export function printFailures(results: CaseResult[], clauses: Map<string, Clause>): void {
  const failures = results.filter((r) => r.outcome === 'fail');
  for (const r of failures) {
    const clause = clauses.get(r.clause);
    write();
    write(`FAIL ${r.id}`);
    write(`  clause ${r.clause} (${clause?.level}): ${clause?.text ?? ''}`);
    if (r.message) write(indent(r.message));
    if (r.reproducer.length > 0) {
      write('  reproduce:');
      write(indent(r.reproducer.join('\n')));
    }
  }
}

export function printSummary(
  bySurface: Map<string, CaseResult[]>,
  summary: Summary,
  cov: SurfaceCoverage[],
): void {
  const head = ['surface', 'pass', 'fail', 'info', 'xfail', 'n/a', 'skip', 'must covered'];
  const rows = [...bySurface].map(([surface, rs]) => {
    const n = (o: CaseResult['outcome']): string => String(rs.filter((r) => r.outcome === o).length);
    const c = cov.find((x) => x.surface === surface);
    return [surface, n('pass'), n('fail'), n('informational'), n('expected-fail'), n('not-applicable'), n('skipped'), c ? `${c.mustCovered}/${c.must}` : ''];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  write();
  write(line(head));
  for (const r of rows) write(line(r));
  write();
  write('catalog coverage (must-clauses with at least one case):');
  for (const c of cov) {
    const pct = c.must === 0 ? 0 : Math.floor((100 * c.mustCovered) / c.must);
    write(`  ${c.surface.padEnd(16)} ${String(c.clauses).padStart(4)} clauses  ${String(c.mustCovered).padStart(4)}/${c.must} must (${pct}%)`);
  }
  write();
  write(
    `passed ${summary.passed}, failed ${summary.failed}, informational ${summary.informational}, expected-fail ${summary.expectedFail}, not-applicable ${summary.notApplicable}, skipped ${summary.skipped}`,
  );
}

export function printList(results: CaseResult[]): void {
  const width = Math.max(0, ...results.map((r) => r.id.length));
  for (const r of results) write(`${r.id.padEnd(width)}  ${r.clause}`);
}
