// `gateway status --upstream` (catalog gateway/cli/status-upstream-table, status-upstream-columns): one row
// per upstream entry under a header row, columns aligned with spaces. A field another gateway leaves out
// shows as `-`.

export const UPSTREAM_COLUMNS = ['URL', 'STATE', 'HEALTHY', 'LATENCY_MS', 'ACTIVE', '5XX', 'EJECTED'] as const;

type Entry = Record<string, unknown>;

const cell = (value: unknown): string => (value === undefined || value === null ? '-' : String(value));

function row(entry: Entry): string[] {
  const responses = typeof entry['responses'] === 'object' && entry['responses'] !== null ? (entry['responses'] as Entry) : {};
  return [
    cell(entry['url']),
    cell(entry['state']),
    cell(entry['healthy']),
    cell(entry['latency_ms']),
    cell(entry['active_connections']),
    cell(responses['5xx']),
    cell(entry['ejected']),
  ];
}

/** The table as text, one line per row, each ending in a newline; no trailing spaces. */
export function upstreamTable(upstreams: readonly Entry[]): string {
  const rows = [[...UPSTREAM_COLUMNS], ...upstreams.map(row)];
  const widths = UPSTREAM_COLUMNS.map((_, column) => Math.max(...rows.map((cells) => cells[column]!.length)));
  return rows.map((cells) => `${cells.map((text, column) => text.padEnd(widths[column]!)).join('  ').trimEnd()}\n`).join('');
}
