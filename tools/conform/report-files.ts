// The reporter that writes the run's files into --report-dir: report.json (the run as data, which later
// readings of the run — --last-failed, merging, comparing — read back), junit.xml and report.html.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { htmlReport } from './report-html.ts';
import { junitReport } from './report-junit.ts';
import type { Reporter, RunEnd } from './reporter.ts';

export const REPORT_FILES = ['report.json', 'junit.xml', 'report.html'] as const;

export class ReportFiles implements Reporter {
  readonly #dir: string;

  /** `dir`: absolute. */
  constructor(dir: string) {
    this.#dir = dir;
  }

  end({ report, catalog, states }: RunEnd): void {
    mkdirSync(this.#dir, { recursive: true });
    writeFileSync(join(this.#dir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(join(this.#dir, 'junit.xml'), junitReport(report, catalog.byId));
    writeFileSync(join(this.#dir, 'report.html'), htmlReport(report, states));
  }
}
