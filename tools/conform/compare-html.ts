// `conform compare` as a page: each surface's figure per run, the clause grids of the runs one above the
// other (the grid report.html draws, side by side), and the matrix with a coloured cell per clause and run.
import type { ClauseStatus } from './clause-status.ts';
import type { Comparison } from './compare.ts';
import { figure } from './compare-markdown.ts';
import { esc, grid, STATUS_COLOR, STATUS_LABEL } from './report-html.ts';

export function compareHtml({ columns, rows, surfaces, changes }: Comparison): string {
  const names = columns.map((c) => c.name);
  const head = `<tr><th></th>${names.map((n) => `<th>${esc(n)}</th>`).join('')}</tr>`;
  const figures = surfaces.map((s) => `<tr><td>${esc(s)}</td>${columns.map(({ report }) => `<td class="n">${esc(figure(report, s))}</td>`).join('')}</tr>`).join('');
  const grids = surfaces
    .map((s) => {
      const mine = rows.filter((r) => r.surface === s);
      const lines = columns.map((_, i) => {
        const states = mine.filter((r) => r.statuses[i] !== undefined).map((r) => ({ clause: { id: r.id, level: r.levels[i]! }, status: r.statuses[i]! }));
        return `<div class="g"><div class="gl">${esc(names[i]!)}</div>${grid(s, states)}</div>`;
      });
      return `<h3>${esc(s)}</h3>${lines.join('')}`;
    })
    .join('');
  const cell = (status: ClauseStatus | undefined): string =>
    status === undefined ? '<td>—</td>' : `<td><span class="dot" style="background:${STATUS_COLOR[status]}"></span>${esc(STATUS_LABEL[status])}</td>`;
  const matrix = rows
    .map((r) => {
      const levels = [...new Set(r.levels.filter((l): l is string => l !== undefined))].join(' → ');
      const differs = new Set(r.statuses).size > 1;
      return `<tr id="${esc(r.id)}"${differs ? ' class="d"' : ''}><td><code>${esc(r.id)}</code></td><td>${esc(levels)}</td>${r.statuses.map(cell).join('')}</tr>`;
    })
    .join('\n');
  const changeLists = changes
    .map((c) => {
      const list = (title: string, items: typeof c.regressed) =>
        `<p><b>${title}</b>: ${items.length === 0 ? 'none' : `${items.length}</p><ul>${items.map((x) => `<li><a href="#${esc(x.id)}"><code>${esc(x.id)}</code></a> (${esc(x.level)}): ${esc(x.from)} → ${esc(x.to)}</li>`).join('')}</ul><p>`}</p>`;
      return `<h2>${esc(c.name)} against ${esc(names[0]!)}</h2>${list('Regressed', c.regressed)}${list('Fixed', c.fixed)}${list('No longer judged', c.noLongerJudged)}${list('Otherwise changed', c.otherwise)}${list('Level changed', c.levelChanged)}`;
    })
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Conformance compared</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;color:#1f2328;max-width:110em}table{border-collapse:collapse;margin:1em 0}
td,th{border:1px solid #d0d7de;padding:4px 8px;text-align:left}.n{text-align:right}tr.d{background:#fff8c5}
.grid{display:flex;flex-wrap:wrap;gap:2px;max-width:70em}.cell{display:block;width:11px;height:11px;border-radius:2px}
.cell[data-status=no-case]{outline:1px solid #d0d7de;outline-offset:-1px}.cell.should,.cell.unspecified{opacity:.55;width:8px;height:8px;margin:1.5px}
.g{display:flex;gap:1em;margin:.3em 0}.gl{width:9em;flex:none;font-weight:600}
.dot{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px;vertical-align:middle}</style>
</head><body><h1>Conformance compared</h1>
<h2>Must-clauses passed, per surface</h2><table>${head}${figures}</table>
${changeLists}
<h2>Clauses at a glance</h2><p>One cell per clause and run (large: must; small: should and unspecified), coloured by status.</p>${grids}
<h2>Clauses</h2><p>Rows whose runs differ are highlighted.</p><table>${head.replace('<th></th>', '<th>clause</th><th>level</th>')}${matrix}</table>
</body></html>
`;
}
