// What a faulty-target test compares: the clauses a conform run turned red. When they are not the expected
// ones, the assertion says why from the report itself - what each unexpected red clause's cases failed on,
// and how each expected clause's cases ended instead (not-applicable, error, pass) - so a run that fails
// once in CI carries its own cause.
import type { JsonReport } from '../conform/report-json.ts';

type Result = JsonReport['results'][number];

/** Lines of one result's message shown: ava's detail with its diff, or a property's counterexample. */
const MESSAGE_LINES = 40;

/** The clauses with at least one case of `outcome`, sorted. */
export function clausesWith(report: JsonReport, outcome: Result['outcome']): string[] {
  return [...new Set(report.results.filter((r) => r.outcome === outcome).map((r) => r.clause))].sort();
}

/** The clauses with a failed case, sorted. */
export function redClauses(report: JsonReport): string[] {
  return clausesWith(report, 'fail');
}

/** One result with its outcome and message, indented for an assertion message. */
export function described(r: Result): string {
  const lines = r.message.trim().split('\n');
  const shown = lines.slice(0, MESSAGE_LINES).map((line) => `      ${line}`);
  if (lines.length > MESSAGE_LINES) shown.push(`      (${lines.length - MESSAGE_LINES} more lines in report.json)`);
  return `    ${r.id}: ${r.outcome}${r.message.trim() === '' ? '' : `\n${shown.join('\n')}`}`;
}

/** Why the red clauses of `report` are not `expected` (empty when they are): each unexpected red clause
 * with its failed cases' messages, each expected clause not red with every case's outcome and message. */
export function redMismatch(report: JsonReport, expected: string[]): string {
  const red = redClauses(report);
  const want = new Set(expected);
  const parts: string[] = [];
  for (const clause of red.filter((c) => !want.has(c))) {
    const failed = report.results.filter((r) => r.clause === clause && r.outcome === 'fail');
    parts.push(`  red, not expected: ${clause}\n${failed.map(described).join('\n')}`);
  }
  for (const clause of [...want].filter((c) => !red.includes(c)).sort()) {
    const cases = report.results.filter((r) => r.clause === clause);
    parts.push(`  expected red, not red: ${clause}\n${cases.length > 0 ? cases.map(described).join('\n') : '    (no case of it in the report)'}`);
  }
  return parts.length === 0 ? '' : `the red clauses differ from the expected ones:\n${parts.join('\n')}`;
}
