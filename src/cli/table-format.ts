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

/** CSV lines of some rows, each ended by a line break (the header is such a row: the column names). */
export function csvLines(rows: readonly (readonly Cell[])[]): string {
  return rows.map((row) => `${row.map(csvField).join(',')}\n`).join('');
}

export function toCsv(columns: readonly string[], rows: readonly Cell[][]): string {
  return csvLines([columns, ...rows]);
}

/**
 * A JSON array of row objects, written piece by piece: `open`, then each
 * slice of rows from `rows` (the first slice starts without a comma), then
 * `close`. Together they are exactly `JSON.stringify` of the whole array.
 */
export const jsonArray = {
  open: '[',
  rows: (columns: readonly string[], rows: readonly Cell[][], first: boolean): string =>
    rows.map((row, at) => `${first && at === 0 ? '' : ','}${JSON.stringify(Object.fromEntries(columns.map((c, i) => [c, row[i] ?? null])))}`).join(''),
  close: ']\n',
};

export function toJson(columns: readonly string[], rows: readonly Cell[][]): string {
  return jsonArray.open + jsonArray.rows(columns, rows, true) + jsonArray.close;
}

/**
 * Columns padded to their widest cell, with a row count at the end; NULL
 * shows as empty. `total`, when more rows were counted than are given,
 * says how many there were in all.
 */
export function toTable(columns: readonly string[], rows: readonly Cell[][], total: number = rows.length): string {
  const cells = rows.map((row) => row.map((v) => text(v).replace(/\s*\n\s*/g, ' ')));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]?.length ?? 0)));
  const line = (values: readonly string[]) => values.map((v, i) => v.padEnd(widths[i] ?? 0)).join(' | ').trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('-+-');
  const count = `(${total} row${total === 1 ? '' : 's'})`;
  const cut = total > rows.length ? [`(the first ${rows.length} shown: --csv or --json prints them all)`] : [];
  return [line(columns), rule, ...cells.map(line), count, ...cut].join('\n') + '\n';
}
