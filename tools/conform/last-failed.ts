// --last-failed: the cases to run again, read back from the report.json of the previous run (never from a
// reporter's text): those that failed or could not judge their clause, whatever the clause's level.
import { readFileSync } from 'node:fs';
import type { JsonReport, ReportResult } from './report-json.ts';
import { UsageError } from './usage-error.ts';

export function lastFailedCases(file: string): ReportResult[] {
  let report: JsonReport;
  try {
    report = JSON.parse(readFileSync(file, 'utf8')) as JsonReport;
  } catch (err) {
    throw new UsageError(`--last-failed: no report of a previous run to read (${(err as Error).message})`);
  }
  if (!Array.isArray(report?.results)) throw new UsageError(`--last-failed: ${file} is not a report.json of this tool`);
  return report.results.filter((r) => r.outcome === 'fail' || r.outcome === 'error');
}
