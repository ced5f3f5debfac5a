// report.html: one page a person takes in at a glance — per surface the conformance figure (must-clauses
// passed out of must-clauses) as a bar beside coverage, a grid with one cell per clause coloured by its
// status, then the clause matrix (level, paraphrase, every case with its outcome, detail and reproducer).
// Filters by status and surface hide cells and rows alike (a few lines of inline script; the page works
// without it, unfiltered).
import { type ClauseState, type ClauseStatus, mustPercent, type SurfaceStanding } from './clause-status.ts';
import { type CaseResult, headline, type Outcome } from './outcomes.ts';
import type { JsonReport } from './report-json.ts';

const OUTCOME_COLOR: Record<Outcome, string> = {
  pass: '#1a7f37',
  fail: '#cf222e',
  error: '#bc4c00',
  skipped: '#6e7781',
  'not-applicable': '#8250df',
  informational: '#9a6700',
  'expected-fail': '#0969da',
};

export const STATUS_COLOR: Record<ClauseStatus, string> = {
  passed: '#2da44e',
  failed: '#cf222e',
  error: '#e16f24',
  'expected-fail': '#0969da',
  informational: '#d4a72c',
  'not-judged': '#a8b1ba',
  'no-case': '#eaeef2',
};

export const STATUS_LABEL: Record<ClauseStatus, string> = {
  passed: 'passed',
  failed: 'failed',
  error: 'error (not judged)',
  'expected-fail': 'known failing',
  informational: 'informational',
  'not-judged': 'not run',
  'no-case': 'no case',
};

export function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function badge(r: CaseResult): string {
  const behaviour = r.id.slice(r.clause.length + 1);
  const detail = [r.message, ...(r.reproducer.length > 0 ? ['', 'reproduce:', ...r.reproducer] : [])].filter((l, i) => i > 0 || l !== '').join('\n');
  const label = `<span class="b" style="background:${OUTCOME_COLOR[r.outcome]}">${esc(r.outcome)}</span> ${esc(behaviour)}`;
  const expandable = detail !== '' && r.outcome !== 'pass' && r.outcome !== 'skipped';
  return expandable ? `<details><summary>${label}</summary><pre>${esc(detail)}</pre></details>` : `<div>${label}</div>`;
}

function clauseRow({ clause, status, cases }: ClauseState): string {
  const note = clause.reference ? `<div class="ref">reference: ${esc(clause.reference)}</div>` : '';
  const shown = cases.length === 0 ? (clause.level === 'must' ? '<b>no case</b>' : '—') : cases.map(badge).join('');
  return `<tr class="row" id="${esc(clause.id)}" data-status="${status}" data-surface="${clause.surface}"><td><span class="dot" style="background:${STATUS_COLOR[status]}" title="${STATUS_LABEL[status]}"></span><code>${esc(clause.id)}</code><div class="sec">${esc(clause.section)}</div></td><td>${clause.level}</td><td>${esc(clause.text)}${note}</td><td>${shown}</td></tr>`;
}

function bar(s: SurfaceStanding): string {
  const parts: [number, ClauseStatus, string][] = [
    [s.mustPassed, 'passed', 'passed'],
    [s.mustFailed, 'failed', 'failed'],
    [s.mustErrored, 'error', 'not judged (error)'],
    [s.mustNotJudged, 'not-judged', 'not run'],
  ];
  const segments = parts
    .filter(([n]) => n > 0)
    .map(([n, status, label]) => `<span style="width:${(100 * n) / Math.max(1, s.must)}%;background:${STATUS_COLOR[status]}" title="${n} must-clauses ${label}"></span>`)
    .join('');
  return `<div class="bar">${segments}</div>`;
}

