import { describe, expect, it } from 'vitest';
import { INLINE_STRING_LIMIT_BYTES, reportParts } from '../../src/reports/report-parts.js';

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

describe('a report\'s text in parts DuckDB stores inline', () => {
  it('cuts ASCII text into parts of 4,000 characters that join back to it', () => {
    const text = JSON.stringify({ figures: Array.from({ length: 600 }, (_, i) => ({ month: `2024-${(i % 12) + 1}`, value: `${i}.00` })) });
    const parts = reportParts(text);
    expect(parts.join('')).toBe(text);
    expect(parts.slice(0, -1).map((p) => p.length)).toEqual(Array(parts.length - 1).fill(4000));
    expect(parts.length).toBe(Math.ceil(text.length / 4000));
  });

  it('keeps every part of any text under 4,096 bytes and never splits a character of two code units', () => {
    // Three-byte characters (£, €) and four-byte ones (emoji, two UTF-16 code units each), at every offset.
    for (let offset = 0; offset < 4; offset++) {
      const text = 'x'.repeat(offset) + '£€😀'.repeat(2000) + '"end"';
      const parts = reportParts(text);
      expect(parts.join('')).toBe(text);
      for (const part of parts) {
        expect(bytes(part)).toBeLessThan(INLINE_STRING_LIMIT_BYTES);
        // A part that began or ended inside a surrogate pair would not encode back to the same text.
        expect(Buffer.from(part, 'utf8').toString('utf8')).toBe(part);
      }
    }
  });

  it('stores an empty text as one empty part', () => {
    expect(reportParts('')).toEqual(['']);
  });
});
