import { describe, expect, it } from 'vitest';
import { INLINE_STRING_LIMIT_BYTES, PART_CODE_UNITS, reportParts } from '../../src/reports/report-parts.js';

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

describe('a report\'s text in parts DuckDB stores inline', () => {
  it('cuts text into parts of 1,000 characters that join back to it', () => {
    const text = JSON.stringify({ figures: Array.from({ length: 600 }, (_, i) => ({ month: `2024-${(i % 12) + 1}`, value: `${i}.00` })) });
    const parts = reportParts(text);
    expect(parts.join('')).toBe(text);
    expect(PART_CODE_UNITS).toBe(1000);
    expect(parts.slice(0, -1).map((p) => p.length)).toEqual(Array(parts.length - 1).fill(1000));
    expect(parts.length).toBe(Math.ceil(text.length / 1000));
  });

  it('keeps every part of any text under 4,096 bytes and never splits a character of two code units', () => {
    // Three-byte characters (€, 한) and four-byte ones (emoji, two UTF-16 code units each), at every offset.
    for (let offset = 0; offset < 4; offset++) {
      const text = 'x'.repeat(offset) + '€한😀'.repeat(2000) + '"end"';
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