function standingRow(s: SurfaceStanding): string {
  const pct = mustPercent(s);
  const detail = [s.mustFailed && `${s.mustFailed} failed`, s.mustErrored && `${s.mustErrored} not judged (error)`, s.mustNotJudged && `${s.mustNotJudged} not run`].filter(Boolean).join(', ');
  return `<tr><td><a href="#s-${s.surface}">${esc(s.surface)}</a><div class="sec">${esc(s.target)}</div></td><td>${bar(s)}</td><td class="n"><b>${s.mustPassed}/${s.must}</b> (${pct}%)<div class="sec">${esc(detail)}</div></td><td class="n">${s.mustJudged}/${s.must}</td><td class="n">${s.mustCovered}/${s.must}</td><td class="n">${s.clauses}</td></tr>`;
}

/** One cell per clause, coloured by its status (also the side-by-side grids of `conform compare`). */
export function grid(surface: string, states: { clause: { id: string; level: string }; status: ClauseStatus }[]): string {
  const cells = states
    .map(({ clause, status }) => {
      const title = `${clause.id} (${clause.level}): ${STATUS_LABEL[status]}`;
      return `<a class="cell ${clause.level}" href="#${esc(clause.id)}" data-status="${status}" data-surface="${surface}" style="background:${STATUS_COLOR[status]}" title="${esc(title)}"></a>`;
    })
    .join('');
  return `<div class="grid">${cells}</div>`;
}

const FILTER_SCRIPT = `
const boxes = [...document.querySelectorAll('.filters input')];
function apply() {
  const on = (kind) => new Set(boxes.filter((b) => b.dataset.kind === kind && b.checked).map((b) => b.value));
  const statuses = on('status');
  const surfaces = on('surface');
  for (const el of document.querySelectorAll('[data-status]')) {
    el.hidden = !statuses.has(el.dataset.status) || !surfaces.has(el.dataset.surface);
  }
  for (const s of document.querySelectorAll('[data-surface]:not([data-status])')) s.hidden = !surfaces.has(s.dataset.surface);
}
for (const b of boxes) b.addEventListener('change', apply);
for (const a of document.querySelectorAll('[data-only]')) a.addEventListener('click', (e) => {
  e.preventDefault();
  for (const b of boxes) if (b.dataset.kind === 'status') b.checked = a.dataset.only.split(' ').includes(b.value);
  apply();
});
`;

/** Why the run did not pass, and whether it was interrupted: above everything else. */
function verdictBanner(report: JsonReport): string {
  if (report.verdict.reasons.length === 0) return '';
  const head = report.interrupted ? `Interrupted by ${esc(report.interrupted.signal)}` : `Exit code ${report.verdict.exitCode}`;
  return `<div class="verdict${report.interrupted ? ' interrupted' : ''}"><b>${head}</b><ul>${report.verdict.reasons.map((r) => `<li>${esc(r)}</li>`).join('')}</ul></div>`;
}

