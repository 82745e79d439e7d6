import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { textAfter } from '../../src/domain/text-order.js';

/** Code points from every range whose UTF-16 and UTF-8 orders could differ: ASCII, the rest of the BMP around the surrogates, and above U+FFFF. */
const POINTS = [0x41, 0x7a, 0xe9, 0x3042, 0xd7ff, 0xe000, 0xfb01, 0xfffd, 0xffff, 0x10000, 0x1f600, 0x10ffff];

function randomText(next: () => number): string {
  const length = Math.floor(next() * 4);
  return String.fromCodePoint(...Array.from({ length }, () => POINTS[Math.floor(next() * POINTS.length)] as number));
}

describe('text compared as DuckDB compares it', () => {
  it('puts a character above U+FFFF after one from U+E000 to U+FFFF, where JavaScript puts it before', () => {
    expect('e😀' > 'e\uFFFF').toBe(false);
    expect(textAfter('e😀', 'e\uFFFF')).toBe(true);
    expect(textAfter('e\uFFFF', 'e😀')).toBe(false);
    expect(textAfter('ev-2', 'ev-10')).toBe(true);
    expect(textAfter('ev-1', 'ev-1')).toBe(false);
    expect(textAfter('ev-10', 'ev-1')).toBe(true);
  });

  it('agrees with the order of the texts\' UTF-8 bytes, and with DuckDB, on every pair of a set of texts', async () => {
    let seed = 7;
    const next = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const texts = [...new Set(Array.from({ length: 300 }, () => randomText(next)))];
    const byBytes = [...texts].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    const byTextAfter = [...texts].sort((a, b) => (textAfter(a, b) ? 1 : textAfter(b, a) ? -1 : 0));
    expect(byTextAfter).toEqual(byBytes);
    const conn = await (await DuckDBInstance.create(':memory:')).connect();
    try {
      await conn.run('CREATE TABLE t (s VARCHAR)');
      const appender = await conn.createAppender('t');
      for (const s of texts) {
        appender.appendVarchar(s);
        appender.endRow();
      }
      appender.closeSync();
      const sorted = (await conn.runAndReadAll('SELECT s FROM t ORDER BY s')).getRowObjects().map((r) => r.s);
      expect(sorted).toEqual(byTextAfter);
    } finally {
      conn.closeSync();
    }
  });
});
