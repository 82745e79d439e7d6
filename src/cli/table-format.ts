/** Query results as text: a table for people, CSV or JSON for other tools. */

export type Cell = unknown;

function text(value: Cell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled. */
function csvField(value: Cell): string {
  const s = text(value);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

export function toCsv(columns: readonly string[], rows: readonly Cell[][]): string {
  return [columns, ...rows].map((row) => row.map(csvField).join(',')).join('\n') + '\n';
}

export function toJson(columns: readonly string[], rows: readonly Cell[][]): string {
  return `${JSON.stringify(rows.map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i] ?? null]))))}\n`;
}

/** Columns padded to their widest cell, with a row count at the end; NULL shows as empty. */
export function toTable(columns: readonly string[], rows: readonly Cell[][]): string {
  const cells = rows.map((row) => row.map((v) => text(v).replace(/\s*\n\s*/g, ' ')));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]?.length ?? 0)));
  const line = (values: readonly string[]) => values.map((v, i) => v.padEnd(widths[i] ?? 0)).join(' | ').trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('-+-');
  const count = `(${rows.length} row${rows.length === 1 ? '' : 's'})`;
  return [line(columns), rule, ...cells.map(line), count].join('\n') + '\n';
}