export function htmlReport(report: JsonReport, states: ClauseState[]): string {
  const results = report.results as CaseResult[];
  const standings = report.surfaces;
  const summary = report.summary;
  const statusCount = (status: ClauseStatus) => states.filter((s) => s.status === status).length;
  const statusBoxes = (Object.keys(STATUS_LABEL) as ClauseStatus[])
    .map(
      (st) =>
        `<label><input type="checkbox" data-kind="status" value="${st}" checked><span class="dot" style="background:${STATUS_COLOR[st]}"></span>${STATUS_LABEL[st]} (${statusCount(st)})</label>`,
    )
    .join('');
  const surfaceBoxes = standings.map((s) => `<label><input type="checkbox" data-kind="surface" value="${s.surface}" checked>${esc(s.surface)}</label>`).join('');
  const sections = standings.map((s) => {
    const mine = states.filter((st) => st.clause.surface === s.surface);
    return `<section data-surface="${s.surface}"><h2 id="s-${s.surface}">${esc(s.surface)} <small>target: ${esc(s.target)}</small></h2>
<table class="m"><tr><th>clause</th><th>level</th><th>rule (paraphrase)</th><th>cases</th></tr>${mine.map(clauseRow).join('\n')}</table></section>`;
  });
  const grids = standings.map((s) => `<div class="g" data-surface="${s.surface}"><div class="gl">${esc(s.surface)}</div>${grid(s.surface, states.filter((st) => st.clause.surface === s.surface))}</div>`).join('');
  const totals = [
    `cases: passed <b>${summary.passed}</b>`,
    `failed <b>${summary.failed}</b>`,
    `error <b>${summary.errors}</b>${summary.errors > summary.mustErrors ? ` (${summary.mustErrors} on must-clauses)` : ''}`,
    `informational <b>${summary.informational}</b>`,
    `expected-fail <b>${summary.expectedFail}</b>`,
    `not-applicable <b>${summary.notApplicable}</b>`,
    `skipped <b>${summary.skipped}</b>`,
  ].join(' · ');
  const problems = results.filter((r) => r.outcome === 'fail' || r.outcome === 'error');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Conformance report</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;color:#1f2328;max-width:110em}table{border-collapse:collapse;margin:1em 0}
td,th{border:1px solid #d0d7de;padding:4px 8px;vertical-align:top;text-align:left}.m td:first-child{white-space:nowrap}
.b{color:#fff;border-radius:3px;padding:0 5px;font-size:12px}.sec,.ref{color:#57606a;font-size:12px}.n{text-align:right;white-space:nowrap}
pre{white-space:pre-wrap;max-width:70em;font-size:12px}small{color:#57606a;font-weight:normal}
.bar{display:flex;width:22em;height:14px;background:#eaeef2;border-radius:3px;overflow:hidden}.bar span{display:block;height:100%}
.grid{display:flex;flex-wrap:wrap;gap:2px;max-width:70em}.cell{display:block;width:11px;height:11px;border-radius:2px}
.cell[data-status=no-case]{outline:1px solid #d0d7de;outline-offset:-1px}.cell.should,.cell.unspecified{opacity:.55;width:8px;height:8px;margin:1.5px}.g{display:flex;gap:1em;margin:.4em 0}.gl{width:9em;flex:none;font-weight:600}
.dot{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px;vertical-align:middle}
.verdict{border:1px solid #cf222e;background:#ffebe9;padding:.4em 1em;border-radius:4px}.verdict.interrupted{border-color:#9a6700;background:#fff8c5}
.filters label{margin-right:1em;white-space:nowrap}.filters{margin:.6em 0;line-height:2}[hidden]{display:none!important}</style>
</head><body><h1>Conformance report${report.interrupted ? ' (interrupted)' : ''}</h1>${verdictBanner(report)}<p>${totals}</p>
<table><tr><th>surface / target</th><th>must-clauses</th><th>passed</th><th>judged</th><th>covered</th><th>clauses</th></tr>${standings.map(standingRow).join('')}</table>
<h2>Clauses at a glance</h2><p class="sec">One cell per clause (large: must; small: should and unspecified), coloured by status; a cell leads to its row.
A clause passes when every case of it that ran passed.</p>
<div class="filters">${statusBoxes}<br>${surfaceBoxes} · <a href="#" data-only="failed error">only failed and error</a> · <a href="#" data-only="${Object.keys(STATUS_LABEL).join(' ')}">all</a></div>
${grids}
${problems.length === 0 ? '' : `<h2>Failed and not judged</h2><ul>${problems.map((r) => `<li data-status="${r.outcome === 'fail' ? 'failed' : 'error'}" data-surface="${r.surface}"><span class="b" style="background:${OUTCOME_COLOR[r.outcome]}">${r.outcome}</span> <a href="#${esc(r.clause)}"><code>${esc(r.id)}</code></a> ${esc(headline(r.message))}</li>`).join('')}</ul>`}
${sections.join('\n')}
<script>${FILTER_SCRIPT}</script></body></html>
`;
}
