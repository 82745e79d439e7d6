import { describe, expect, it } from 'vitest';
import { toCsv, toJson, toTable } from '../../src/cli/table-format.js';

const columns = ['id', 'note', 'amount', 'tags'];
const rows = [
  ['a', 'plain', '12.50', ['x', 'y']],
  ['b', 'comma, "quote"\nand a line break', null, []],
];

describe('query results as text', () => {
  it('CSV quotes what needs quoting (RFC 4180) and leaves NULL empty', () => {
    expect(toCsv(columns, rows)).toBe('id,note,amount,tags\na,plain,12.50,"[""x"",""y""]"\nb,"comma, ""quote""\nand a line break",,[]\n');
  });

  it('JSON is an array of row objects, values as DuckDB gives them', () => {
    expect(JSON.parse(toJson(columns, rows))).toEqual([
      { id: 'a', note: 'plain', amount: '12.50', tags: ['x', 'y'] },
      { id: 'b', note: 'comma, "quote"\nand a line break', amount: null, tags: [] },
    ]);
  });

  it('a table pads columns, keeps one line per row, and counts the rows', () => {
    expect(toTable(['n'], [])).toBe('n\n-\n(0 rows)\n');
    expect(toTable(columns, rows).split('\n')).toEqual([
      'id | note                            | amount | tags',
      '---+---------------------------------+--------+----------',
      'a  | plain                           | 12.50  | ["x","y"]',
      'b  | comma, "quote" and a line break |        | []',
      '(2 rows)',
      '',
    ]);
  });
});
