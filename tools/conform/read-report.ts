// Reads back the report.json a run wrote (never a reporter's text), for merging shards and comparing runs.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonReport } from './report-json.ts';
import { UsageError } from './usage-error.ts';

/** The report at `path`: a report folder (its report.json) or the file itself. `minVersion`: the oldest
 * schema version the reading can use. */
export function readReport(path: string, minVersion: number, command: string): JsonReport {
  const file = statSync(path, { throwIfNoEntry: false })?.isDirectory() ? join(path, 'report.json') : path;
  let report: JsonReport;
  try {
    report = JSON.parse(readFileSync(file, 'utf8')) as JsonReport;
  } catch (err) {
    throw new UsageError(`${command}: cannot read ${file}: ${(err as Error).message}`);
  }
  if (typeof report?.schemaVersion !== 'number' || !Array.isArray(report.results) || !Array.isArray(report.clauses)) {
    throw new UsageError(`${command}: ${file} is not a report.json of this tool`);
  }
  if (report.schemaVersion < minVersion) {
    throw new UsageError(`${command}: ${file} has report schema ${report.schemaVersion}; this needs ${minVersion} or later (run it again with this harness)`);
  }
  return report;
}
