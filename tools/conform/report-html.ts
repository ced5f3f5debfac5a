// report.html: one page a person can read — coverage per surface, then the clause matrix: every clause of
// every run surface with its level, paraphrase, and the outcome of each of its cases.
import type { Catalog, Clause } from '../spec/catalog.ts';
import type { SurfaceCoverage } from '../spec/coverage.ts';
import type { CaseResult, Outcome } from './outcomes.ts';
import type { Summary } from './report-json.ts';

const COLOR: Record<Outcome, string> = {
  pass: '#1a7f37',
  fail: '#cf222e',
  skipped: '#6e7781',
  'not-applicable': '#8250df',
  informational: '#9a6700',
  'expected-fail': '#0969da',
};

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function badge(r: CaseResult): string {
  const behaviour = r.id.slice(r.clause.length + 1);
  const detail = [r.message, ...r.reproducer].filter(Boolean).join('\n');
  const label = `<span class="b" style="background:${COLOR[r.outcome]}">${esc(r.outcome)}</span> ${esc(behaviour)}`;
  const expandable = detail !== '' && r.outcome !== 'pass' && r.outcome !== 'skipped';
  return expandable ? `<details><summary>${label}</summary><pre>${esc(detail)}</pre></details>` : `<div>${label}</div>`;
}

function clauseRow(clause: Clause, cases: CaseResult[]): string {
  const status = cases.length === 0 ? (clause.level === 'must' ? 'gap' : 'none') : '';
  const note = clause.reference ? `<div class="ref">reference: ${esc(clause.reference)}</div>` : '';
  return `<tr class="${status}" id="${esc(clause.id)}"><td><code>${esc(clause.id)}</code><div class="sec">${esc(clause.section)}</div></td><td>${clause.level}</td><td>${esc(clause.text)}${note}</td><td>${cases.length === 0 ? (status === 'gap' ? '<b>no case</b>' : '—') : cases.map(badge).join('')}</td></tr>`;
}

export function htmlReport(
  results: CaseResult[],
  catalog: Catalog,
  cov: SurfaceCoverage[],
  summary: Summary,
  targets: Record<string, string>,
): string {
  const bySurface = new Map<string, CaseResult[]>();
  for (const r of results) bySurface.set(r.clause, [...(bySurface.get(r.clause) ?? []), r]);
  const runSurfaces = [...new Set(results.map((r) => r.surface))];
  const covRows = cov
    .map((c) => `<tr><td>${c.surface}</td><td>${c.clauses}</td><td>${c.must}</td><td>${c.mustCovered}</td><td>${c.must ? Math.round((100 * c.mustCovered) / c.must) : 0}%</td></tr>`)
    .join('');
  const sections = runSurfaces.map((surface) => {
    const rows = catalog.clauses
      .filter((c) => c.surface === surface)
      .map((c) => clauseRow(c, bySurface.get(c.id) ?? []))
      .join('\n');
    return `<h2>${esc(surface)} <small>target: ${esc(targets[surface] ?? '')}</small></h2>
<table class="m"><tr><th>clause</th><th>level</th><th>rule (paraphrase)</th><th>cases</th></tr>${rows}</table>`;
  });
  const totals = Object.entries(summary).map(([k, v]) => `${k} <b>${v}</b>`).join(' · ');
  const failures = results.filter((r) => r.outcome === 'fail');
  const failureList =
    failures.length === 0
      ? ''
      : `<h2>Failures</h2><ul>${failures
          .map((r) => `<li><a href="#${esc(r.clause)}"><code>${esc(r.id)}</code></a> ${esc(catalog.byId.get(r.clause)?.text ?? '')}</li>`)
          .join('')}</ul>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Conformance report</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;color:#1f2328}table{border-collapse:collapse;margin:1em 0}
td,th{border:1px solid #d0d7de;padding:4px 8px;vertical-align:top;text-align:left}.m td:first-child{white-space:nowrap}
.b{color:#fff;border-radius:3px;padding:0 5px;font-size:12px}.sec,.ref{color:#57606a;font-size:12px}
tr.gap{background:#ffebe9}pre{white-space:pre-wrap;max-width:70em;font-size:12px}small{color:#57606a;font-weight:normal}</style>
</head><body><h1>Conformance report</h1><p>${totals}</p>
<table><tr><th>surface</th><th>clauses</th><th>must</th><th>must covered</th><th></th></tr>${covRows}</table>
${failureList}
${sections.join('\n')}</body></html>
`;
}
