// JUnit XML in the common (Ant/Jenkins) shape: <testsuites><testsuite name=surface><testcase name=id
// classname=surface>. Hand-written: the format is a handful of elements and the only care needed is escaping.
import type { Clause } from '../spec/catalog.ts';
import { type CaseResult, failsRun } from './outcomes.ts';

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

function testcase(r: CaseResult, clause: Clause | undefined): string {
  const head = `    <testcase name="${xmlEscape(`${r.id} [${r.clause}]`)}" classname="${xmlEscape(r.surface)}" time="0">`;
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

export function junitReport(results: CaseResult[], clauses: Map<string, Clause>): string {
  const surfaces = [...new Set(results.map((r) => r.surface))];
  const suites = surfaces.map((surface) => {
    const rs = results.filter((r) => r.surface === surface);
    const failures = rs.filter((r) => r.outcome === 'fail').length;
    const errors = rs.filter((r) => r.outcome === 'error' && failsRun(r)).length;
    const skipped = rs.filter((r) => ['skipped', 'not-applicable', 'expected-fail'].includes(r.outcome)).length;
    const cases = rs.map((r) => testcase(r, clauses.get(r.clause))).join('\n');
    return `  <testsuite name="${xmlEscape(surface)}" tests="${rs.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="0">\n${cases}\n  </testsuite>`;
  });
  const total = results.length;
  const failures = results.filter((r) => r.outcome === 'fail').length;
  const errors = results.filter((r) => r.outcome === 'error' && failsRun(r)).length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="conformance" tests="${total}" failures="${failures}" errors="${errors}">\n${suites.join('\n')}\n</testsuites>\n`;
}
