// JUnit XML in the common (Ant/Jenkins) shape: <testsuites><testsuite name=surface><testcase name=id
// classname=surface time=seconds>. An interrupted run says so in its name, in a property of each suite and in
// the skipped message of each case it did not see to the end. Hand-written: the format is a handful of
// elements and the only care needed is escaping.
import type { Clause } from '../spec/catalog.ts';
import { type CaseResult, failsRun } from './outcomes.ts';
import type { JsonReport } from './report-json.ts';

export function xmlEscape(text: string): string {
  return (
    text
      // Characters XML 1.0 forbids even when escaped.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
      .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/g, '\ufffd')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

/** Seconds, as JUnit's `time` attributes hold them. */
const seconds = (ms: number): string => (ms / 1000).toFixed(3);

function testcase(r: CaseResult, clause: Clause | undefined): string {
  const head = `    <testcase name="${xmlEscape(`${r.id} [${r.clause}]`)}" classname="${xmlEscape(r.surface)}" time="${seconds(r.durationMs)}">`;
  const paraphrase = clause ? `${clause.level}: ${clause.text}` : '';
  const body = [r.message, ...r.reproducer].filter(Boolean).join('\n');
  switch (r.outcome) {
    case 'pass':
      return `${head}</testcase>`;
    case 'fail':
      return `${head}\n      <failure message="${xmlEscape(paraphrase)}" type="conformance">${xmlEscape(body)}</failure>\n    </testcase>`;
    case 'skipped':
    case 'not-applicable':
    case 'expected-fail':
      return `${head}\n      <skipped message="${xmlEscape(`${r.outcome}: ${r.message.split('\n')[0] ?? ''}`)}"/>\n    </testcase>`;
    case 'error':
      // On a must-clause it fails the run: a JUnit error (the case could not run to a verdict). Elsewhere it
      // is reported like an informational outcome.
      if (failsRun(r)) return `${head}\n      <error message="${xmlEscape(`could not judge: ${paraphrase}`)}" type="inconclusive">${xmlEscape(body)}</error>\n    </testcase>`;
      return `${head}\n      <system-out>${xmlEscape(`error, not judged (${paraphrase})\n${body}`)}</system-out>\n    </testcase>`;
    case 'informational':
      return `${head}\n      <system-out>${xmlEscape(`informational (${paraphrase})\n${body}`)}</system-out>\n    </testcase>`;
  }
}

export function junitReport(report: JsonReport, clauses: Map<string, Clause>): string {
  const results = report.results as CaseResult[];
  const interrupted = report.interrupted;
  const properties = interrupted
    ? `\n    <properties>\n      <property name="interrupted" value="${xmlEscape(`${interrupted.signal} at ${interrupted.at}`)}"/>\n    </properties>`
    : '';
  const surfaces = [...new Set(results.map((r) => r.surface))];
  const suites = surfaces.map((surface) => {
    const rs = results.filter((r) => r.surface === surface);
    const failures = rs.filter((r) => r.outcome === 'fail').length;
    const errors = rs.filter((r) => r.outcome === 'error' && failsRun(r)).length;
    const skipped = rs.filter((r) => ['skipped', 'not-applicable', 'expected-fail'].includes(r.outcome)).length;
    const time = seconds(rs.reduce((sum, r) => sum + r.durationMs, 0));
    const cases = rs.map((r) => testcase(r, clauses.get(r.clause))).join('\n');
    return `  <testsuite name="${xmlEscape(surface)}" tests="${rs.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${time}">${properties}\n${cases}\n  </testsuite>`;
  });
  const total = results.length;
  const failures = results.filter((r) => r.outcome === 'fail').length;
  const errors = results.filter((r) => r.outcome === 'error' && failsRun(r)).length;
  const wall = seconds(Date.parse(report.timing.endedAt) - Date.parse(report.timing.startedAt));
  const name = interrupted ? `conformance (interrupted by ${interrupted.signal})` : 'conformance';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xmlEscape(name)}" tests="${total}" failures="${failures}" errors="${errors}" time="${wall}">\n${suites.join('\n')}\n</testsuites>\n`;
}
