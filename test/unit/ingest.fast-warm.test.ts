import { describe, expect, it } from 'vitest';
import { parseEvent } from '../../src/domain/events.js';
import { fastRowsOfBytes } from '../../src/ingest/fast-rows.js';
import { warmLines } from '../../src/ingest/fast-warm.js';

describe("the fast path thread's warm-up events", () => {
  it('are all valid events that the byte scan takes whole, of many customers, with every optional field and some deletions', () => {
    const lines = warmLines(3000);
    const texts = lines.map((l) => new TextDecoder().decode(l));
    // Valid by the schema, so that warming up compiles the path real events take, not the give-up paths.
    expect(texts.filter((t) => !parseEvent(t).ok)).toEqual([]);
    const found = fastRowsOfBytes(lines);
    expect(found.slow).toEqual([]);
    // Scanned as bytes: one text for all the rows, none through the text check.
    expect(found.rows).toHaveLength(1);
    expect(found.customers?.length).toBeGreaterThan(10);
    for (const field of ['"transaction.deleted"', '"regularity"', '"counterparty"', '"running_balance"', '"posted_date_time"', '"credit"', '"pending"']) {
      expect(texts.some((t) => t.includes(field)), field).toBe(true);
    }
  });
});
